// The 6th-order Hermite scheme on the CPU (core/physics/hermite6.hpp's corrector and criterion, cpu/hermite6_integrator):
// the corrector's exactness, the force loop's jerk and snap against finite differences, the convergence order
// on a Kepler orbit, energy with block steps, checkpoint resume and thread count bit for bit, ds refused.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/errors.hpp"
#include "core/physics/hermite6.hpp"
#include "core/rows/force_method.hpp"
#include "core/rows/integrator.hpp"
#include "core/rows/param_registry.hpp"
#include "cpu/hermite_test_util.hpp"
#include "test_util.hpp"

using namespace nbody;
using hermite6::D3;
using test::sci;

namespace {

// A quintic acceleration a(t) = sum c_k t^k per axis and its derivatives at t.
struct Quintic {
    double c[6];
    double d(int order, double t) const {  // the order-th derivative
        double sum = 0;
        for (int k = order; k < 6; ++k) {
            double f = 1;
            for (int m = 0; m < order; ++m) f *= k - m;
            sum += c[k] * f * std::pow(t, k - order);
        }
        return sum;
    }
    D3 at(int order, double t) const { return {d(order, t), 0.5 * d(order, t), -d(order, t)}; }
};

// Bodies on quadratic paths x_j(t) = x + v t + a t^2 / 2: the pair terms' dr, dv, da are their exact
// derivatives, so jerk and snap of the sum are the first and second time derivatives of its acceleration.
Bodies moving_bodies(double t) {
    const State s = test::plummer_state(40, 11);
    Bodies b;
    b.resize(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        const D3 x{s.pos_mass[i].x, s.pos_mass[i].y, s.pos_mass[i].z}, v{s.vel[i].x, s.vel[i].y, s.vel[i].z};
        const D3 a = 0.3 * D3{v.y, -v.x, v.z};  // any acceleration: the paths are kinematic
        b.set_pos(i, x + t * v + (0.5 * t * t) * a);
        b.set_vel(i, v + t * a);
        b.set_acc(i, a);
        b.m[i] = s.pos_mass[i].w;
    }
    return b;
}

hermite6::Force6 forces_at(const Bodies& b, std::size_t row, int threads) {
    hermite6::Force6 f;
    hermite6_forces({b.sources(), b.ax.data(), b.ay.data(), b.az.data()}, &row, 1, 1e-3, threads, &f);
    return f;
}

// Position error of a Kepler pair (e = 0.5, P = 1) after one period with shared steps of P / steps.
double kepler_return_error(Integrator in, int steps) {
    double G = 0;
    const State s0 = test::kepler_pair(0.5, 1.0, &G);
    CpuBackend b(1);
    SimParams p = test::hermite_params(in, Precision::Fp64, 1.0 / steps, 0.0);
    p.G = G;
    b.reset(s0, p);
    b.step(steps);
    State s;
    b.read_state(s);
    return std::hypot(s.pos_mass[0].x - s0.pos_mass[0].x, s.pos_mass[0].y - s0.pos_mass[0].y);
}

SimParams block6_params() {
    SimParams p = test::hermite_params(Integrator::Hermite6Block, Precision::Fp64, 1.0 / 16, 0.05);
    p.eta = 0.02;
    return p;
}

}  // namespace

// A quintic acceleration: the velocity corrector is exact, and so are crackle, pop and the 5th derivative
// at the step's end; the position corrector is exact where the acceleration is a quartic.
TEST(Hermite6Math, CorrectorIsExactForAQuinticAcceleration) {
    for (double c5 : {0.7, 0.0}) {
        const Quintic q{{0.3, -1.1, 0.8, 2.5, -1.7, c5}};
        const double t0 = 0.4, dt = 0.3, t1 = t0 + dt;
        // v(t) = v0 + V(t) - V(t0), x(t) = x0 + v0 dt + X(t) - X(t0) - V(t0) dt with V' = a, X' = V
        double V0 = 0, V1 = 0, X0 = 0, X1 = 0;
        for (int k = 0; k < 6; ++k) {
            V0 += q.c[k] * std::pow(t0, k + 1) / (k + 1), V1 += q.c[k] * std::pow(t1, k + 1) / (k + 1);
            X0 += q.c[k] * std::pow(t0, k + 2) / ((k + 1) * (k + 2));
            X1 += q.c[k] * std::pow(t1, k + 2) / ((k + 1) * (k + 2));
        }
        const D3 x0{1, 0.5, -1}, v0{-0.5, -0.25, 0.5};
        const hermite6::Corrected6 c = hermite6::correct6(x0, v0, q.at(0, t0), q.at(1, t0), q.at(2, t0),
                                                          q.at(0, t1), q.at(1, t1), q.at(2, t1), dt);
        const double v_exact = v0.x + V1 - V0, x_exact = x0.x + v0.x * dt + X1 - X0 - V0 * dt;
        EXPECT_NEAR(c.v.x, v_exact, 1e-14);
        EXPECT_NEAR(c.crackle.x, q.d(3, t1), 1e-10 * std::fabs(q.d(3, t1)) + 1e-11);
        EXPECT_NEAR(c.pop.x, q.d(4, t1), 1e-10 * std::fabs(q.d(4, t1)) + 1e-10);
        EXPECT_NEAR(c.a5.x, q.d(5, t1), 1e-9 * std::fabs(q.d(5, t1)) + 1e-9);
        if (c5 == 0.0)
            EXPECT_NEAR(c.x.x, x_exact, 1e-14);
        else
            EXPECT_GT(std::fabs(c.x.x - x_exact), 1e-9);  // ~0.9 h^7 c5 / 6: a quintic's x needs a 7th term
    }
}

