// The CPU backend's precision modes and Hermite integrators (the reference for the GPU engine): force error
// per precision, convergence orders, Kepler e = 0.9 with block steps, the figure-eight's return, switching
// at a step boundary, block-step work counts and the underflow refusal.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include "core/physics/diagnostics.hpp"
#include "core/errors.hpp"
#include "cpu/cpu_backend.hpp"
#include "cpu/reference_force.hpp"
#include "cpu/hermite_test_util.hpp"
#include "scene/orbits.hpp"
#include "test_util.hpp"

using namespace nbody;

namespace {

using test::energy_error_at;
using test::kepler_pair;
using test::sci;
SimParams params(Integrator in, Precision pr, double dt, double eps) { return test::hermite_params(in, pr, dt, eps); }
double plummer_error(Integrator in, std::size_t n, double eps, double t_end, double dt, double eta) {
    return test::plummer_energy_error(in, n, eps, t_end, dt, eta);
}

}  // namespace

// Force error against the float64 reference on a Plummer state that is not float32-representable: fp64 is
// the reference to round-off; ds rounds only the differences and the pair term (1e-7 each); fp32 also
// rounds the positions, so its error is larger.
TEST(CpuPrecision, ForceErrorOrdersFp64DsFp32) {
    const State s = test::plummer_state(1000, 3);
    const auto ref = reference_accelerations(s, 0.01, 1.0);
    double err[3];
    for (Precision pr : {Precision::Fp32, Precision::DS, Precision::Fp64}) {
        CpuBackend b(2);
        b.reset(s, params(Integrator::LeapFrog, pr, 0.01, 0.01));
        std::vector<Double4> acc;
        b.read_accelerations(acc);
        err[int(pr)] = compare_forces(acc, ref).max_rel;
        testing::Test::RecordProperty(std::string(precision_name(pr)), sci(err[int(pr)]));
    }
    EXPECT_LT(err[2], 1e-12);
    EXPECT_LT(err[1], 2e-6);  // measured 4.1e-7 (fp32 3.7e-6, fp64 7e-16)
    EXPECT_LT(err[1], err[0] / 3);
    EXPECT_LT(err[0], 1e-3);
}

// The vectorised Hermite rows agree with core/physics/hermite.hpp's add_pair summed in double (fp64), and stay
// within float rounding of it (ds).
TEST(CpuPrecision, HermiteRowsMatchSharedPairTerm) {
    const State s = test::plummer_state(300, 9);
    Bodies b;
    b.resize(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        b.x[i] = s.pos_mass[i].x, b.y[i] = s.pos_mass[i].y, b.z[i] = s.pos_mass[i].z,
        b.m[i] = s.pos_mass[i].w;
        b.vx[i] = s.vel[i].x, b.vy[i] = s.vel[i].y, b.vz[i] = s.vel[i].z;
    }
    const std::size_t rows[3] = {0, 17, 299};
    for (Precision pr : {Precision::Fp64, Precision::DS, Precision::Fp32}) {
        hermite::Force got[3];
        hermite_forces(b.sources(), rows, 3, pr, 1e-4, 2, got);
        const double tol = pr == Precision::Fp64 ? 1e-13 : 1e-4;
        for (int k = 0; k < 3; ++k) {
            hermite::Force want = hermite::zero_force();
            for (std::size_t j = 0; j < b.size(); ++j)
                hermite::add_pair(b.pos(j) - b.pos(rows[k]), b.vel(j) - b.vel(rows[k]), b.m[j], 1e-4, want);
            EXPECT_LT(hermite::norm(got[k].acc - want.acc), tol * hermite::norm(want.acc))
                << precision_name(pr);
            EXPECT_LT(hermite::norm(got[k].jerk - want.jerk), tol * hermite::norm(want.jerk))
                << precision_name(pr);
            EXPECT_NEAR(got[k].pot, want.pot, tol * std::fabs(want.pot)) << precision_name(pr);
        }
    }
}

// Halving the shared dt: Hermite's energy error falls ~16x (4th order), leap-frog's ~4x (2nd order).
// N = 256, eps = 0.1, t = 1. Measured (dt 1/256 .. 1/2048): Hermite 21.5, 19.4, 18.5 (the dt^5 term still
// shows, the ratio tends to 16), leap-frog 4.00, 4.00, 4.00.
TEST(CpuHermite, ConvergenceOrdersWithSharedStep) {
    auto err = [](Integrator in, double dt) { return plummer_error(in, 256, 0.1, 1.0, dt, 0.01); };
    const double h1 = err(Integrator::Hermite, 1.0 / 512), h2 = err(Integrator::Hermite, 1.0 / 1024);
    const double l1 = err(Integrator::LeapFrog, 1.0 / 512), l2 = err(Integrator::LeapFrog, 1.0 / 1024);
    testing::Test::RecordProperty("hermite_ratio", sci(h1 / h2));
    testing::Test::RecordProperty("leapfrog_ratio", sci(l1 / l2));
    EXPECT_GT(h1 / h2, 13.0);
    EXPECT_LT(h1 / h2, 24.0);
    EXPECT_GT(l1 / l2, 3.6);
    EXPECT_LT(l1 / l2, 4.4);
    EXPECT_LT(h2, 1e-3 * l2);
}

