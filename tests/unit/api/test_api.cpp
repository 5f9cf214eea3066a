// The public API (include/nbody/nbody.hpp) as an outside program sees it: only <nbody/nbody.hpp> is included.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nbody/nbody.hpp>

namespace api = nbody::api;

namespace {

// Two equal masses on a circular orbit about their centre of mass: separation 1, G = 1, m = 1/2 each, so each
// moves on a circle of radius 1/2 at speed sqrt(G m / (2 d)) = 1/2 and the period is 2 pi.
api::Simulation circular_pair(const std::string& integrator, double dt) {
    const double pos[] = {-0.5, 0, 0, 0.5, 0, 0};
    const double vel[] = {0, -0.5, 0, 0, 0.5, 0};
    const double mass[] = {0.5, 0.5};
    api::Params p;
    p.backend = "cpu";
    p.precision = "fp64";
    p.integrator = integrator;
    p.eps = 0;
    p.dt = dt;
    return api::Simulation::from_arrays(2, pos, vel, mass, p);
}

std::string param_error(const api::Params& p, std::string* field) {
    try {
        api::validate(p);
    } catch (const nbody::ParamError& e) {
        *field = e.field;
        return e.what();
    }
    return {};
}

std::string scene(const char* name) {
    return api::scenes_dir() + "/" + name;
}

}  // namespace

TEST(Api, VersionAndScenesDir) {
    EXPECT_EQ(api::version(), NBODY_VERSION_STRING);
    EXPECT_TRUE(std::filesystem::exists(scene("plummer.toml"))) << api::scenes_dir();
}

TEST(Api, SceneRunsWithItsOwnParametersAndConservesEnergy) {
    auto sim = api::Simulation::from_scene(scene("plummer.toml"), 256);
    EXPECT_EQ(sim.size(), 256u);
    EXPECT_EQ(sim.params().dt, 0.01);  // plummer.toml's
    EXPECT_EQ(sim.params().backend, "auto");
    api::Params p = sim.params();
    p.backend = "cpu";
    p.precision = "fp64";
    sim.set_params(p);
    sim.step(20);
    EXPECT_EQ(sim.steps(), 20);
    EXPECT_NEAR(sim.time(), 0.2, 1e-12);
    const api::Diagnostics d = sim.diagnostics();
    EXPECT_NEAR(d.total, -0.25, 0.03);  // Henon units (the softening and N = 256 shift it a little)
    EXPECT_GT(d.energy_error, 0.0);     // it did move
    EXPECT_LT(d.energy_error, 1e-3);
    EXPECT_LT(d.momentum_drift, 1e-10);
    EXPECT_NE(sim.backend_name().find("cpu"), std::string::npos);
    // The same seed gives the same bodies; another seed other bodies.
    std::vector<double> a(3 * 256), b(3 * 256), c(3 * 256);
    api::Simulation::from_scene(scene("plummer.toml"), 256).get_positions(a.data());
    api::Simulation::from_scene(scene("plummer.toml"), 256).get_positions(b.data());
    api::Simulation::from_scene(scene("plummer.toml"), 256, 7).get_positions(c.data());
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
}

TEST(Api, CircularOrbitClosesAfterOnePeriod) {
    auto sim = circular_pair("leapfrog", 1e-3);
    const double t = sim.evolve(2 * M_PI);
    EXPECT_GE(t, 2 * M_PI - 1e-9);
    EXPECT_LT(t, 2 * M_PI + 1e-3);
    std::vector<double> x(6), v(6), m(2);
    sim.get_positions(x.data());
    sim.get_velocities(v.data());
    sim.get_masses(m.data());
    EXPECT_NEAR(x[0], -0.5, 1e-5);
    EXPECT_NEAR(x[1], 0.0, 2e-3);  // the last step overshoots 2 pi by up to dt at speed 1/2
    EXPECT_NEAR(x[3], 0.5, 1e-5);
    EXPECT_NEAR(v[1], -0.5, 1e-5);
    EXPECT_EQ(m[0], 0.5);
    EXPECT_LT(sim.diagnostics().energy_error, 1e-6);
}