// The generalised criterion: a body whose derivatives grow as powers of 1 / T steps in proportion to T, and
// eta enters as sqrt(eta) (4th order's convention); no higher derivatives, no limit.
TEST(Hermite6Math, CriterionScalesWithTheTimeScale) {
    auto step = [](double eta, double T) {
        const D3 a{1, 0, 0}, j{0, 1 / T, 0}, s{1 / (T * T), 0, 0}, c{0, 1 / std::pow(T, 3), 0},
            pop{std::pow(T, -4), 0, 0}, a5{0, std::pow(T, -5), 0};
        return hermite6::aarseth6_step(eta, a, j, s, c, pop, a5);
    };
    EXPECT_NEAR(step(0.01, 1.0), 0.1 * std::pow(2.0 / 2.0, 1.0 / 6), 1e-15);
    EXPECT_NEAR(step(0.01, 8.0) / step(0.01, 1.0), 8.0, 1e-12);
    EXPECT_NEAR(step(0.04, 1.0) / step(0.01, 1.0), 2.0, 1e-12);
    EXPECT_EQ(hermite6::aarseth6_step(0.01, {1, 0, 0}, {0, 1, 0}, {1, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}),
              HUGE_VAL);
}

// The threaded float64 loop's jerk and snap are the time derivatives of its acceleration along the bodies'
// paths (central differences, h = 1e-4: errors ~h^2), and match add_pair6 summed with the self term left out.
TEST(Hermite6Cpu, ForceLoopJerkAndSnapAreTimeDerivatives) {
    const double h = 1e-4;
    for (std::size_t row : {0u, 17u, 39u}) {
        const hermite6::Force6 f = forces_at(moving_bodies(0), row, 2);
        const hermite6::Force6 fp = forces_at(moving_bodies(h), row, 2), fm = forces_at(moving_bodies(-h), row, 2);
        const D3 jerk_fd = (0.5 / h) * (fp.acc - fm.acc);
        const D3 snap_fd = (1 / (h * h)) * (fp.acc - 2.0 * f.acc + fm.acc);
        const double jerk_err = hermite::norm(f.jerk - jerk_fd) / hermite::norm(f.jerk);
        const double snap_err = hermite::norm(f.snap - snap_fd) / hermite::norm(f.snap);
        testing::Test::RecordProperty("jerk_err_" + std::to_string(row), sci(jerk_err));
        testing::Test::RecordProperty("snap_err_" + std::to_string(row), sci(snap_err));
        EXPECT_LT(jerk_err, 1e-5) << row;
        EXPECT_LT(snap_err, 1e-5) << row;
        const Bodies b = moving_bodies(0);
        hermite6::Force6 want = hermite6::zero_force6();
        for (std::size_t j = 0; j < b.size(); ++j)
            if (j != row)
                hermite6::add_pair6(b.pos(j) - b.pos(row), b.vel(j) - b.vel(row), b.acc(j) - b.acc(row), b.m[j],
                                    1e-3, want);
        EXPECT_LT(hermite::norm(f.snap - want.snap), 1e-13 * hermite::norm(want.snap)) << row;
        EXPECT_LT(hermite::norm(f.acc - want.acc), 1e-13 * hermite::norm(want.acc)) << row;
        EXPECT_NEAR(f.pot, want.pot, 1e-13 * std::fabs(want.pot)) << row;
    }
}

// Halving the shared dt on a Kepler orbit (e = 0.5, one period, 256 -> 512 steps): the return error falls ~64x
// with hermite6 (6th order), ~16x with hermite (4th order). Measured: 64.9 and 14.5; hermite6 4.1e-9 at 512.
TEST(Hermite6Cpu, KeplerConvergesAtSixthOrder) {
    auto err6 = [](int steps) { return kepler_return_error(Integrator::Hermite6, steps); };
    auto err4 = [](int steps) { return kepler_return_error(Integrator::Hermite, steps); };
    const double h6a = err6(256), h6b = err6(512), h4a = err4(256), h4b = err4(512);
    testing::Test::RecordProperty("hermite6_ratio", sci(h6a / h6b));
    testing::Test::RecordProperty("hermite_ratio", sci(h4a / h4b));
    testing::Test::RecordProperty("hermite6_error_512", sci(h6b));
    EXPECT_GT(h6a / h6b, 52.0);
    EXPECT_LT(h6a / h6b, 78.0);
    EXPECT_GT(h4a / h4b, 12.0);
    EXPECT_LT(h4a / h4b, 20.0);
    EXPECT_LT(h6b, h4b / 100);
}