// Block steps: Aarseth's dt goes as sqrt(eta), so the 4th-order error goes as eta^2: 16x per quartering of
// eta, ~256x for eta / 16 (N = 64, eps = 0.05, t = 2; measured 3100x over eta 0.04 -> 0.00125, 5.0x per
// halving on average, noisy between single halvings: 8.8, 2.5, 5.9, 3.6, 6.7).
TEST(CpuHermite, BlockStepEnergyErrorFallsWithEta) {
    const double coarse = plummer_error(Integrator::HermiteBlock, 64, 0.05, 2.0, 1.0 / 16, 0.04);
    const double fine = plummer_error(Integrator::HermiteBlock, 64, 0.05, 2.0, 1.0 / 16, 0.0025);
    testing::Test::RecordProperty("ratio_eta_over_16", sci(coarse / fine));
    EXPECT_GT(coarse / fine, 100.0);
    EXPECT_LT(coarse / fine, 2000.0);
}

// Kepler e = 0.9, a = 1, one period (P = 4, so block steps land on it) with hermite-block fp64: energy, and
// the period from the phase error at t = P (the angle past pericentre over the angular speed there),
// against the analytic orbit. Measured: eta 0.01: dE/E 1.9e-6, period error -2.0e-5, 353 block steps;
// eta 0.0025: 4.7e-8, -1.4e-6, 707 block steps.
TEST(CpuHermite, KeplerEccentricOnePeriodWithBlockSteps) {
    const double P = 4.0, e = 0.9, rp = 1 - e;
    double G = 0;
    const State s0 = kepler_pair(e, P, &G);
    double de[2], dp[2];
    for (int k = 0; k < 2; ++k) {
        CpuBackend b(1);
        SimParams p = params(Integrator::HermiteBlock, Precision::Fp64, 0.125, 0.0);
        p.G = G;
        p.eta = k == 0 ? 0.01 : 0.0025;
        b.reset(s0, p);
        de[k] = energy_error_at(b, s0, P, 0.0, G);
        State s;
        b.read_state(s);
        const double rx = s.pos_mass[0].x - s.pos_mass[1].x, ry = s.pos_mass[0].y - s.pos_mass[1].y;
        const double h = std::sqrt(G * (1 - e * e));  // specific angular momentum, M = a = 1
        dp[k] = std::atan2(ry, rx) / (h / (rp * rp));
        EXPECT_DOUBLE_EQ(b.time(), P);
        EXPECT_LT(std::fabs(std::hypot(rx, ry) - rp), 1e-6);
        EXPECT_LT(b.steps_taken(), 1000);  // shared steps at the pericentre step would need ~8000
        testing::Test::RecordProperty("energy_error_" + std::to_string(k), sci(de[k]));
        testing::Test::RecordProperty("period_error_" + std::to_string(k), sci(dp[k]));
    }
    EXPECT_LT(de[0], 5e-6);
    EXPECT_LT(std::fabs(dp[0]), 5e-5);
    EXPECT_LT(de[1], de[0] / 10);
    EXPECT_LT(std::fabs(dp[1]), std::fabs(dp[0]) / 5);
}

// The three-body figure-eight with shared-step Hermite fp64 comes back to its start after one period.
TEST(CpuHermite, FigureEightReturnsAfterOnePeriod) {
    const auto ic = figure8_initial();
    State s0;
    s0.resize(3);
    for (int i = 0; i < 3; ++i) {
        s0.pos_mass[i] = {ic[i].x.x, ic[i].x.y, ic[i].x.z, 1.0};
        s0.vel[i] = {ic[i].v.x, ic[i].v.y, ic[i].v.z, 0};
    }
    const int steps = 4000;
    CpuBackend b(1);
    b.reset(s0, params(Integrator::Hermite, Precision::Fp64, kFigure8Period / steps, 0.0));
    b.step(steps);
    State s;
    b.read_state(s);
    double worst = 0;
    for (int i = 0; i < 3; ++i)
        worst = std::max(worst,
                         std::hypot(s.pos_mass[i].x - s0.pos_mass[i].x, s.pos_mass[i].y - s0.pos_mass[i].y));
    testing::Test::RecordProperty("return_error", sci(worst));
    EXPECT_LT(worst, 1e-6);
    EXPECT_NEAR(b.time(), kFigure8Period, 1e-9);
}

