// A Plummer sphere of 1024 bodies in Henon units (crossing time 2 sqrt(2) = 2.83) run for one crossing time.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "core/physics/diagnostics.hpp"
#include "cpu/cpu_backend.hpp"
#include "test_util.hpp"

using namespace nbody;

TEST(Plummer, VirialRatioNearOneAtStart) {
    const State s = test::plummer_state(1024);
    const Diagnostics d = compute_diagnostics(s, 0.0, 1.0);
    // Sampling noise of 2T/|W| is about 1/sqrt(N) = 0.03 at N = 1024.
    EXPECT_NEAR(d.virial_ratio, 1.0, 0.1);
    // Henon units: E = -1/4 (within sampling noise), centre of mass at rest at the origin.
    EXPECT_NEAR(d.total, -0.25, 0.025);
    EXPECT_NEAR(std::sqrt(dot(d.com_position, d.com_position)), 0.0, 1e-6);
    EXPECT_NEAR(std::sqrt(dot(d.momentum, d.momentum)), 0.0, 1e-6);
}

// eps = 0.05, dt = 1/256: the cluster's dynamical time is about 1, so KDK's global error is of order
// (dt / t_dyn)^2 = 1.5e-5; the closest pairs (separation ~eps, m = 1/1024) carry too little energy to
// matter. Bound 1e-4 leaves room for noise and fails for dt ten times larger or a first-order integrator.
// Momentum: pairwise forces are equal and opposite up to float32 rounding of the sums, so the drift
// relative to sum m|v| stays at round-off (PHYSICS.md: ~1e-5 in float32 state).
TEST(Plummer, ConservesEnergyAndMomentumOverOneCrossingTime) {
    const State s0 = test::plummer_state(1024);
    SimParams p;
    p.eps = 0.05;
    p.dt = 1.0 / 256.0;
    CpuBackend b;
    b.reset(s0, p);
    const int steps = static_cast<int>(std::ceil(2.0 * std::sqrt(2.0) / p.dt));
    b.step(steps);
    State s1;
    b.read_state(s1);
    const Diagnostics d0 = compute_diagnostics(s0, p.eps, 1.0), d1 = compute_diagnostics(s1, p.eps, 1.0);
    const double de = relative_energy_error(d0, d1), dp = momentum_drift(d0, d1);
    RecordProperty("energy_error", std::to_string(de));
    RecordProperty("momentum_drift", std::to_string(dp));
    EXPECT_LT(de, 1e-4);
    EXPECT_LT(dp, 1e-5);
    const Double3 dl = d1.angular_momentum - d0.angular_momentum;
    EXPECT_LT(std::sqrt(dot(dl, dl)), 1e-5);
}

TEST(Plummer, SameSeedSameStateBitForBit) {
    const State a = test::plummer_state(999, 42), b = test::plummer_state(999, 42), c = test::plummer_state(999, 43);
    ASSERT_EQ(a.size(), 999u);
    EXPECT_EQ(0, std::memcmp(a.pos_mass.data(), b.pos_mass.data(), a.size() * sizeof(Float4)));
    EXPECT_EQ(0, std::memcmp(a.vel.data(), b.vel.data(), a.size() * sizeof(Float4)));
    EXPECT_NE(0, std::memcmp(a.pos_mass.data(), c.pos_mass.data(), a.size() * sizeof(Float4)));
}

// A potential energy given from elsewhere (a GPU backend) replaces the O(N^2) sum and nothing else.
TEST(Plummer, DiagnosticsTakeAGivenPotential) {
    const State s = test::plummer_state(500);
    const Diagnostics full = compute_diagnostics(s, 0.01, 1.0);
    const Diagnostics given = compute_diagnostics(s, 0.01, 1.0, 0, full.potential);
    EXPECT_EQ(given.potential, full.potential);
    EXPECT_EQ(given.total, full.total);
    EXPECT_EQ(given.kinetic, full.kinetic);
    const Diagnostics other = compute_diagnostics(s, 0.01, 1.0, 0, -1.0);
    EXPECT_EQ(other.potential, -1.0);
    EXPECT_EQ(other.total, full.kinetic - 1.0);
}

// The camera follows the centre of mass by extrapolating it (no read-back): that is exact only because
// leap-frog conserves momentum. A moving cluster stepped 200 times must end where CentreOfMass::at says,
// to float32 round-off of positions of size ~1 (1e-5), while it has moved 0.5 length units.
TEST(Plummer, CentreOfMassMovesUniformly) {
    State s0 = test::plummer_state(512);
    for (Double4& v : s0.vel) v.x += 0.5;  // the whole cluster drifts at 0.5 along x
    const CentreOfMass c0 = centre_of_mass(s0);
    SimParams p;
    p.eps = 0.05;
    p.dt = 0.005;
    CpuBackend b;
    b.reset(s0, p);
    b.step(200);
    State s1;
    b.read_state(s1);
    const Double3 predicted = c0.at(s1.time), measured = centre_of_mass(s1).position;
    EXPECT_NEAR(predicted.x - c0.position.x, 0.5, 1e-9);
    EXPECT_NEAR(measured.x, predicted.x, 1e-5);
    EXPECT_NEAR(measured.y, predicted.y, 1e-5);
    EXPECT_NEAR(measured.z, predicted.z, 1e-5);
}
