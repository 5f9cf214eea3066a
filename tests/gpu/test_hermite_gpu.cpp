// The CUDA Hermite integrator (label gpu): the force kernel against a float64 double loop, shared and
// block steps against energy bounds derived below, several parts against one. Skips where no device is.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <optional>

#include "../unit/test_util.hpp"
#include "core/physics/diagnostics.hpp"
#include "core/errors.hpp"
#include "cuda_backend.hpp"
#include "gpu_test_util.hpp"
#include "hermite/hermite_forces.hpp"
#include "hermite/hermite_plan.hpp"
#include "hermite_reference.hpp"
#include "core/rows/integrator.hpp"

using namespace nbody;
using namespace nbody::test;

// No device needed: the device-side plan never writes more partial sums than the engine allocated, covers
// every i-body and every j-body, and keeps q within a warp, for every active count.
TEST(HermitePlan, CoversEveryActiveCountWithinTheScratch) {
    for (int n : {1, 2, 33, 257, 7499, 100000})
        for (int grid : {1, 132, 1056})
            for (int block : {64, 128, 256})
                for (int max_k : {1, 2, 4}) {
                    const long long records = kernels::force_partial_records(n, block, grid, max_k);
                    for (int ni = 1; ni <= n; ni += 1 + ni / 7) {
                        const kernels::ForcePlan pl = kernels::force_plan(ni, n, block, grid, max_k);
                        ASSERT_TRUE(pl.q >= 1 && pl.q <= 32 && (pl.q & (pl.q - 1)) == 0) << ni;
                        ASSERT_TRUE(pl.k >= 1 && pl.k <= max_k && (pl.k & (pl.k - 1)) == 0) << ni;
                        ASSERT_TRUE(pl.k == 1 || (pl.q == 1 && ni >= pl.k * block)) << ni;  // k lanes filled
                        ASSERT_EQ(pl.lanes * pl.q, block * pl.k);
                        ASSERT_GE(static_cast<long long>(pl.groups) * pl.lanes, ni);
                        ASSERT_GE(static_cast<long long>(pl.splits) * pl.chunk, n);
                        ASSERT_LE(static_cast<long long>(pl.splits) * ni, records)
                            << n << " " << ni << " " << grid;
                        if (pl.splits > 1) {
                            ASSERT_LE(static_cast<long long>(pl.splits) * pl.groups,
                                      4LL * std::max(grid, pl.groups));
                        }
                    }
                }
}

// Force, jerk and potential of active lists of 1, 7 and all bodies at awkward N, one part and two parts on
// one GPU, against the float64 double loop. Bounds, relative to the sum of the terms' magnitudes: fp32
// 1e-4 (each term is good to a few float ulps since the state is float32-representable; a float sum of n
// <= 7,499 terms errs by ~sqrt(n) u = 5e-6 of that sum, so 1e-4 is a 20x margin, and one missing or doubled
// term is >= 1/n of it); ds 1e-5 (float terms, but float sums of at most one tile, 128 terms, ~sqrt(128) u
// = 7e-7, flushed into double); fp64 1e-12 (n u = 8e-13 even summed worst-case).
// i-bodies per thread (force_plan's k): all 65,537 on one part take k = 4 (fp32; 2 for ds and fp64), on
// two parts k = 2; the smaller sets k = 1, so every instance of the kernel is compared. At 65,537 every
// 61st body is checked (the float64 loop is O(N) per body); the fp32 sum's ~sqrt(n) u = 1.5e-5 leaves a
// 6x margin under 1e-4.
TEST(HermiteForces, MatchFloat64DoubleLoopAtAwkwardNAndActiveSets) {
    REQUIRE_GPU(gpu);
    for (int n : {1, 2, 3, 31, 33, 255, 257, 7499, 65537}) {
        if (!within_cap(static_cast<std::size_t>(n))) continue;
        const State s = rounded_to_float32(test::plummer_state(static_cast<std::size_t>(n), 40 + n));
        for (Precision prec : {Precision::Fp32, Precision::DS, Precision::Fp64})
            for (int size : {1, 7, n})
                for (const std::vector<int>& devices : {std::vector<int>{0}, std::vector<int>{0, 0}}) {
                    if (size == 7 && n < 7) continue;
                    const SimParams p = hermite_params(Integrator::Hermite, prec, 0.01, 0.01);
                    const std::vector<int> act = active_set(n, size);
                    const HermiteForces f = cuda_hermite_forces(s, act, p, devices);
                    ASSERT_EQ(f.acc.size(), act.size());
                    const double tol = prec == Precision::Fp64 ? 1e-12 : prec == Precision::DS ? 1e-5 : 1e-4;
                    const std::size_t stride = act.size() > 10000 ? 61 : 1;
                    for (std::size_t k = 0; k < act.size(); k += stride) {
                        const RefForce r = reference(s, act[k], p.eps, p.G);
                        const std::string where =
                            std::string(precision_name(prec)) + " N " + std::to_string(n) + " active " +
                            std::to_string(act.size()) + " parts " + std::to_string(devices.size()) +
                            " body " + std::to_string(act[k]);
                        if (n == 1) {
                            EXPECT_EQ(f.acc[k].x, 0.0) << where;
                            EXPECT_EQ(f.jerk[k].x, 0.0) << where;
                            EXPECT_EQ(f.acc[k].w, 0.0) << where;  // no self term in the potential
                            continue;
                        }
                        EXPECT_LE(err(f.acc[k], r.a), tol * r.a_scale) << where;
                        EXPECT_LE(err(f.jerk[k], r.j), tol * r.j_scale) << where;
                        EXPECT_LE(std::abs(f.acc[k].w - r.phi), tol * r.phi_scale) << where;
                    }
                }
    }
}