// Precision and integrator change at a step boundary without moving a body; the block integrator's active
// sets are counted as active x N pairs.
TEST(CpuHermite, SwitchingKeepsParticlesAndBlockWorkCountsActivePairs) {
    const State s0 = test::plummer_state(256, 4);
    CpuBackend b(2);
    SimParams p = params(Integrator::LeapFrog, Precision::Fp32, 1.0 / 128, 0.01);
    b.reset(s0, p);
    b.step(3);
    State before, after;
    b.read_state(before);
    p.integrator = Integrator::HermiteBlock;
    p.precision = Precision::Fp64;
    b.set_params(p);
    b.read_state(after);
    EXPECT_EQ(after.pos_mass[100].x, before.pos_mass[100].x);
    EXPECT_EQ(after.vel[100].y, before.vel[100].y);
    EXPECT_DOUBLE_EQ(b.time(), before.time);
    const WorkCount w0 = b.work();
    b.step(40);
    const WorkCount w = b.work() - w0;
    EXPECT_EQ(w.evaluations, 40);
    EXPECT_EQ(w.flops_per_pair, kFlopsPerInteractionHermite);
    const double mean_active = w.pairs / (40.0 * 256);
    testing::Test::RecordProperty("mean_active", sci(mean_active));
    EXPECT_GE(mean_active, 1.0);
    EXPECT_LT(mean_active, 256.0);              // not every body every block step
    EXPECT_EQ(std::fmod(w.pairs, 256.0), 0.0);  // whole rows of N
    // back to leap-frog fp32: the synchronised state is kept
    b.read_state(before);
    p.integrator = Integrator::LeapFrog;
    p.precision = Precision::Fp32;
    b.set_params(p);
    b.read_state(after);
    EXPECT_EQ(after.pos_mass[7].z, before.pos_mass[7].z);
    EXPECT_DOUBLE_EQ(b.time(), before.time);
}

// A bad eta is refused naming the field; the running state is untouched.
TEST(CpuHermite, BadEtaRefusedStateKept) {
    const State s0 = test::plummer_state(64, 2);
    CpuBackend b(1);
    SimParams p = params(Integrator::HermiteBlock, Precision::Fp64, 1.0 / 64, 0.01);
    b.reset(s0, p);
    b.step(5);
    const double t = b.time();
    for (double eta : {0.0, -0.01, std::nan("")}) {
        SimParams bad = p;
        bad.eta = eta;
        try {
            b.set_params(bad);
            FAIL() << "eta " << eta << " accepted";
        } catch (const ParamError& e) {
            EXPECT_EQ(e.field, "eta");
        }
    }
    EXPECT_EQ(b.params().eta, p.eta);
    EXPECT_EQ(b.time(), t);
}

// Two bodies falling head-on with eps = 0: the steps shrink towards the collision until one would be below
// 2^-40. The step is refused with "block step underflow", the state stays finite and the clock stays put.
TEST(CpuHermite, BlockStepUnderflowIsRefusedWithStateKept) {
    const State s0 = test::head_on_pair();
    CpuBackend b(1);
    b.reset(s0, params(Integrator::HermiteBlock, Precision::Fp64, 0.125, 0.0));
    const std::string msg = test::step_until_refused(b, 200000);
    ASSERT_FALSE(msg.empty()) << "no underflow after 200000 block steps";
    EXPECT_NE(msg.find("block step underflow"), std::string::npos) << msg;
    State s;
    b.read_state(s);
    EXPECT_TRUE(std::isfinite(s.pos_mass[0].x) && std::isfinite(s.vel[0].x));
    EXPECT_GT(s.pos_mass[0].x, 0.0);  // still approaching, not through each other
    const double t = b.time();
    EXPECT_GT(t, 0.5);  // free fall from rest at separation 1 with G M = 1: t = pi / (2 sqrt 2) = 1.11
    EXPECT_LT(t, 1.2);

    // A reset whose first step would underflow (bodies 1e-11 apart passing at relative speed 1, eps = 0:
    // eta r / v = 1e-13 < 2^-40) is refused; the running simulation is kept as it was.
    State tight = s0;
    tight.pos_mass[0].x = 0.5e-11, tight.pos_mass[1].x = -0.5e-11;
    tight.vel[0].y = 0.5, tight.vel[1].y = -0.5;
    EXPECT_THROW(b.reset(tight, b.params()), BackendError);
    State kept;
    b.read_state(kept);
    EXPECT_EQ(kept.pos_mass[0].x, s.pos_mass[0].x);
    EXPECT_EQ(b.time(), t);
}
