// The shared Hermite pieces of core/physics/hermite.hpp: the pair term against finite differences on a Kepler
// orbit, the corrector's exactness for a cubic acceleration, Aarseth's criterion and the block-step rules.
#include <gtest/gtest.h>

#include <cmath>

#include "core/physics/hermite.hpp"

using namespace nbody::hermite;

namespace {

// Acceleration and jerk on body 0 of an eccentric two-body pair (body 1 at rel. position dr, velocity dv).
Force pair_force(D3 dr, D3 dv, double m, double eps2) {
    Force f = zero_force();
    add_pair(dr, dv, m, eps2, f);
    return f;
}

double dist(D3 a, D3 b) {
    return norm(a - b);
}

}  // namespace

// jerk = da/dt along the motion: compare with a centred difference of the acceleration over +-h of the
// straight-line motion dr(t) = dr + dv t (the pair term only sees positions and velocities at one instant).
TEST(HermiteMath, JerkMatchesFiniteDifferenceOfAcceleration) {
    const D3 dr{0.3, -0.7, 0.2}, dv{0.9, 0.4, -0.35};
    for (double eps2 : {0.0, 1e-2}) {
        const Force f = pair_force(dr, dv, 0.8, eps2);
        const double h = 1e-5;
        const Force fp = pair_force(dr + h * dv, dv, 0.8, eps2), fm = pair_force(dr - h * dv, dv, 0.8, eps2);
        const D3 fd = (0.5 / h) * (fp.acc - fm.acc);
        EXPECT_LT(dist(f.jerk, fd), 1e-8 * norm(f.jerk)) << "eps2 " << eps2;
        // acceleration = -grad of the potential, also by central differences
        const double r2 = dot(dr, dr) + eps2;
        EXPECT_NEAR(f.pot, -0.8 / std::sqrt(r2), 1e-15);
        EXPECT_NEAR(norm(f.acc), 0.8 * norm(dr) / (r2 * std::sqrt(r2)), 1e-14);
    }
}

// Kepler e = 0.9 (G M = 1, a = 1) at pericentre and at apocentre: the acceleration of the relative orbit and
// its jerk agree with differences of the analytic orbit's velocity (Kepler's equation solved by Newton).
TEST(HermiteMath, KeplerDerivativesAgreeWithAnalyticOrbit) {
    const double e = 0.9;
    auto state_at = [&](double t, D3& x, D3& v) {  // relative orbit, pericentre at t = 0 on +x
        double E = t;
        for (int k = 0; k < 60; ++k) E -= (E - e * std::sin(E) - t) / (1 - e * std::cos(E));
        const double b = std::sqrt(1 - e * e), edot = 1 / (1 - e * std::cos(E));
        x = {std::cos(E) - e, b * std::sin(E), 0};
        v = {-std::sin(E) * edot, b * std::cos(E) * edot, 0};
    };
    for (double t : {0.0, 0.7, 3.14159}) {
        D3 x, v;
        state_at(t, x, v);
        // the pull of the unit mass at the origin on the orbiting body: dr = -x, dv = -v
        const Force f = pair_force(-1.0 * x, -1.0 * v, 1.0, 0.0);
        const double h = 2e-6;  // pericentre time scale r / v ~ 0.02: truncation ~ (h / 0.02)^2
        D3 xp, vp, xm, vm;
        state_at(t + h, xp, vp);
        state_at(t - h, xm, vm);
        const D3 a_fd = (0.5 / h) * (vp - vm);
        EXPECT_LT(dist(f.acc, a_fd), 1e-6 * norm(f.acc)) << "t " << t;
        const Force fp = pair_force(-1.0 * xp, -1.0 * vp, 1.0, 0.0),
                    fm = pair_force(-1.0 * xm, -1.0 * vm, 1.0, 0.0);
        const D3 j_fd = (0.5 / h) * (fp.acc - fm.acc);
        EXPECT_LT(dist(f.jerk, j_fd), 1e-6 * norm(f.jerk)) << "t " << t;
    }
}

TEST(HermiteMath, SelfTermAndCoincidentBodiesAreSkipped) {
    const Force f = pair_force({0, 0, 0}, {1, 0, 0}, 1.0, 0.0);
    EXPECT_EQ(f.pot, 0.0);
    EXPECT_EQ(norm(f.acc), 0.0);
    EXPECT_EQ(norm(f.jerk), 0.0);
}

