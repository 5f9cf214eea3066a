// The CUDA 6th-order Hermite engine (label gpu): its forces against the CPU reference's float64 sum, its
// block steps against the CPU integrator, its order of convergence, several parts against one, and the
// backend taking it. Skips where no device is.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "../unit/test_util.hpp"
#include "core/physics/diagnostics.hpp"
#include "core/backend/integrator_state.hpp"
#include "cpu/bodies.hpp"
#include "cpu/cpu_backend.hpp"
#include "cpu/force_modes.hpp"
#include "gpu_test_util.hpp"
#include "hermite/hermite_forces.hpp"
#include "hermite_reference.hpp"

using namespace nbody;
using namespace nbody::test;

namespace {

// The CPU reference's acceleration, jerk and snap on every body (float64, G = 1): the accelerations first
// (snap reads every j-body's), then the full sum with them, as both integrators start.
std::vector<hermite6::Force6> cpu_forces6(const State& s, double eps) {
    const std::size_t n = s.size();
    Bodies b;
    b.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        b.x[i] = s.pos_mass[i].x, b.y[i] = s.pos_mass[i].y, b.z[i] = s.pos_mass[i].z,
        b.m[i] = s.pos_mass[i].w;
        b.vx[i] = s.vel[i].x, b.vy[i] = s.vel[i].y, b.vz[i] = s.vel[i].z;
    }
    std::vector<std::size_t> rows(n);
    for (std::size_t i = 0; i < n; ++i) rows[i] = i;
    std::vector<hermite6::Force6> f(n);
    for (int pass = 0; pass < 2; ++pass) {
        hermite6_forces({b.sources(), b.ax.data(), b.ay.data(), b.az.data()}, rows.data(), n, eps * eps, 0,
                        f.data());
        for (std::size_t i = 0; i < n; ++i) b.set_acc(i, f[i].acc);
    }
    return f;
}

double relative(const Double4& got, hermite6::D3 want) {
    const double d = std::hypot(got.x - want.x, got.y - want.y, got.z - want.z);
    return d / std::hypot(want.x, want.y, want.z);
}

}  // namespace

// fp64 against the CPU's float64 sum, Plummer 4,099 bodies with their virial velocities, eps = 1/256, every
// body and an awkward subset active (partial groups, j-splits): the sums differ in order and in the refined
// device rsqrt (~1 ulp), so each of a, jerk and snap agrees to 1e-12 relative on every body (the issue's
// bound; measured below 1e-14). ds forms the pair terms in float: a to 1e-5, jerk 1e-4, snap 1e-3 (measured
// values in the failure message).
TEST(Hermite6Forces, Fp64MatchesTheCpuReferenceTo1e12AndDsToFloat) {
    REQUIRE_GPU(gpu);
    const int n = within_cap(4099) ? 4099 : 257;
    const State s = test::plummer_state(n, 7);
    const double eps = 1.0 / 256;
    const std::vector<hermite6::Force6> want = cpu_forces6(s, eps);
    for (Precision prec : {Precision::Fp64, Precision::DS}) {
        SimParams p = hermite_params(Integrator::Hermite6, prec, 1.0 / 64, eps);
        for (int size : {n, 1000, 33, 1}) {
            const std::vector<int> active = active_set(n, size);
            const HermiteForces got = cuda_hermite_forces(s, active, p);
            ASSERT_EQ(got.snap.size(), active.size());
            double ea = 0, ej = 0, es = 0;
            for (std::size_t k = 0; k < active.size(); ++k) {
                const hermite6::Force6& w = want[static_cast<std::size_t>(active[k])];
                ea = std::max(ea, relative(got.acc[k], w.acc));
                ej = std::max(ej, relative(got.jerk[k], w.jerk));
                es = std::max(es, relative(got.snap[k], w.snap));
            }
            const bool f64 = prec == Precision::Fp64;
            EXPECT_LT(ea, f64 ? 1e-12 : 1e-5) << precision_name(prec) << " active " << size;
            EXPECT_LT(ej, f64 ? 1e-12 : 1e-4) << precision_name(prec) << " active " << size;
            EXPECT_LT(es, f64 ? 1e-12 : 1e-3) << precision_name(prec) << " active " << size;
            std::printf("hermite6 %s active %d: max relative a %.2e jerk %.2e snap %.2e\n",
                        std::string(precision_name(prec)).c_str(), size, ea, ej, es);
        }
    }
}

