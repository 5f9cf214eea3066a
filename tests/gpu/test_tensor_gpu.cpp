// GPU tests (label gpu) of the tensor-core family (cuda/tensor/tensor_kernel.cuh): accuracy of its first
// evaluation against float64, stepping against the fp32 CUDA-core kernel, live switches, eps = 0, tiny N, and
// what it refuses. They skip, saying why, where no CUDA device can be used; run them on the device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "../unit/test_util.hpp"
#include "core/errors.hpp"
#include "core/kernels/kernel_family.hpp"
#include "cpu/reference_force.hpp"
#include "cuda_backend.hpp"
#include "gpu_test_util.hpp"

using namespace nbody;
using test::within_cap;

namespace {

SimParams tensor_params(double eps, KernelShape shape = variant_info(KernelVariant::Tensor).default_shape) {
    SimParams p;
    p.kernel_auto = false;
    p.variant = KernelVariant::Tensor;
    p.shape = shape;
    p.eps = eps;
    return p;
}

SimParams ij_params(double eps) {
    SimParams p;
    p.kernel_auto = false;
    p.variant = KernelVariant::IJUnrolled;
    p.shape = variant_info(KernelVariant::IJUnrolled).default_shape;
    p.eps = eps;
    return p;
}

std::vector<Double4> first_accelerations(CudaBackend& b, const State& s, const SimParams& p) {
    b.reset(s, p);
    std::vector<Double4> acc;
    b.read_accelerations(acc);
    return acc;
}

bool all_finite(const std::vector<Double4>& acc) {
    for (const Double4& a : acc)
        if (!std::isfinite(a.x) || !std::isfinite(a.y) || !std::isfinite(a.z)) return false;
    return true;
}

std::string shape_label(const KernelShape& s) {
    return kernel_label(KernelVariant::Tensor, s);
}

}  // namespace

// Bound: max relative error 1e-4, median 1e-5, as for the fp32 CUDA-core kernels (test_cuda_backend.cpp).
// Why it should hold: the split TF32 operands keep ~22 of fp32's 24 bits per pair term, pairs closer than
// |u_i| / 4 are summed on the CUDA cores, and the CPU model of this kernel (tests/unit/cuda/
// test_tensor_kernel_model.cpp, same helpers, MUFU's 2-ulp rsqrt) measured max 3e-7 .. 1.1e-5 and median
// 1e-7 .. 7e-7 at N = 2 .. 1,001 against float64. The goal on the benchmark state (N = 131,072: max 1e-5,
// median 1e-6) is measured by nbody-bench, not asserted here. A missing, doubled or wrong interaction (1/N of
// a force) or a broken scatter fails it. Each shape prints its errors so the device run records them.
TEST(TensorKernel, FirstEvaluationMatchesFloat64AtAwkwardN) {
    REQUIRE_GPU(gpu);
    if (const std::string why = gpu->family_refusal(KernelVariant::Tensor); !why.empty()) GTEST_SKIP() << why;
    test::for_each_awkward_n([&](std::size_t n, const State& s, const std::vector<Double3>& ref) {
        std::vector<KernelShape> shapes = {variant_info(KernelVariant::Tensor).default_shape};
        if (n < 10000) shapes.insert(shapes.end(), {{1, 1, 64, 0, 1}, {1, 1, 256, 1, 0}, {1, 1, 128, 0, 3}});
        for (const KernelShape& shape : shapes) {
            const auto acc = first_accelerations(*gpu, s, tensor_params(0.01, shape));
            ASSERT_EQ(acc.size(), n);
            ASSERT_TRUE(all_finite(acc)) << shape_label(shape) << " N " << n;
            if (n == 1) {
                EXPECT_EQ(acc[0].x, 0.0);
                EXPECT_EQ(acc[0].y, 0.0);
                EXPECT_EQ(acc[0].z, 0.0);
                continue;
            }
            const ForceError e = compare_forces(acc, ref);
            std::printf("tensor %s N %zu: max %.3g median %.3g\n", shape_label(shape).c_str(), n, e.max_rel,
                        e.median_rel);
            EXPECT_LT(e.max_rel, 1e-4) << shape_label(shape) << " N " << n << " worst body " << e.worst_index;
            EXPECT_LT(e.median_rel, 1e-5) << shape_label(shape) << " N " << n;
        }
    });
}

// 50 steps (one 32-step graph, then 18 single launches: the sort runs inside the captured graph) against the
// fp32 ij kernel from the same state, N = 4,096, eps = 0.05, dt = 0.005. The CUDA-core kernel and the CPU
// differ by 1.3e-5 after 100 steps (H200; test_cuda_backend.cpp); the tensor kernel's forces are up to ~10x
// less exact (the CPU model: up to ~1e-5), which over t = 0.25 moves a body by ~1e-5 |a| t^2 / 2 and its
// velocity by ~1e-5 |a| t, close encounters amplifying that. Bound 1e-4 in position and velocity: a wrong
// kick (dt/2 |a| = 2.5e-3) or a body scattered to the wrong index fails it by orders.
TEST(TensorKernel, FiftyStepsAgreeWithTheFp32Kernel) {
    REQUIRE_GPU(gpu);
    if (const std::string why = gpu->family_refusal(KernelVariant::Tensor); !why.empty()) GTEST_SKIP() << why;
    const State s0 = test::plummer_state(4096, 17);
    SimParams ij = ij_params(0.05), tc = tensor_params(0.05);
    ij.dt = tc.dt = 0.005;
    State a, b;
    gpu->reset(s0, ij);
    gpu->step(50);
    gpu->read_state(a);
    gpu->reset(s0, tc);
    gpu->step(50);
    gpu->read_state(b);
    ASSERT_EQ(first_non_finite(b), -1);
    double dv = 0;
    for (std::size_t i = 0; i < s0.size(); ++i)
        dv = std::max({dv, std::fabs(a.vel[i].x - b.vel[i].x), std::fabs(a.vel[i].y - b.vel[i].y),
                       std::fabs(a.vel[i].z - b.vel[i].z)});
    const double dx = test::max_abs_diff(a, b);
    std::printf("tensor vs ij after 50 steps: position %.3g, velocity %.3g\n", dx, dv);
    EXPECT_LT(dx, 1e-4);
    EXPECT_LT(dv, 1e-4);
    EXPECT_EQ(b.pos_mass[7].w, a.pos_mass[7].w);  // masses travel unchanged, in the bodies' own order
    EXPECT_NEAR(gpu->time(), s0.time + 50 * 0.005, 1e-12);
}