// Far from the origin (a Plummer sphere moved to x = 1000) float32 positions keep only ~6e-5 of absolute
// precision, 6e-4 of a typical separation of 0.1; ds forms x_j - x_i from the float hi and lo parts of the
// double positions, exact to the float rounding of the difference: its bound stays 1e-5 as at the origin.
TEST(HermiteForces, DoubleSingleKeepsCloseDifferencesFarFromTheOrigin) {
    REQUIRE_GPU(gpu);
    State s = test::plummer_state(1000, 9);
    for (Double4& p : s.pos_mass) p.x += 1000.0;
    const SimParams p = hermite_params(Integrator::Hermite, Precision::DS, 0.01, 0.01);
    const std::vector<int> act = active_set(1000, 1000);
    const HermiteForces f = cuda_hermite_forces(s, act, p);
    for (std::size_t k = 0; k < act.size(); ++k) {
        const RefForce r = reference(s, act[k], p.eps, p.G);
        EXPECT_LE(err(f.acc[k], r.a), 1e-5 * r.a_scale) << act[k];
        EXPECT_LE(err(f.jerk[k], r.j), 1e-5 * r.j_scale) << act[k];
    }
}

// Shared steps, Plummer N = 1024, eps = 0.01, to t = 0.25. The float64 Hermite on the CPU (the same
// predictor, corrector and step, a double loop for the forces) gives |dE/E| = 1.57e-4, 1.05e-5, 1.77e-6,
// 6.2e-8 at dt = 1/64 ... 1/512: fourth order once dt resolves the closest encounters (16x per halving,
// 29x measured from 1/256 to 1/512). fp64 forces agree with it to ~1e-13 of a force, so: dt = 1/256 below
// 2.5e-6, and the halving to 1/512 gains between 8x and 64x. fp32 forces add a rounding error of ~1e-6 of
// each force per evaluation, which over 64 steps moves E by ~1e-7 (2.5e-7 if systematic): below 3e-6; ds
// forces err by ~1e-7 of a force, which leaves fp64's bound.
TEST(HermiteShared, PlummerEnergyErrorIsFourthOrder) {
    REQUIRE_GPU(gpu);
    const State s = test::plummer_state(1024, 11);
    const double e256 =
        energy_error_after(*gpu, s, hermite_params(Integrator::Hermite, Precision::Fp64, 1.0 / 256, 0.01), 0.25);
    const double e512 =
        energy_error_after(*gpu, s, hermite_params(Integrator::Hermite, Precision::Fp64, 1.0 / 512, 0.01), 0.25);
    EXPECT_LT(e256, 2.5e-6);
    EXPECT_GT(e256 / e512, 8.0) << e256 << " " << e512;
    EXPECT_LT(e256 / e512, 64.0) << e256 << " " << e512;
    EXPECT_EQ(gpu->steps_taken(), 128);
    EXPECT_EQ(gpu->work().pairs, 128.0 * 1024 * 1024);
    EXPECT_EQ(gpu->work().flops_per_pair, 60.0);
    const double e32 =
        energy_error_after(*gpu, s, hermite_params(Integrator::Hermite, Precision::Fp32, 1.0 / 256, 0.01), 0.25);
    EXPECT_LT(e32, 3e-6);
    const double eds =
        energy_error_after(*gpu, s, hermite_params(Integrator::Hermite, Precision::DS, 1.0 / 256, 0.01), 0.25);
    EXPECT_LT(eds, 2.5e-6);
}