// What a reset stores (the priming evaluations: accelerations first, then jerk and snap from them) is the CPU
// reference's a, jerk and snap, to 1e-12, Plummer 4,099 bodies with block steps: the first block step's
// corrector and step criterion read them.
TEST(Hermite6Block, ResetStoresTheCpuReferencesDerivatives) {
    REQUIRE_GPU(gpu);
    const int n = within_cap(4099) ? 4099 : 257;
    const State s = test::plummer_state(n, 5);
    const SimParams p = hermite_params(Integrator::Hermite6Block, Precision::Fp64, 1.0 / 32, 0.05);
    const std::vector<hermite6::Force6> want = cpu_forces6(s, p.eps);
    gpu->reset(s, p);
    IntegratorState st;
    ASSERT_TRUE(gpu->export_state(st));
    const char* names[3][3] = {{"ax", "ay", "az"}, {"jx", "jy", "jz"}, {"sx", "sy", "sz"}};
    for (int d = 0; d < 3; ++d) {
        const auto &x = need_array(st, names[d][0], n), &y = need_array(st, names[d][1], n),
                   &z = need_array(st, names[d][2], n);
        double worst = 0;
        for (int i = 0; i < n; ++i) {
            const hermite6::Force6& w = want[static_cast<std::size_t>(i)];
            const hermite6::D3 ref = d == 0 ? w.acc : d == 1 ? w.jerk : w.snap;
            worst = std::max(worst, relative(Double4{x[i], y[i], z[i], 0}, ref));
        }
        EXPECT_LT(worst, 1e-12) << names[d][0];
    }
}

// The first block steps one by one against the CPU integrator, Plummer 256 bodies, eps = 0.05, eta = 0.01:
// the same block times (the same power-of-two choices) and positions within 1e-12 after each.
TEST(Hermite6Block, FirstBlockStepsMatchTheCpuOneByOne) {
    REQUIRE_GPU(gpu);
    for (std::size_t n : {256u, 4099u}) {
        if (!within_cap(n)) continue;
        const State s = test::plummer_state(n, 5);
        SimParams p = hermite_params(Integrator::Hermite6Block, Precision::Fp64, 1.0 / 32, 0.05);
        p.eta = 0.01;
        CpuBackend cpu(1);
        cpu.reset(s, p);
        gpu->reset(s, p);
        for (int k = 0; k < 12; ++k) {
            cpu.step(1);
            try {
                gpu->step(1);
            } catch (const Error& e) {
                ADD_FAILURE() << "block step " << k << ": " << e.what();
                return;
            }
            State a, b;
            cpu.read_state(a);
            gpu->read_state(b);
            EXPECT_EQ(gpu->time(), cpu.time()) << "block step " << k;
            EXPECT_LT(max_position_difference(a, b), 1e-12) << "block step " << k;
            std::printf("N %zu block step %d: cpu t %.17g gpu t %.17g, positions differ by %.3e\n", n, k,
                        cpu.time(), gpu->time(), max_position_difference(a, b));
        }
    }
}

