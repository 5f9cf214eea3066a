// GPU tests (label gpu). They skip, saying why, where no CUDA device can be used; run them on the device.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>

#include <cuda_runtime.h>

#include "core/physics/diagnostics.hpp"
#include "core/errors.hpp"
#include "cpu/cpu_backend.hpp"
#include "cpu/reference_force.hpp"
#include "cuda_backend.hpp"
#include "engine/backend_factory.hpp"
#include "gpu_test_util.hpp"
#include "../unit/test_util.hpp"
#include "core/kernels/kernel_family.hpp"

using namespace nbody;
using test::within_cap;

namespace {


// Every compiled kernel instance, each with automatic q and with a few fixed q and block sizes (480: a block
// that is not a power of two, with tiles that are not a multiple of it). The tensor
// family has its own tests and bounds (test_tensor_gpu.cpp): its r^2 is not exact for coincident bodies.
std::vector<SimParams> all_shapes() {
    std::vector<SimParams> out;
    for (const VariantInfo& v : variant_table())
        for (int k : v.variant == KernelVariant::Tensor ? std::array<int, 3>{} : v.rules.allowed_k)
            for (int u : v.rules.allowed_u)
                for (int block : {64, 256, 480, 1024})
                    for (int q : {0, 1, 4, 32}) {
                        if (!k || !u) continue;
                        SimParams p;
                        p.kernel_auto = false;
                        p.variant = v.variant;
                        p.shape = {k, u, block, q};
                        out.push_back(p);
                    }
    return out;
}

std::string label(const SimParams& p) {
    return std::string(variant_name(p.variant)) + " k" + std::to_string(p.shape.k) + " u" +
           std::to_string(p.shape.u) + " block" + std::to_string(p.shape.block) + " q" + std::to_string(p.shape.q);
}

// Resets to the state and returns the accelerations of the first evaluation; false when the shape does
// not fit (too many registers for the block), which is not an error of the kernel.
bool gpu_accelerations(CudaBackend& b, const State& s, const SimParams& p, std::vector<Double4>& acc) {
    try {
        b.reset(s, p);
    } catch (const ParamError&) {
        return false;
    }
    b.read_accelerations(acc);
    return true;
}

}  // namespace

// Float32 direct sums against float64, Plummer sphere. Bound: max relative error 1e-4 and median 1e-5.
// Chamomile's Table 2 gives 2.2e-6 (N = 2048) to 2.2e-5 (N = 131072) for plain float32 summation, which is
// what each slice does; the bound is ~5x the large-N figure and fails for any missing, doubled or wrong
// interaction (each is ~1/N = 1e-5 .. 1 of an acceleration).
TEST(CudaKernels, EveryShapeMatchesFloat64ReferenceAtAwkwardN) {
    REQUIRE_GPU(gpu);
    for (std::size_t n : {1u, 2u, 3u, 31u, 33u, 255u, 257u, 7499u, 100003u}) {
        if (!within_cap(n)) continue;
        const State s = rounded_to_float32(test::plummer_state(n, 5 + n));
        const auto ref = reference_accelerations(s, 0.01, 1.0);
        int ran = 0;
        for (SimParams p : all_shapes()) {
            p.eps = 0.01;
            if (n > 10000 && p.shape.block != 256) continue;  // keep the big case to one block size
            std::vector<Double4> acc;
            if (!gpu_accelerations(*gpu, s, p, acc)) continue;
            ++ran;
            if (n == 1) {
                EXPECT_EQ(acc[0].x, 0.f) << label(p);
                continue;
            }
            const ForceError e = compare_forces(acc, ref);
            EXPECT_LT(e.max_rel, 1e-4) << label(p) << " N " << n << " worst body " << e.worst_index;
            EXPECT_LT(e.median_rel, 1e-5) << label(p) << " N " << n;
        }
        EXPECT_GT(ran, 13) << "N " << n;
    }
}

// eps = 0 with distinct positions: the self term must be a finite zero in every variant.
TEST(CudaKernels, ZeroSofteningDistinctPositions) {
    REQUIRE_GPU(gpu);
    const State s = rounded_to_float32(test::plummer_state(1000, 99));
    const auto ref = reference_accelerations(s, 0.0, 1.0);
    for (SimParams p : all_shapes()) {
        p.eps = 0.0;
        std::vector<Double4> acc;
        if (!gpu_accelerations(*gpu, s, p, acc)) continue;
        // Unsoftened close pairs make individual forces large, so allow 1e-4 relative.
        EXPECT_LT(compare_forces(acc, ref).max_rel, 1e-4) << label(p);
    }
}