TEST(Api, HermiteBlockEvolveStopsAtTheFirstBlockTimeAtOrAfterTEnd) {
    auto sim = circular_pair("hermite-block", 1.0 / 64);
    const double t = sim.evolve(1.0);
    EXPECT_GE(t, 1.0 - 1e-9);
    EXPECT_LE(t, 1.0 + 1.0 / 64);
    EXPECT_GT(sim.steps(), 0);
    EXPECT_LT(sim.diagnostics().energy_error, 1e-8);
}

// A Plummer sphere under leapfrog-block: its levels count every body, the last block step's active ones
// among them; leapfrog has none.
TEST(Api, BlockLevelsCountEveryBodyUnderBlockStepsOnly) {
    auto sim = api::Simulation::from_scene(scene("plummer.toml"), 512, 3);
    api::Params p = sim.params();
    p.backend = "cpu", p.integrator = "leapfrog-block", p.eta = 0.05, p.dt = 1.0 / 16;
    sim.set_params(p);
    sim.step(4);
    const std::optional<api::BlockLevels> l = sim.block_levels();
    ASSERT_TRUE(l.has_value());
    EXPECT_EQ(l->dt_max, 1.0 / 16);
    std::size_t total = 0;
    for (std::size_t c : l->counts) total += c;
    EXPECT_EQ(total, 512u);
    EXPECT_GT(l->counts.size(), 1u);
    EXPECT_GT(l->last_active, 0u);
    EXPECT_LE(l->last_active, 512u);
    p.integrator = "leapfrog";
    sim.set_params(p);
    EXPECT_FALSE(sim.block_levels().has_value());
}

TEST(Api, AccelerationsAreNewtonsLaw) {
    auto sim = circular_pair("leapfrog", 1e-3);
    std::vector<double> a(6);
    sim.get_accelerations(a.data());
    // G m / d^2 = 0.5 towards the other body.
    EXPECT_DOUBLE_EQ(a[0], 0.5);
    EXPECT_DOUBLE_EQ(a[3], -0.5);
    EXPECT_EQ(a[1], 0.0);
    EXPECT_EQ(a[5], 0.0);
}

TEST(Api, PotentialsSumToThePotentialEnergy) {
    auto sim = circular_pair("leapfrog", 1e-3);
    std::vector<double> phi(2);
    sim.get_potentials(phi.data());
    // -G m / d for the other body of mass 1/2 at distance 1; W = sum m phi / 2 = -G m m / d = -1/4.
    EXPECT_DOUBLE_EQ(phi[0], -0.5);
    EXPECT_DOUBLE_EQ(phi[1], -0.5);
    EXPECT_DOUBLE_EQ(sim.diagnostics().potential, -0.25);
}

TEST(Api, ParamErrorsNameTheFieldAndWhatItAllows) {
    std::string field;
    api::Params p;
    p.dt = -0.1;
    EXPECT_NE(param_error(p, &field).find("from 1e-12 to 1e6"), std::string::npos);
    EXPECT_EQ(field, "dt");
    p = {};
    p.eps = std::nan("");
    EXPECT_NE(param_error(p, &field).find("eps: must be 0 or from 1e-9"), std::string::npos);
    p = {};
    p.backend = "gpu";
    EXPECT_EQ(param_error(p, &field), "backend: must be one of auto, cpu, cuda, gl (got 'gpu')");
    p = {};
    p.precision = "fp16";
    EXPECT_EQ(param_error(p, &field), "precision: must be one of fp32, ds, fp64 (got 'fp16')");
    p = {};
    p.integrator = "euler";
    EXPECT_NE(param_error(p, &field).find("leapfrog, hermite, hermite-block"), std::string::npos);
    p = {};
    p.variant = "fast";
    EXPECT_NE(param_error(p, &field).find("ij-unrolled"), std::string::npos);
    EXPECT_EQ(field, "variant");
    p = {};
    p.variant = "tc";  // the tensor family runs in fp32 only
    p.precision = "fp64";
    EXPECT_EQ((param_error(p, &field), field), "precision");
    p = {};
    p.method = "barnes";
    EXPECT_EQ((param_error(p, &field), field), "method");
    p = {};
    p.eta = 0;
    EXPECT_EQ((param_error(p, &field), field), "eta");
    p = {};
    p.gpus = 65;
    EXPECT_EQ((param_error(p, &field), field), "gpus");
    p = {};
    p.cpu_threads = -1;
    EXPECT_EQ((param_error(p, &field), field), "cpu_threads");
}

