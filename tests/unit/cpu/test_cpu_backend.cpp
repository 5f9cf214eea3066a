#include <gtest/gtest.h>

#include <cstring>

#include "core/errors.hpp"
#include "cpu/cpu_backend.hpp"
#include "cpu/reference_force.hpp"
#include "test_util.hpp"

using namespace nbody;

namespace {
State run(const State& s0, int threads, int steps) {
    SimParams p;
    p.eps = 0.02;
    p.dt = 0.005;
    p.cpu_threads = threads;
    CpuBackend b(threads);
    b.reset(s0, p);
    b.step(steps);
    State s;
    b.read_state(s);
    return s;
}
bool same_bits(const State& a, const State& b) {
    return a.size() == b.size() &&
           std::memcmp(a.pos_mass.data(), b.pos_mass.data(), a.size() * sizeof(Float4)) == 0 &&
           std::memcmp(a.vel.data(), b.vel.data(), a.size() * sizeof(Float4)) == 0;
}
}  // namespace

// Every i row is summed by one thread in one j order, so thread count cannot change a single bit.
TEST(CpuBackend, ResultIndependentOfThreadCount) {
    const State s0 = test::plummer_state(1001);  // odd N, not a multiple of any vector width
    const State one = run(s0, 1, 5);
    EXPECT_TRUE(same_bits(one, run(s0, 2, 5)));
    EXPECT_TRUE(same_bits(one, run(s0, 3, 5)));
    EXPECT_FALSE(same_bits(one, s0));  // the bodies did move
}

TEST(CpuBackend, SingleBodyMovesInAStraightLine) {
    State s;
    s.resize(1);
    s.pos_mass[0] = {1, 2, 3, 1};
    s.vel[0] = {0.5f, 0, -0.25f, 0};
    const State e = run(s, 1, 8);  // dt 0.005 x 8 = 0.04
    EXPECT_FLOAT_EQ(float(e.pos_mass[0].x), 1.02f);
    EXPECT_FLOAT_EQ(float(e.pos_mass[0].y), 2.0f);
    EXPECT_FLOAT_EQ(float(e.pos_mass[0].z), 2.99f);
    EXPECT_FLOAT_EQ(float(e.vel[0].x), 0.5f);
}

TEST(CpuBackend, SmallAndOddNMatchReferenceForce) {
    for (std::size_t n : {2u, 3u, 5u, 17u, 255u}) {
        const State s = rounded_to_float32(test::plummer_state(n, n));
        SimParams p;
        p.eps = 0.01;
        CpuBackend b;
        b.reset(s, p);
        std::vector<Double4> acc;
        b.read_accelerations(acc);
        const ForceError e = compare_forces(acc, reference_accelerations(s, p.eps, 1.0));
        EXPECT_LT(e.max_rel, 1e-5) << "N = " << n;
    }
}

// Changing eps or G between steps must re-evaluate the stored accelerations.
TEST(CpuBackend, SetParamsRefreshesAccelerations) {
    const State s = test::plummer_state(300);
    SimParams p;
    p.eps = 0.01;
    CpuBackend b;
    b.reset(s, p);
    p.eps = 0.2;
    p.G = 2.0;
    b.set_params(p);
    std::vector<Double4> acc;
    b.read_accelerations(acc);
    EXPECT_LT(compare_forces(acc, reference_accelerations(s, 0.2, 2.0)).max_rel, 1e-5);
}

// A sample of the accelerations (Backend::read_accelerations_of, the live force error's): the rows of the
// whole read, in the order asked; a row past N is refused in words.
TEST(CpuBackend, ReadsASampleOfAccelerations) {
    const State s = test::plummer_state(300);
    CpuBackend b;
    b.reset(s, SimParams{});
    std::vector<Double4> all, sample;
    b.read_accelerations(all);
    b.read_accelerations_of({299, 0, 150}, sample);
    ASSERT_EQ(sample.size(), 3u);
    EXPECT_EQ(sample[0].x, all[299].x);
    EXPECT_EQ(sample[1].y, all[0].y);
    EXPECT_EQ(sample[2].z, all[150].z);
    try {
        b.read_accelerations_of({300}, sample);
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("row 300 of 300"), std::string::npos) << e.what();
    }
}

TEST(CpuBackend, RejectsNonFiniteStateNamingTheBody) {
    State s = test::plummer_state(10);
    s.vel[7].y = std::numeric_limits<float>::quiet_NaN();
    CpuBackend b;
    try {
        b.reset(s, SimParams{});
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("body 7"), std::string::npos) << e.what();
    }
}

TEST(CpuBackend, RejectsBadParamsAndKeepsState) {
    const State s = test::plummer_state(10);
    CpuBackend b;
    b.reset(s, SimParams{});
    SimParams bad;
    bad.dt = -0.1;
    EXPECT_THROW(b.set_params(bad), ParamError);
    EXPECT_DOUBLE_EQ(b.params().dt, SimParams{}.dt);
    EXPECT_EQ(b.size(), 10u);
}