// Exact count: N_A unit masses stacked at the origin and N_B at (1, 0, 0), eps = 0. Stacked bodies add
// exactly zero to each other, and every body of the other site adds the same term c (r = 1), so a body
// at A must see exactly N_B * c and one at B exactly -N_A * c. c is a power of two (measured first), which
// makes every partial sum exact in float32: one missing or doubled interaction anywhere is an error of c.
TEST(CudaKernels, JSplitReductionIsExactInCount) {
    REQUIRE_GPU(gpu);
    auto two_sites = [](std::size_t n) {
        State s;
        s.resize(n);
        for (std::size_t i = 0; i < n; ++i) s.pos_mass[i] = {i % 2 ? 1.f : 0.f, 0.f, 0.f, 1.f};
        return s;
    };
    SimParams p;
    p.eps = 0.0;
    std::vector<Double4> acc;
    ASSERT_TRUE(gpu_accelerations(*gpu, two_sites(2), p, acc));
    const double c = acc[0].x;
    ASSERT_GT(c, 0.f);
    ASSERT_EQ(std::exp2(std::round(std::log2(c))), c) << "the per-pair term is not a power of two";
    for (std::size_t n : {3u, 255u, 7499u, 100003u}) {
        if (!within_cap(n)) continue;
        const State s = two_sites(n);
        const double n_b = static_cast<double>(n / 2), n_a = static_cast<double>(n - n / 2);
        for (SimParams q : all_shapes()) {
            q.eps = 0.0;
            if (!gpu_accelerations(*gpu, s, q, acc)) continue;
            long bad = -1;
            for (std::size_t i = 0; i < n && bad < 0; ++i) {
                const double want = (i % 2 ? -n_a : n_b) * c;
                if (acc[i].x != want || acc[i].y != 0.f || acc[i].z != 0.f) bad = static_cast<long>(i);
            }
            EXPECT_EQ(bad, -1) << label(q) << " N " << n << ": body " << bad << " got " << acc[bad < 0 ? 0 : bad].x;
        }
    }
}

// CUDA and CPU stepped 100 times from the same Plummer state (N = 4096, eps = 0.05, dt = 0.005). Their
// forces differ by float32 rounding (~1e-6 relative), which over t = 0.5 moves bodies by ~1e-7 and
// changes velocities by ~1e-6; close encounters amplify that. The CPU kicks and drifts in float64 and the
// GPU in float32 (x rounded to ~6e-8 every step), which the H200 measured at 1.3e-5 in position after 100
// steps. Bounds: 5e-5 in position and velocity (system size and speeds ~1). A wrong kick (a dt/2 =
// 2.5e-3 |a|) or drift fails them by two orders.
TEST(CudaBackend, AgreesWithCpuAfter100Steps) {
    REQUIRE_GPU(gpu);
    const State s0 = test::plummer_state(4096, 17);
    SimParams p;
    p.eps = 0.05;
    p.dt = 0.005;
    CpuBackend cpu;
    cpu.reset(s0, p);
    cpu.step(100);
    State c, g;
    cpu.read_state(c);
    for (const VariantInfo& v : variant_table()) {
        if (v.variant == KernelVariant::Tensor) continue;  // test_tensor_gpu.cpp, against the fp32 kernel
        p.kernel_auto = false;
        p.variant = v.variant;
        p.shape = v.default_shape;
        gpu->reset(s0, p);
        gpu->step(100);  // 100 = 3 graph replays of 32 + 4 single launches
        gpu->read_state(g);
        double dx = 0, dv = 0;
        for (std::size_t i = 0; i < s0.size(); ++i) {
            dx = std::max({dx, std::fabs(double(g.pos_mass[i].x) - c.pos_mass[i].x),
                           std::fabs(double(g.pos_mass[i].y) - c.pos_mass[i].y),
                           std::fabs(double(g.pos_mass[i].z) - c.pos_mass[i].z)});
            dv = std::max({dv, std::fabs(double(g.vel[i].x) - c.vel[i].x), std::fabs(double(g.vel[i].y) - c.vel[i].y),
                           std::fabs(double(g.vel[i].z) - c.vel[i].z)});
        }
        EXPECT_LT(dx, 5e-5) << v.name;
        EXPECT_LT(dv, 5e-5) << v.name;
        EXPECT_NEAR(gpu->time(), c.time, 1e-9);
        EXPECT_EQ(g.pos_mass[7].w, s0.pos_mass[7].w);  // masses travel unchanged
    }
}