// api::choices lists what each text field takes: every name is accepted as that field (another field may
// still refuse the combination, hermite6 in fp32), a name beside them is refused, and help texts list them.
TEST(Api, ChoicesAreTheNamesEachTextFieldAccepts) {
    const std::vector<std::pair<const char*, std::string api::Params::*>> fields = {
        {"backend", &api::Params::backend}, {"precision", &api::Params::precision},
        {"integrator", &api::Params::integrator}, {"method", &api::Params::method},
        {"variant", &api::Params::variant}};
    for (const auto& [name, member] : fields) {
        const std::vector<std::string> names = api::choices(name);
        ASSERT_GE(names.size(), 2u) << name;
        for (const std::string& c : names) {
            api::Params p;
            p.*member = c;
            std::string field;
            param_error(p, &field);
            EXPECT_NE(field, name) << name << " = " << c;
        }
        api::Params p;
        p.*member = names.front() + "x";
        std::string field;
        param_error(p, &field);
        EXPECT_EQ(field, name);
    }
    EXPECT_EQ(api::choices("integrator").front(), "leapfrog");
    EXPECT_TRUE(api::choices("dt").empty());
}

TEST(Api, RejectedParamsLeaveTheRunAsItWas) {
    auto sim = circular_pair("leapfrog", 1e-3);
    sim.step(3);
    api::Params bad = sim.params();
    bad.G = 0;
    EXPECT_THROW(sim.set_params(bad), nbody::ParamError);
    EXPECT_EQ(sim.params().G, 1.0);
    sim.step(1);
    EXPECT_EQ(sim.steps(), 4);
}

TEST(Api, ArraysWithBadValuesAreRefusedByNameAndIndex) {
    const double nan = std::nan("");
    const double pos[] = {0, 0, 0, 1, 0, nan};
    const double vel[] = {0, 0, 0, 0, 0, 0};
    const double mass[] = {1, 1};
    try {
        api::Simulation::from_arrays(2, pos, vel, mass);
        FAIL() << "NaN accepted";
    } catch (const nbody::ParamError& e) {
        EXPECT_EQ(e.field, "positions[1]");
        EXPECT_EQ(std::string(e.what()), "positions[1]: z is nan; every value must be finite");
    }
    const double good[] = {0, 0, 0, 1, 0, 0};
    const double negative[] = {1, -2};
    try {
        api::Simulation::from_arrays(2, good, vel, negative);
        FAIL() << "negative mass accepted";
    } catch (const nbody::ParamError& e) {
        EXPECT_EQ(e.field, "masses[1]");
        EXPECT_EQ(std::string(e.what()), "masses[1]: is -2; masses must be >= 0");
    }
    EXPECT_THROW(api::Simulation::from_arrays(0, good, vel, mass), nbody::ParamError);
    EXPECT_THROW(api::Simulation::from_arrays(2, good, nullptr, mass), nbody::ParamError);
}

namespace {

// Saves `sim` to `path` and reads it back: every bit of the bodies, the time and the parameters.
void expect_reads_back_exactly(const api::Simulation& sim, const std::string& path) {
    auto back = api::Simulation::from_snapshot(path);
    std::vector<double> a(3 * sim.size()), b(3 * sim.size()), va(3 * sim.size()), vb(3 * sim.size());
    sim.get_positions(a.data());
    back.get_positions(b.data());
    sim.get_velocities(va.data());
    back.get_velocities(vb.data());
    EXPECT_EQ(a, b) << path;
    EXPECT_EQ(va, vb) << path;
    EXPECT_EQ(back.time(), sim.time()) << path;
    EXPECT_EQ(back.params().dt, sim.params().dt) << path;
    EXPECT_EQ(back.params().eps, sim.params().eps) << path;
    EXPECT_EQ(back.params().G, sim.params().G) << path;
    std::remove(path.c_str());
}

api::Simulation stepped_plummer() {
    auto sim = api::Simulation::from_scene(scene("plummer.toml"), 128);
    api::Params p = sim.params();
    p.backend = "cpu";
    p.dt = 0.005;
    sim.set_params(p);
    sim.step(5);
    return sim;
}

}  // namespace