// Switching to the tensor family and back at a step boundary keeps every particle where it is; the stored
// accelerations are those of the kernel now running (re-primed only when eps, G or dt change, as for the
// other variants: here eps changes, so they are the tensor kernel's).
TEST(TensorKernel, SwitchingLiveKeepsTheState) {
    REQUIRE_GPU(gpu);
    if (const std::string why = gpu->family_refusal(KernelVariant::Tensor); !why.empty()) GTEST_SKIP() << why;
    const State s0 = test::plummer_state(3000, 3);
    SimParams p = ij_params(0.05);
    gpu->reset(s0, p);
    gpu->step(10);
    State before, after;
    gpu->read_state(before);
    SimParams t = tensor_params(0.02);
    t.dt = p.dt;
    gpu->set_params(t);
    gpu->read_state(after);
    EXPECT_EQ(0, std::memcmp(before.pos_mass.data(), after.pos_mass.data(), before.size() * sizeof(Double4)));
    EXPECT_EQ(0, std::memcmp(before.vel.data(), after.vel.data(), before.size() * sizeof(Double4)));
    std::vector<Double4> acc;
    gpu->read_accelerations(acc);
    EXPECT_LT(compare_forces(acc, reference_accelerations(after, 0.02, 1.0)).max_rel, 1e-4);
    EXPECT_NE(gpu->kernel_label().find("tensor"), std::string::npos) << gpu->kernel_label();
    gpu->step(40);  // through a graph with the sort in it
    gpu->read_state(after);
    EXPECT_EQ(first_non_finite(after), -1);
    gpu->read_state(before);
    gpu->set_params(ij_params(0.02));
    gpu->read_state(after);
    EXPECT_EQ(0, std::memcmp(before.pos_mass.data(), after.pos_mass.data(), before.size() * sizeof(Double4)));
}

// eps = 0 with distinct bodies: the self pair is masked (w = 0) or, where it is flagged near, summed as the
// fp32 kernel does (dx = 0, soft2 = the 1e-20 floor: exactly zero), and every pair closer than |u_i| / 4 goes
// to the CUDA cores (tensor_math.hpp near_r2), so no r^2 of the products can round to zero or below. Every
// force must be finite and within the fp32 bounds (the CPU model measured max 1.5e-5, median 3.7e-7 at N =
// 300, tests/unit/cuda/test_tensor_kernel_model.cpp); a NaN, a self term or a missing body fails them.
TEST(TensorKernel, ZeroSofteningGivesFiniteForces) {
    REQUIRE_GPU(gpu);
    if (const std::string why = gpu->family_refusal(KernelVariant::Tensor); !why.empty()) GTEST_SKIP() << why;
    for (std::size_t n : {2u, 1000u, 7499u}) {
        const State s = rounded_to_float32(test::plummer_state(n, 99 + n));
        const auto acc = first_accelerations(*gpu, s, tensor_params(0.0));
        ASSERT_TRUE(all_finite(acc)) << "N " << n;
        const ForceError e = compare_forces(acc, reference_accelerations(s, 0.0, 1.0));
        std::printf("tensor eps 0 N %zu: max %.3g median %.3g\n", n, e.max_rel, e.median_rel);
        EXPECT_LT(e.median_rel, 1e-5) << "N " << n;
        EXPECT_LT(e.max_rel, 1e-4) << "N " << n << " worst body " << e.worst_index;
    }
}

// What the family does not run is refused with the reason, and the running configuration is kept.
TEST(TensorKernel, RefusesOtherPrecisionsAndSeveralParts) {
    REQUIRE_GPU(gpu);
    if (const std::string why = gpu->family_refusal(KernelVariant::Tensor); !why.empty()) GTEST_SKIP() << why;
    const State s0 = test::plummer_state(500, 5);
    gpu->reset(s0, ij_params(0.05));
    for (Precision pr : {Precision::DS, Precision::Fp64}) {
        SimParams p = tensor_params(0.05);
        p.precision = pr;
        try {
            gpu->reset(s0, p);
            ADD_FAILURE() << "tensor ran in " << precision_name(pr);
        } catch (const ParamError& e) {
            EXPECT_NE(std::string(e.what()).find("fp32 only"), std::string::npos) << e.what();
        }
    }
    EXPECT_EQ(gpu->params().variant, KernelVariant::IJUnrolled);
    REQUIRE_GPU_PARTS(two, 0, 0);
    try {
        two->reset(s0, tensor_params(0.05));
        ADD_FAILURE() << "tensor ran on two parts";
    } catch (const ParamError& e) {
        EXPECT_NE(std::string(e.what()).find("one GPU"), std::string::npos) << e.what();
    }
}