// Block steps on a Plummer sphere (N = 64, eps = 0.05, t = 2, eta = 0.01): sixth order keeps energy far better
// than fourth order at the same eta (measured 6.0e-14 against 6.0e-8).
TEST(Hermite6Cpu, BlockStepsKeepEnergyOnAPlummerSphere) {
    const double e6 = test::plummer_energy_error(Integrator::Hermite6Block, 64, 0.05, 2.0, 1.0 / 16, 0.01);
    const double e4 = test::plummer_energy_error(Integrator::HermiteBlock, 64, 0.05, 2.0, 1.0 / 16, 0.01);
    testing::Test::RecordProperty("hermite6_block", sci(e6));
    testing::Test::RecordProperty("hermite_block", sci(e4));
    EXPECT_LT(e6, 1e-10);
    EXPECT_LT(e6, e4 / 1000);
}

// Export after 7 block steps, import into a fresh backend, 9 more on both: every bit the same.
TEST(Hermite6Cpu, CheckpointResumesBitForBit) {
    for (Integrator in : {Integrator::Hermite6Block, Integrator::Hermite6}) {
        SimParams p = block6_params();
        p.integrator = in;
        const IntegratorState st = test::expect_resume_exact(p, test::plummer_state(100, 3), 7, 9);
        EXPECT_NE(st.array("cz"), nullptr);
    }
}

// One, two and three threads give the same bits (each row summed by one thread in a fixed order).
TEST(Hermite6Cpu, ThreadCountDoesNotChangeResults) {
    const State s0 = test::plummer_state(150, 4);
    State out[3];
    for (int t = 1; t <= 3; ++t) {
        SimParams p = block6_params();
        p.cpu_threads = t;
        CpuBackend b(t);
        b.reset(s0, p);
        b.step(12);
        b.read_state(out[t - 1]);
    }
    EXPECT_TRUE(test::bit_identical(out[0], out[1]));
    EXPECT_TRUE(test::bit_identical(out[0], out[2]));
    EXPECT_GT(out[0].time, 0.0);
}

// ds (which the GPU runs) is refused by the CPU with the backend, the integrator and the precision named;
// a running simulation keeps its state.
TEST(Hermite6Cpu, DoubleSingleRefusedOnTheCpu) {
    const State s0 = test::plummer_state(32, 2);
    CpuBackend b(1);
    SimParams p = block6_params();
    b.reset(s0, p);
    b.step(3);
    const double t = b.time();
    SimParams ds = p;
    ds.precision = Precision::DS;
    const std::string why = b.refusal(ds);
    EXPECT_NE(why.find("cpu backend"), std::string::npos) << why;
    EXPECT_NE(why.find("hermite6-block"), std::string::npos) << why;
    EXPECT_NE(why.find("fp64 only (got ds)"), std::string::npos) << why;
    EXPECT_TRUE(b.refusal(p).empty());
    try {
        b.set_params(ds);
        FAIL() << "ds accepted";
    } catch (const ParamError& e) {
        EXPECT_EQ(e.field, "precision");
    }
    EXPECT_THROW(CpuBackend(1).reset(s0, ds), ParamError);
    EXPECT_EQ(b.time(), t);
    EXPECT_EQ(b.params().precision, Precision::Fp64);
}

// The rows: names, order, steps and precisions; eta applies to hermite6-block; fp32 and the tree are refused
// with the rows' words.
TEST(Hermite6Rows, NamesScopeAndRefusals) {
    EXPECT_EQ(parse_integrator("hermite6"), Integrator::Hermite6);
    EXPECT_EQ(parse_integrator("hermite6-block"), Integrator::Hermite6Block);
    const IntegratorInfo& row = integrator_info(Integrator::Hermite6Block);
    EXPECT_EQ(row.scheme, Scheme::Hermite6);
    EXPECT_EQ(row.order, 6);
    EXPECT_TRUE(row.block_steps);
    EXPECT_FALSE(integrator_info(Integrator::Hermite6).block_steps);
    EXPECT_EQ(row.precisions, bit(Precision::Fp64) | bit(Precision::DS));
    EXPECT_EQ(row.flops_per_pair, kFlopsPerInteractionHermite6);
    EXPECT_NE(method_info(ForceMethod::Direct).integrators & bit(Integrator::Hermite6Block), 0u);
    EXPECT_EQ(param_scope(*find_param("eta")), "integrator hermite-block, hermite6-block, leapfrog-block");
    SimParams p;
    p.integrator = Integrator::Hermite6;
    p.precision = Precision::Fp32;
    EXPECT_NE(test::validation_error(p).find("the hermite6 integrator runs in ds and fp64 only (got fp32)"),
              std::string::npos)
        << test::validation_error(p);
    p.precision = Precision::Fp64;
    EXPECT_EQ(test::validation_error(p), "");
    p.method = ForceMethod::Tree;
    EXPECT_NE(test::validation_error(p).find("got hermite6"), std::string::npos) << test::validation_error(p);
}