// Block steps on the GPU against the CPU integrator (the float64 reference), binary in a Plummer field,
// dt_max = 1/64 (a power of two: both time lines are the same), eta = 0.1, to t = 1/16. fp64: the forces
// differ by ~1e-15, so the power-of-two choices and the block-step count agree and the positions stay
// within 1e-10; ds within 1e-6 (its forces err by ~1e-7; a step choice may differ at a boundary).
TEST(Hermite6Block, AgreesWithTheCpuIntegrator) {
    REQUIRE_GPU(gpu);
    const State s = binary_in_field();
    SimParams p = hermite_params(Integrator::Hermite6Block, Precision::Fp64, 1.0 / 64, 1e-4);
    p.eta = 0.1;
    CpuBackend cpu(1);
    cpu.reset(s, p);
    while (cpu.time() < 1.0 / 16) cpu.step(1);
    State want;
    cpu.read_state(want);
    for (Precision prec : {Precision::Fp64, Precision::DS}) {
        p.precision = prec;
        try {
            gpu->reset(s, p);
            while (gpu->time() < 1.0 / 16) gpu->step(1);
        } catch (const Error& e) {
            ADD_FAILURE() << precision_name(prec) << ": " << e.what();
            continue;
        }
        State got;
        gpu->read_state(got);
        EXPECT_EQ(gpu->time(), 1.0 / 16);
        EXPECT_LT(max_position_difference(got, want), prec == Precision::Fp64 ? 1e-10 : 1e-6)
            << precision_name(prec);
        if (prec == Precision::Fp64) {
            EXPECT_EQ(gpu->steps_taken(), cpu.steps_taken());
        }
        EXPECT_EQ(gpu->work().flops_per_pair, kFlopsPerInteractionHermite6);
    }
}

// Sixth order: Plummer 1,024 bodies, eps = 0.01, shared steps to t = 0.25. The CPU reference gives |dE/E| =
// 3.34e-8 at dt = 1/256, 53x below 4th order's 1.77e-6, and the GPU's fp64 run the same to 1e-3 of it (the
// forces differ by ~1e-14). Measured on an H100: 1.15e-5, 3.34e-8 and 1.73e-9 at dt = 1/128, 1/256, 1/512
// (the closest encounters are unresolved at 1/128); bounds: the CPU's value, 20x below 4th order, 8x per
// halving. ds errs by ~1e-7 of a force a step: within 2x of fp64 plus 1e-9.
TEST(Hermite6Shared, PlummerEnergyErrorIsSixthOrderAndTheCpus) {
    REQUIRE_GPU(gpu);
    const State s = test::plummer_state(1024, 11);
    const SimParams p256 = hermite_params(Integrator::Hermite6, Precision::Fp64, 1.0 / 256, 0.01);
    const double e256 = energy_error_after(*gpu, s, p256, 0.25);
    const double e512 = energy_error_after(
        *gpu, s, hermite_params(Integrator::Hermite6, Precision::Fp64, 1.0 / 512, 0.01), 0.25);
    const double e4 = energy_error_after(
        *gpu, s, hermite_params(Integrator::Hermite, Precision::Fp64, 1.0 / 256, 0.01), 0.25);
    CpuBackend cpu;
    const double cpu256 = energy_error_after(cpu, s, p256, 0.25);
    std::printf("hermite6 |dE/E| dt 1/256 %.4e (cpu %.4e), 1/512 %.4e; hermite 1/256 %.4e\n", e256, cpu256,
                e512, e4);
    EXPECT_NEAR(e256, cpu256, 1e-3 * cpu256);
    EXPECT_GT(e256 / e512, 8.0) << e256 << " " << e512;
    EXPECT_LT(e256, e4 / 20);
    const double eds = energy_error_after(
        *gpu, s, hermite_params(Integrator::Hermite6, Precision::DS, 1.0 / 256, 0.01), 0.25);
    EXPECT_LT(eds, 2 * e256 + 1e-9) << eds << " " << e256;
}

// Two parts on one GPU (the active list split, the corrector's stores into the other part's copy) give what
// one part gives, to 1e-10 of the positions after 200 block steps (the sums differ in order only).
TEST(Hermite6Parts, TwoPartsOnOneGpuMatchOnePart) {
    REQUIRE_GPU(gpu);
    SimParams p = hermite_params(Integrator::Hermite6Block, Precision::Fp64, 1.0 / 64, 1e-4);
    p.eta = 0.1;
    const State s = binary_in_field();
    State one, two;
    double t_one = 0, t_two = 0;
    for (int parts : {1, 2}) {
        CudaBackend b(std::vector<int>(static_cast<std::size_t>(parts), 0));
        b.reset(s, p);
        b.step(200);
        b.read_state(parts == 1 ? one : two);
        (parts == 1 ? t_one : t_two) = b.time();
    }
    EXPECT_EQ(t_one, t_two);
    EXPECT_LT(max_position_difference(one, two), 1e-10);
}