TEST(Api, ASnapshotReadsBackExactly) {
    auto sim = stepped_plummer();
    const std::string path = ::testing::TempDir() + "api_snapshot.csv";
    sim.save(path);
    expect_reads_back_exactly(sim, path);
    std::vector<double> a(3 * 128), b(3 * 128);
    sim.get_positions(a.data());
    // Tipsy keeps float32 positions.
    const std::string tipsy = ::testing::TempDir() + "api_snapshot.tipsy";
    sim.save(tipsy);
    api::Simulation::from_snapshot(tipsy).get_positions(b.data());
    for (int i = 0; i < 3 * 128; ++i) EXPECT_EQ(b[i], double(float(a[i])));
    std::remove(tipsy.c_str());
}

TEST(Api, ChangingEpsRestartsTheEnergyBaseline) {
    auto sim = circular_pair("leapfrog", 0.05);
    sim.step(40);
    EXPECT_GT(sim.diagnostics().energy_error, 1e-9);
    api::Params p = sim.params();
    p.eps = 0.01;
    sim.set_params(p);
    EXPECT_EQ(sim.diagnostics().energy_error, 0.0);
    // A change of precision keeps the bodies and the clock.
    const double t = sim.time();
    p.precision = "fp32";
    sim.set_params(p);
    EXPECT_EQ(sim.time(), t);
    sim.step(1);
    EXPECT_NEAR(sim.time(), t + 0.05, 1e-12);
}

TEST(Api, ABlowUpIsAnErrorNamingTheStepAndTheBody) {
    // A speed near the largest double and the largest step: the first drift leaves the doubles.
    const double pos[] = {0, 0, 0, 1, 0, 0};
    const double vel[] = {0, 0, 0, 1e308, 0, 0};
    const double mass[] = {1, 1};
    api::Params p;
    p.backend = "cpu";
    p.precision = "fp64";
    p.dt = 1e6;
    auto sim = api::Simulation::from_arrays(2, pos, vel, mass, p);
    try {
        sim.step(1);
        FAIL() << "an infinite state went unnoticed";
    } catch (const nbody::Error& e) {
        EXPECT_NE(std::string(e.what()).find("NaN or infinite at step 1 (body "), std::string::npos)
            << e.what();
    }
}

TEST(Api, CudaWithoutADeviceIsABackendError) {
    auto sim = circular_pair("leapfrog", 1e-3);
    sim.step(1);
    api::Params p = sim.params();
    p.backend = "cuda";
    if (api::cuda_device_count() > 0) GTEST_SKIP() << "a CUDA device is here: backend cuda runs";
    EXPECT_THROW(sim.set_params(p), nbody::BackendError);  // a backend exists: switching makes the new one
    EXPECT_EQ(sim.params().backend, "cpu");
    auto fresh = circular_pair("leapfrog", 1e-3);
    fresh.set_params(p);  // no backend yet: the first step makes it
    EXPECT_THROW(fresh.step(1), nbody::BackendError);
}

// The library writes every snapshot format the sandbox does: HDF5 keeps every bit and the parameters.
TEST(Api, AnHdf5SnapshotReadsBackExactly) {
    auto sim = stepped_plummer();
    const std::string path = ::testing::TempDir() + "api_snapshot.hdf5";
    try {
        sim.save(path);
    } catch (const nbody::Error& e) {
        if (std::string(e.what()).find("HDF5 support is not built") != std::string::npos)
            GTEST_SKIP() << e.what();
        throw;
    }
    expect_reads_back_exactly(sim, path);
}

TEST(Api, ASnapshotOfAnUnknownKindIsAnErrorNamingTheFormats) {
    auto sim = circular_pair("leapfrog", 1e-3);
    const std::string path = ::testing::TempDir() + "api_snapshot.dat";
    try {
        sim.save(path);
        FAIL() << "saved " << path;
    } catch (const nbody::Error& e) {
        EXPECT_EQ(std::string(e.what()), path +
                                             ": unknown extension '.dat' for a snapshot; the formats are CSV "
                                             "(*.csv), tipsy (*.tipsy, *.std, *.bin) or HDF5 (*.hdf5, *.h5)");
    }
    EXPECT_THROW(api::Simulation::from_snapshot(path), nbody::Error);
}