// With a(t) = a0 + j0 t + s t^2/2 + c t^3/6 the predictor-corrector is exact: x and v match the Taylor
// polynomial to round-off, and a2, a3 come out as the true 2nd and 3rd derivatives at t1.
TEST(HermiteMath, CorrectorIsExactForCubicAcceleration) {
    const D3 x0{1, 2, 3}, v0{-0.5, 0.25, 1}, a0{0.3, -0.2, 0.1}, j0{0.05, 0.4, -0.3}, s{-0.7, 0.2, 0.9},
        c{0.6, -1.1, 0.35};
    const double dt = 0.37;
    auto acc = [&](double t) { return a0 + t * j0 + (t * t / 2) * s + (t * t * t / 6) * c; };
    auto jerk = [&](double t) { return j0 + t * s + (t * t / 2) * c; };
    D3 xp, vp;
    predict(x0, v0, a0, j0, dt, xp, vp);
    const Corrected k = correct(xp, vp, a0, j0, acc(dt), jerk(dt), dt);
    const double d2 = dt * dt, d3 = d2 * dt, d4 = d3 * dt, d5 = d4 * dt;
    const D3 x_true = x0 + dt * v0 + (d2 / 2) * a0 + (d3 / 6) * j0 + (d4 / 24) * s + (d5 / 120) * c;
    const D3 v_true = v0 + dt * a0 + (d2 / 2) * j0 + (d3 / 6) * s + (d4 / 24) * c;
    EXPECT_LT(dist(k.x, x_true), 1e-14);
    EXPECT_LT(dist(k.v, v_true), 1e-14);
    EXPECT_LT(dist(k.a2, s + dt * c), 1e-12);
    EXPECT_LT(dist(k.a3, c), 1e-11);
    // the predictor alone misses the s and c terms
    EXPECT_GT(dist(xp, x_true), 1e-4);
}

TEST(HermiteMath, AarsethCriterionScalesWithSqrtEta) {
    const D3 a{1, 0, 0}, j{0, 2, 0}, a2{-4, 0, 0}, a3{0, -8, 0};
    // (|a||a2| + |j|^2) / (|j||a3| + |a2|^2) = (4 + 4) / (16 + 16) = 1/4
    EXPECT_DOUBLE_EQ(aarseth_step(0.01, a, j, a2, a3), std::sqrt(0.01 / 4));
    EXPECT_DOUBLE_EQ(aarseth_step(0.04, a, j, a2, a3), 2 * aarseth_step(0.01, a, j, a2, a3));
    EXPECT_EQ(aarseth_step(0.01, a, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}), HUGE_VAL);
    EXPECT_DOUBLE_EQ(initial_step(0.01, a, j), 0.005);
    EXPECT_EQ(initial_step(0.01, a, {0, 0, 0}), HUGE_VAL);
}

TEST(HermiteMath, FloorPowerOfTwo) {
    EXPECT_EQ(floor_pow2(1.0), 1.0);
    EXPECT_EQ(floor_pow2(1.5), 1.0);
    EXPECT_EQ(floor_pow2(0.1), 0.0625);
    EXPECT_EQ(floor_pow2(4.0), 4.0);
    EXPECT_EQ(floor_pow2(0x1p-41 * 1.9), 0x1p-41);
}

TEST(HermiteMath, BlockStepRules) {
    const double dt_max = 0.125;
    // first step: the power of two below the wish, capped by dt_max
    EXPECT_EQ(block_step(0.02, 0, 0, dt_max), 0.015625);
    EXPECT_EQ(block_step(5.0, 0, 0, dt_max), dt_max);
    EXPECT_EQ(block_step(HUGE_VAL, 0, 0, dt_max), dt_max);
    // shrinking is always allowed, to any power of two
    EXPECT_EQ(block_step(0.001, 0.0625, 0.0625, dt_max), 0.0009765625);
    // growing: at most doubling, and only where t is a multiple of the doubled step
    EXPECT_EQ(block_step(1.0, 1.0 / 64, 3.0 / 64, dt_max), 1.0 / 64);   // 3/64 is not a multiple of 1/32
    EXPECT_EQ(block_step(1.0, 1.0 / 64, 2.0 / 64, dt_max), 1.0 / 32);   // it is: doubles, no more
    EXPECT_EQ(block_step(0.02, 1.0 / 64, 2.0 / 64, dt_max), 1.0 / 64);  // wish below 2 dt_old: keeps dt_old
    EXPECT_EQ(block_step(1.0, dt_max, 1.0, dt_max), dt_max);            // never above dt_max
    // below the floor (2^-40) or a broken wish: refused with 0
    EXPECT_EQ(block_step(0x1p-41, 0x1p-39, 0, dt_max), 0.0);
    EXPECT_EQ(block_step(0x1p-40, 0x1p-39, 0, dt_max), 0x1p-40);
    EXPECT_EQ(block_step(std::nan(""), 0.0625, 0, dt_max), 0.0);
    EXPECT_EQ(block_step(0.0, 0.0625, 0, dt_max), 0.0);
}
