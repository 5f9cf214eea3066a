// libnbody_sapporo6 through its C interface only (sapporo6thlib.h), on the CPU: prediction, forces against
// a long double direct sum, batching above the pipe count, and every kind of bad input refused with the
// j-memory kept.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include "sapporo6_fixture.hpp"

namespace nbody::test {
namespace {

constexpr int kPipes = 7;     // NBODY_SAPPORO6_NPIPES: batches of 7, so 40 i-particles take 6 of them
constexpr int kJMemory = 64;  // NBODY_SAPPORO6_JMEMORY
constexpr double nan = std::numeric_limits<double>::quiet_NaN(), inf = HUGE_VAL;

class Sapporo6 : public ::testing::Test {
  protected:
    void SetUp() override {
        setenv("NBODY_SAPPORO6_DEVICE", "cpu", 1);
        setenv("NBODY_SAPPORO6_NPIPES", std::to_string(kPipes).c_str(), 1);
        setenv("NBODY_SAPPORO6_JMEMORY", std::to_string(kJMemory).c_str(), 1);
        initialize();
        ASSERT_STREQ(sapporo6_last_error(), "");
        ASSERT_STREQ(sapporo6_device(), "cpu");
    }
    void TearDown() override { cleanup(); }
};

TEST_F(Sapporo6, PredictsToCrackleAndPicksUp) {
    Sapporo6Cluster cl(40);
    cl.set_all();
    const double t = 0.25;
    predict_all(t, cl.n);
    ASSERT_STREQ(sapporo6_last_error(), "");
    const Sapporo6In p = picked_up(cl.n);
    for (int k = 0; k < cl.n; ++k) {
        const double dt = t - cl.time[k];
        Vec xw, vw, aw;
        for (int q = 0; q < 3; ++q) {
            xw[q] = cl.x[k][q] + dt * cl.v[k][q] + dt * dt / 2 * cl.a[k][q] +
                    std::pow(dt, 3) / 6 * cl.j[k][q] + std::pow(dt, 4) / 24 * cl.s[k][q] +
                    std::pow(dt, 5) / 120 * cl.c[k][q];
            vw[q] = cl.v[k][q] + dt * cl.a[k][q] + dt * dt / 2 * cl.j[k][q] +
                    std::pow(dt, 3) / 6 * cl.s[k][q] + std::pow(dt, 4) / 24 * cl.c[k][q];
            aw[q] =
                cl.a[k][q] + dt * cl.j[k][q] + dt * dt / 2 * cl.s[k][q] + std::pow(dt, 3) / 6 * cl.c[k][q];
        }
        EXPECT_LT(rel3(p.x[k], xw), 1e-15);
        EXPECT_LT(rel3(p.v[k], vw), 1e-15);
        EXPECT_LT(rel3(p.a[k], aw), 1e-15);
        EXPECT_EQ(p.id[k], cl.id[k]);
        EXPECT_EQ(p.mass[k], cl.mass[k]);
        EXPECT_EQ(p.eps2[k], cl.eps2[k]);
    }
    // no_predict_all: the stored values as they are.
    no_predict_all(t, cl.n);
    const Sapporo6In q = picked_up(cl.n);
    for (int k = 0; k < cl.n; ++k) EXPECT_EQ(q.x[k], cl.x[k]);
}

TEST_F(Sapporo6, ForcesMatchALongDoubleDirectSumInBatches) {
    Sapporo6Cluster cl(40);
    cl.set_all();
    predict_all(0.3, cl.n);
    Sapporo6In in = picked_up(cl.n);  // the j-particles themselves, self terms skipped by id
    in.x.push_back({0.1, -0.2, 0.3}), in.v.push_back({0, 0, 0}), in.a.push_back({0, 0, 0});
    in.mass.push_back(0.5), in.eps2.push_back(0.0), in.id.push_back(-5);  // a body not in the j-memory
    const Sapporo6In j = picked_up(cl.n);
    const int ni = int(in.id.size());
    Sapporo6Out out(ni, 99.0);
    calc(in, cl.n, out);
    ASSERT_STREQ(sapporo6_last_error(), "");
    for (int i = 0; i < ni; ++i) {
        const LongRef ref = long_double_sum(in, i, j);
        EXPECT_LT(rel3(out.acc[i], ref.acc), 1e-13) << i;
        EXPECT_LT(rel3(out.jrk[i], ref.jrk), 1e-13) << i;
        EXPECT_LT(rel3(out.snp[i], ref.snp), 1e-12) << i;
        EXPECT_NEAR(out.phi[i], double(ref.phi), 1e-14 * std::fabs(double(ref.phi)));
        EXPECT_EQ(out.nnb[i], ref.nnb);
        EXPECT_NEAR(out.r2[i], double(ref.r2min), 1e-15 * double(ref.r2min));
        EXPECT_EQ(out.crk[i], (Vec{0, 0, 0}));
    }
}

TEST_F(Sapporo6, ANewParticleIsUsedAsStoredUntilTheNextPrediction) {
    Sapporo6Cluster cl(10);
    cl.set_all();
    predict_all(0.5, cl.n);
    Vec x{3, 3, 3}, z{0, 0, 0};
    set_j_particle(4, x.data(), z.data(), z.data(), z.data(), z.data(), z.data(), 1.0, 0.5, 7, 0.0);
    int id = 0;
    double m = 0, e = 0;
    Vec p{}, v{}, a{};
    pick_up_predictor_2(4, id, m, e, p.data(), v.data(), a.data());
    EXPECT_EQ(p, x);
    EXPECT_EQ(id, 7);
}

TEST_F(Sapporo6, ABatchOfNoParticlesAndNoSourcesIsFine) {
    Sapporo6In in{{{0, 0, 0}}, {{0, 0, 0}}, {{0, 0, 0}}, {1.0}, {0.01}, {1}};
    Sapporo6Out out(1, 5.0);
    calc(in, 0, out);
    EXPECT_STREQ(sapporo6_last_error(), "");
    EXPECT_EQ(out.acc[0], (Vec{0, 0, 0}));
    EXPECT_EQ(out.nnb[0], -1);
    EXPECT_TRUE(std::isinf(out.r2[0]));
}

// Each bad call: the message names the call and the argument, stderr has it, and nothing changed.
struct BadCall {
    const char* what;
    std::function<void(Sapporo6Cluster&, Sapporo6In&, Sapporo6Out&)> call;
    std::string call_name, argument;
};

TEST_F(Sapporo6, BadInputIsRefusedWithTheCallAndArgumentAndTheJMemoryKept) {
    Sapporo6Cluster cl(12);
    cl.set_all();
    predict_all(0.2, cl.n);
    const Sapporo6In before = picked_up(cl.n);
    auto set = [](Sapporo6Cluster& c, int addr, int k) {
        set_j_particle(addr, c.x[k].data(), c.v[k].data(), c.a[k].data(), c.j[k].data(), c.s[k].data(),
                       c.c[k].data(), c.mass[k], c.time[k], c.id[k], c.eps2[k]);
    };
    const BadCall cases[] = {
        {"negative address", [&](auto& c, auto&, auto&) { set(c, -1, 0); }, "set_j_particle", "address -1"},
        {"address past the j-memory", [&](auto& c, auto&, auto&) { set(c, kJMemory, 0); }, "set_j_particle",
         "address 64"},
        {"NaN position", [&](auto& c, auto&, auto&) { c.x[0][1] = nan, set(c, 0, 0); }, "set_j_particle",
         "pos[1]"},
        {"infinite crackle", [&](auto& c, auto&, auto&) { c.c[0][2] = inf, set(c, 0, 0); }, "set_j_particle",
         "crk[2]"},
        {"NaN mass", [&](auto& c, auto&, auto&) { c.mass[0] = nan, set(c, 0, 0); }, "set_j_particle", "mass"},
        {"infinite time", [&](auto& c, auto&, auto&) { c.time[0] = inf, set(c, 0, 0); }, "set_j_particle",
         "time"},
        {"prediction before a particle's time", [](auto&, auto&, auto&) { predict_all(0.05, 12); },
         "predict_all", "time 0.05 is before the time"},
        {"prediction to NaN", [](auto&, auto&, auto&) { predict_all(nan, 12); }, "predict_all", "time"},
        {"nj above the addresses set", [](auto&, auto&, auto&) { predict_all(0.3, 13); }, "predict_all",
         "nj 13"},
        {"negative nj", [](auto&, auto&, auto&) { no_predict_all(0.3, -1); }, "no_predict_all", "nj -1"},
        {"unset address picked up",
         [](auto&, auto&, auto&) {
             int id;
             double m, e, p[3], v[3], a[3];
             pick_up_predictor_2(1000, id, m, e, p, v, a);
         },
         "pick_up_predictor_2", "address 1000"},
        {"negative ni",
         [](auto&, auto& in, auto& out) {
             calc_force_on_predictors(-1, 12, in.id.data(), nullptr, nullptr, nullptr, nullptr, nullptr,
                                      reinterpret_cast<double(*)[3]>(out.acc.data()), nullptr, nullptr,
                                      nullptr, nullptr, nullptr, nullptr);
         },
         "calc_force_on_predictors", "ni -1"},
        {"nj past the j-memory set", [](auto&, auto& in, auto& out) { calc(in, 40, out); },
         "calc_force_on_predictors", "nj 40"},
        {"NaN velocity", [](auto&, auto& in, auto& out) { in.v[3][0] = nan, calc(in, 12, out); },
         "calc_force_on_predictors", "vel[3][0]"},
        {"infinite acceleration", [](auto&, auto& in, auto& out) { in.a[11][2] = -inf, calc(in, 12, out); },
         "calc_force_on_predictors", "acc[11][2]"},
        {"NaN mass of an i-particle", [](auto&, auto& in, auto& out) { in.mass[5] = nan, calc(in, 12, out); },
         "calc_force_on_predictors", "mass[5]"},
        {"infinite softening", [](auto&, auto& in, auto& out) { in.eps2[2] = inf, calc(in, 12, out); },
         "calc_force_on_predictors", "eps2[2]"},
    };
    for (const BadCall& bad : cases) {
        Sapporo6Cluster c = cl;
        Sapporo6In in = before;
        Sapporo6Out out(cl.n, 42.0);
        ::testing::internal::CaptureStderr();
        bad.call(c, in, out);
        const std::string err = ::testing::internal::GetCapturedStderr();
        const std::string msg = sapporo6_last_error();
        EXPECT_NE(msg.find(bad.call_name + ": "), std::string::npos) << bad.what << ": " << msg;
        EXPECT_NE(msg.find(bad.argument), std::string::npos) << bad.what << ": " << msg;
        EXPECT_NE(err.find("sapporo6: " + msg), std::string::npos) << bad.what << ": " << err;
        EXPECT_EQ(out.acc[0], (Vec{42, 42, 42})) << bad.what;  // no result written
        const Sapporo6In now = picked_up(cl.n);
        for (int k = 0; k < cl.n; ++k) {
            EXPECT_EQ(now.x[k], before.x[k]) << bad.what << " changed address " << k;
            EXPECT_EQ(now.v[k], before.v[k]) << bad.what << " changed address " << k;
            EXPECT_EQ(now.mass[k], before.mass[k]) << bad.what << " changed address " << k;
        }
    }
    // A good call clears the message; forces still match a direct sum of the kept j-memory.
    Sapporo6In in = before;
    Sapporo6Out out(cl.n);
    calc(in, cl.n, out);
    EXPECT_STREQ(sapporo6_last_error(), "");
    EXPECT_LT(rel3(out.acc[0], long_double_sum(in, 0, before).acc), 1e-13);
}

TEST_F(Sapporo6, AHoleInTheJMemoryAndCallsBeforeInitializeAreRefused) {
    Sapporo6Cluster cl(3);
    set_j_particle(0, cl.x[0].data(), cl.v[0].data(), cl.a[0].data(), cl.j[0].data(), cl.s[0].data(),
                   cl.c[0].data(), 1.0, 0.0, 1, 0.0);
    set_j_particle(2, cl.x[2].data(), cl.v[2].data(), cl.a[2].data(), cl.j[2].data(), cl.s[2].data(),
                   cl.c[2].data(), 1.0, 0.0, 3, 0.0);
    ::testing::internal::CaptureStderr();
    predict_all(0.1, 3);
    ::testing::internal::GetCapturedStderr();
    EXPECT_NE(std::string(sapporo6_last_error()).find("predict_all: nj 3 covers address 1, never set"),
              std::string::npos)
        << sapporo6_last_error();
    predict_all(0.1, 1);
    EXPECT_STREQ(sapporo6_last_error(), "");
    cleanup();
    ::testing::internal::CaptureStderr();
    predict_all(0.1, 1);
    ::testing::internal::GetCapturedStderr();
    EXPECT_STREQ(sapporo6_last_error(), "predict_all: called before initialize");
    EXPECT_STREQ(sapporo6_device(), "none");
}

TEST(Sapporo6Config, ABadEnvironmentValueNamesTheVariable) {
    setenv("NBODY_SAPPORO6_DEVICE", "tpu", 1);
    ::testing::internal::CaptureStderr();
    initialize();
    ::testing::internal::GetCapturedStderr();
    EXPECT_NE(
        std::string(sapporo6_last_error()).find("NBODY_SAPPORO6_DEVICE=tpu: expected auto, cpu or cuda"),
        std::string::npos);
    EXPECT_STREQ(sapporo6_device(), "none");
    setenv("NBODY_SAPPORO6_DEVICE", "cpu", 1);
    setenv("NBODY_SAPPORO6_PRECISION", "fp16", 1);
    initialize();
    EXPECT_NE(std::string(sapporo6_last_error()).find("NBODY_SAPPORO6_PRECISION=fp16: expected fp64 or ds"),
              std::string::npos);
    unsetenv("NBODY_SAPPORO6_PRECISION");
    setenv("NBODY_SAPPORO6_NPIPES", "0", 1);
    initialize();
    EXPECT_NE(std::string(sapporo6_last_error()).find("NBODY_SAPPORO6_NPIPES=0"), std::string::npos);
    unsetenv("NBODY_SAPPORO6_NPIPES");
    cleanup();
}

// initialize_special's list: a bad count or a null list is refused naming the argument, nothing opened; a
// good list opens (the CPU here: the list names CUDA devices, which the CPU engine does not use).
TEST(Sapporo6Config, InitializeSpecialChecksItsList) {
    setenv("NBODY_SAPPORO6_DEVICE", "cpu", 1);
    ::testing::internal::CaptureStderr();
    initialize_special(-1, nullptr);
    EXPECT_STREQ(sapporo6_last_error(), "initialize_special: ndev -1 is outside [0, 64]");
    initialize_special(2, nullptr);
    EXPECT_STREQ(sapporo6_last_error(), "initialize_special: list is null with ndev 2");
    ::testing::internal::GetCapturedStderr();
    EXPECT_STREQ(sapporo6_device(), "none");
    int list[2] = {0, 1};
    initialize_special(2, list);
    EXPECT_STREQ(sapporo6_last_error(), "");
    EXPECT_STREQ(sapporo6_device(), "cpu");
    cleanup();
}

}  // namespace
}  // namespace nbody::test