// Block steps: a tight binary (period 0.044) in a Plummer field, eps = 1e-4, dt_max = 1/64, eta = 0.01, to
// t = 0.25. The float64 CPU run of the same scheme: 859 block steps, 18.2 active of 258 on average, |dE/E|
// 2.1e-8. Shared steps of 1/64 would take 3 steps per binary orbit and lose it. Bounds: fp64 |dE/E| < 1e-6
// (50x: block steps may differ in a few power-of-two choices at rounding boundaries), mean active < 1/4 of
// N, block steps > 10x the 16 steps of dt_max. fp32: the binary's separation (0.01) is formed from float
// positions near 0.005 (error 3e-10, 3e-8 of it): |dE/E| < 1e-5.
TEST(HermiteBlock, BinaryInFieldKeepsEnergyWithFewActive) {
    REQUIRE_GPU(gpu);
    const State s = binary_in_field();
    SimParams p = hermite_params(Integrator::HermiteBlock, Precision::Fp64, 1.0 / 64, 1e-4);
    p.eta = 0.01;
    const double e64 = energy_error_after(*gpu, s, p, 0.25);
    EXPECT_LT(e64, 1e-6);
    const WorkCount w = gpu->work();
    const double mean_active = w.pairs / static_cast<double>(w.evaluations) / static_cast<double>(s.size());
    EXPECT_LT(mean_active, static_cast<double>(s.size()) / 4.0);
    EXPECT_GE(mean_active, 2.0);  // the binary is active every block step
    EXPECT_GT(w.evaluations, 160);
    EXPECT_NEAR(gpu->time(), 0.25, 1e-15);
    p.precision = Precision::Fp32;
    EXPECT_LT(energy_error_after(*gpu, s, p, 0.25), 1e-5);
}

// Block steps on the GPU against the same scheme on the host in float64, binary in field to t = 1/16 (about
// 200 block steps). fp64: the forces differ only in summation order and the refined rsqrt (~1e-15 of a
// force), so every power-of-two choice and the block-step count agree and the positions stay within 1e-10
// (a few hundred steps of 1e-15 growth, with margin). fp32 and ds forces err by ~1e-6 and ~1e-7 of a force:
// a step choice at a rounding boundary may differ, but both runs integrate to eta's accuracy (|dE/E| ~ 1e-8
// over the run), so the positions, synchronised at t = 1/16, agree within 1e-6 (1e-4 of the binary's
// separation).
TEST(HermiteBlock, AgreesWithTheSameSchemeOnTheHost) {
    REQUIRE_GPU(gpu);
    const State s = binary_in_field();
    SimParams p = hermite_params(Integrator::HermiteBlock, Precision::Fp64, 1.0 / 64, 1e-4);
    p.eta = 0.01;
    long long host_steps = 0;
    const State want = host_hermite(s, p, 1.0 / 16, host_steps);
    for (Precision prec : {Precision::Fp64, Precision::DS, Precision::Fp32}) {
        p.precision = prec;
        gpu->reset(s, p);
        while (gpu->time() < 1.0 / 16) gpu->step(1);
        State got;
        gpu->read_state(got);
        EXPECT_EQ(gpu->time(), 1.0 / 16);
        const double tol = prec == Precision::Fp64 ? 1e-10 : 1e-6;
        EXPECT_LT(max_position_difference(got, want), tol) << precision_name(prec);
        if (prec == Precision::Fp64) {
            EXPECT_EQ(gpu->steps_taken(), host_steps);
        }
    }
}