// Changing eps mid-run re-primes: the stored accelerations match the reference at the new eps, and
// switching variants keeps the particles where they are.
TEST(CudaBackend, ParamChangesApplyWithoutLosingState) {
    REQUIRE_GPU(gpu);
    const State s0 = test::plummer_state(3000, 3);
    SimParams p;
    gpu->reset(s0, p);
    gpu->step(10);
    State before, after;
    gpu->read_state(before);
    p.eps = 0.2;
    p.kernel_auto = false;
    p.variant = KernelVariant::None;
    p.shape = variant_info(KernelVariant::None).default_shape;
    gpu->set_params(p);
    gpu->read_state(after);
    EXPECT_EQ(0, std::memcmp(before.pos_mass.data(), after.pos_mass.data(), before.size() * sizeof(Double4)));
    std::vector<Double4> acc;
    gpu->read_accelerations(acc);
    EXPECT_LT(compare_forces(acc, reference_accelerations(after, 0.2, 1.0)).max_rel, 1e-4);
    SimParams bad = p;
    bad.shape.q = 3;
    EXPECT_THROW(gpu->set_params(bad), ParamError);
    EXPECT_EQ(gpu->params().shape.q, p.shape.q);
}

// The device potential energy (float32 pair sums per body, double total) against the float64 sum, for the
// energy diagnostics at large N. Each body's sum of N float32 terms carries ~1e-6 relative rounding
// (Chamomile's figures for forces); summed over bodies with mixed signs of error it averages down.
// Bound 1e-5: well under the 1e-4 energy drifts a user watches for, and a missing or doubled pair term
// (1/N = 2.4e-4 of W at N = 4096) or a self term (m/eps) fails it.
TEST(CudaBackend, PotentialEnergyMatchesFloat64) {
    REQUIRE_GPU(gpu);
    for (double eps : {0.01, 0.0}) {
        const State s = test::plummer_state(4096, 21);
        SimParams p;
        p.eps = eps;
        p.G = 1.5;
        gpu->reset(s, p);
        const std::optional<double> w = gpu->potential_energy();
        ASSERT_TRUE(w.has_value());
        const double ref = compute_diagnostics(s, eps, 1.5).potential;
        EXPECT_NEAR(*w / ref, 1.0, 1e-5) << "eps " << eps;
    }
}

// The NaN check looks on the device (no copy of N bodies) and names the body the host check names: none in a
// sound state, the first overflowed one after a step that overflows float (masses past float32's range with
// the largest G and time step allowed, as the CPU test does).
TEST(CudaBackend, FindsTheFirstNonFiniteBodyOnTheDevice) {
    REQUIRE_GPU(gpu);
    SimParams p;
    gpu->reset(test::plummer_state(5000, 4), p);
    gpu->step(2);
    EXPECT_FALSE(gpu->first_nonfinite_position().has_value());
    p.method = ForceMethod::Tree;
    gpu->reset(test::plummer_state(5000, 4), p);
    gpu->step(2);
    EXPECT_FALSE(gpu->first_nonfinite_position().has_value());
    p = SimParams{};
    p.dt = 1e6;
    p.G = 1e12;
    State heavy = test::plummer_state(3001, 5);
    for (auto& pm : heavy.pos_mass) pm.w *= 1e30;
    gpu->reset(heavy, p);
    gpu->step(3);
    const std::optional<std::size_t> device = gpu->first_nonfinite_position();
    ASSERT_TRUE(device.has_value());
    EXPECT_EQ(device, gpu->Backend::first_nonfinite_position());  // the host copy's answer
}

// Sixth order runs on the GPU: the backend takes it (no fall back to the CPU) and counts its flops.
TEST(CudaBackend, RunsSixthOrderOnTheGpu) {
    REQUIRE_GPU(gpu);
    const State s0 = test::plummer_state(256, 5);
    SimParams p;
    p.integrator = Integrator::Hermite6Block;
    p.precision = Precision::Fp64;
    std::unique_ptr<Backend> b = std::move(gpu);
    BackendChoice choice;
    reset_or_cpu(b, s0, p, &choice);
    EXPECT_TRUE(b->caps().gpu);  // reset_or_cpu kept the CUDA backend
    EXPECT_TRUE(choice.fallback.empty()) << choice.fallback;
    b->step(2);
    EXPECT_EQ(b->steps_taken(), 2);
    EXPECT_EQ(b->work().flops_per_pair, kFlopsPerInteractionHermite6);
}