// One period of the eccentric orbit with block steps, eta = 0.01, fp64: the analytic orbit returns to its
// start. The float64 host run of the scheme takes 355 block steps and ends 2.7e-6 from the start with
// |dE/E| = 1.9e-6 (eta 0.02 / 0.005: 7.7e-6 / 3.8e-7 and 4.7e-6 / 1.7e-7, so it is eta's error, not
// rounding). The GPU takes the same steps: bounds 1e-5 and 5e-6, and the same block-step count.
TEST(HermiteBlock, EccentricKeplerReturnsAfterOnePeriod) {
    REQUIRE_GPU(gpu);
    const double G = (M_PI / 4) * (M_PI / 4);
    const State s = eccentric_kepler(G);
    SimParams p = hermite_params(Integrator::HermiteBlock, Precision::Fp64, 1.0 / 8, 0.0);
    p.G = G;
    p.eta = 0.01;
    long long host_steps = 0;
    host_hermite(s, p, 8.0, host_steps);
    gpu->reset(s, p);
    while (gpu->time() < 8.0) gpu->step(1);
    State out;
    gpu->read_state(out);
    EXPECT_EQ(gpu->time(), 8.0);
    EXPECT_EQ(gpu->steps_taken(), host_steps);
    EXPECT_LT(std::hypot(out.pos_mass[0].x - s.pos_mass[0].x, out.pos_mass[0].y - s.pos_mass[0].y), 1e-5);
    EXPECT_LT(relative_energy_error(compute_diagnostics(s, 0, G), compute_diagnostics(out, 0, G)), 5e-6);
}

// The level histogram from the device's ticks (HermiteEngine::block_levels): every body counted, the binary
// on the deepest level with few others (an H100 run put one field body there beside it), the last block
// step's active count the one the work counter says (active x N pairs a block step), 0 before the first; two parts on one GPU report what one part does (part 0 holds
// every body's times); shared steps have none.
TEST(HermiteBlock, LevelsCountEveryBodyAndTheLastActiveSet) {
    REQUIRE_GPU(gpu);
    const State s = binary_in_field();
    SimParams p = hermite_params(Integrator::HermiteBlock, Precision::Fp64, 1.0 / 64, 1e-4);
    p.eta = 0.01;
    gpu->reset(s, p);
    std::optional<BlockLevels> l = gpu->readouts(ReadoutAsk::levels()).block_levels;
    ASSERT_TRUE(l.has_value());
    EXPECT_EQ(l->dt_max, p.dt);
    EXPECT_EQ(l->last_active, 0u);
    for (int k = 0; k < 20; ++k) {
        const double pairs = gpu->work().pairs;
        gpu->step(1);
        l = gpu->readouts(ReadoutAsk::levels()).block_levels;
        ASSERT_TRUE(l.has_value());
        EXPECT_EQ(std::accumulate(l->count.begin(), l->count.end(), std::size_t{0}), s.size());
        EXPECT_GE(l->last_active, 2u);  // the binary sets the shortest step
        EXPECT_EQ(static_cast<double>(l->last_active) * static_cast<double>(s.size()), gpu->work().pairs - pairs)
            << "block step " << k;
    }
    EXPECT_GE(l->count.back(), 2u);  // the binary, and at most a few field bodies passing near it
    EXPECT_LE(l->count.back(), s.size() / 20);
    CudaBackend two({0, 0});
    two.reset(s, p);
    two.step(20);
    const std::optional<BlockLevels> l2 = two.readouts(ReadoutAsk::levels()).block_levels;
    ASSERT_TRUE(l2.has_value());
    EXPECT_EQ(l2->count, l->count);
    EXPECT_EQ(l2->last_active, l->last_active);
    p.integrator = Integrator::Hermite;
    gpu->set_params(p);
    EXPECT_FALSE(gpu->readouts(ReadoutAsk::levels()).block_levels.has_value());
}

// Two parts on one GPU run the whole decomposition (active list split, stores into the other part's copy,
// the events between them) and must give what one part gives: fp64 to 1e-10 of the positions after 10
// shared steps and after 200 block steps (the sums differ in order only: the two parts plan their own
// j-splits), fp32 shared steps to 1e-5.
TEST(HermiteParts, TwoPartsOnOneGpuMatchOnePart) {
    REQUIRE_GPU(gpu);
    auto run = [](std::vector<int> devices, const State& s, const SimParams& p, int steps) {
        CudaBackend b(std::move(devices));
        b.reset(s, p);
        b.step(steps);
        State out;
        b.read_state(out);
        return std::make_pair(out, b.time());
    };
    struct Case {
        State s;
        SimParams p;
        int steps;
        double tol;
    };
    SimParams block = hermite_params(Integrator::HermiteBlock, Precision::Fp64, 1.0 / 64, 1e-4);
    const std::vector<Case> cases = {
        {test::plummer_state(1000, 3), hermite_params(Integrator::Hermite, Precision::Fp64, 1.0 / 256, 0.01), 10,
         1e-10},
        {test::plummer_state(1000, 3), hermite_params(Integrator::Hermite, Precision::Fp32, 1.0 / 256, 0.01), 10,
         1e-5},
        {binary_in_field(), block, 200, 1e-10},
    };
    for (const Case& c : cases) {
        const auto one = run({0}, c.s, c.p, c.steps), two = run({0, 0}, c.s, c.p, c.steps);
        EXPECT_EQ(one.second, two.second);
        EXPECT_LT(max_position_difference(one.first, two.first), c.tol)
            << integrator_name(c.p.integrator) << " " << precision_name(c.p.precision);
    }
}

// Switching leap-frog -> Hermite at a step boundary carries the particles; a bad eta is refused with the
// reason and the running state kept.
TEST(HermiteSwitch, CarriesStateAndRefusesBadEta) {
    REQUIRE_GPU(gpu);
    const State s = test::plummer_state(500, 5);
    SimParams p;
    p.precision = Precision::Fp64;
    gpu->reset(s, p);
    gpu->step(3);
    State before, after;
    gpu->read_state(before);
    p.integrator = Integrator::Hermite;
    gpu->set_params(p);
    gpu->read_state(after);
    for (std::size_t i = 0; i < s.size(); ++i) EXPECT_EQ(before.pos_mass[i].x, after.pos_mass[i].x);
    EXPECT_NEAR(gpu->time(), before.time, 1e-15);
    gpu->step(2);
    EXPECT_NEAR(gpu->time(), before.time + 2 * p.dt, 1e-12);
    SimParams bad = p;
    bad.integrator = Integrator::HermiteBlock;
    bad.eta = 0;
    EXPECT_THROW(gpu->set_params(bad), ParamError);
    bad.eta = std::nan("");
    EXPECT_THROW(gpu->set_params(bad), ParamError);
    State kept;
    gpu->read_state(kept);
    EXPECT_EQ(kept.size(), s.size());
    EXPECT_NEAR(gpu->time(), before.time + 2 * p.dt, 1e-12);
}

// A binary of separation 1e-9 without softening has a period of ~1e-12, below the smallest block step
// (dt / 2^32 = 2.3e-10 for dt = 1): the reset says so and the running state stays.
TEST(HermiteBlock, StepUnderflowIsRefusedWithTheReason) {
    REQUIRE_GPU(gpu);
    const State field = test::plummer_state(64, 3);
    SimParams p = hermite_params(Integrator::HermiteBlock, Precision::Fp64, 1.0, 0.0);
    gpu->reset(field, p);
    State tight;
    tight.resize(2);
    const double m = 0.01, a = 1e-9, v = std::sqrt(2 * m / a) / 2;
    tight.pos_mass = {Double4{a / 2, 0, 0, m}, Double4{-a / 2, 0, 0, m}};
    tight.vel = {Double4{0, v, 0, 0}, Double4{0, -v, 0, 0}};
    try {
        gpu->reset(tight, p);
        ADD_FAILURE() << "no error for a step below dt / 2^32";
    } catch (const BackendError& e) {
        EXPECT_NE(std::string(e.what()).find("needs a step below"), std::string::npos) << e.what();
    }
    EXPECT_EQ(gpu->size(), field.size());
    State kept;
    gpu->read_state(kept);
    EXPECT_EQ(kept.pos_mass[5].x, field.pos_mass[5].x);
}
