// GPU tests (label gpu) of the pairs family (cuda/pairs_kernel.cuh) beyond the every-shape comparison with
// float64 in test_cuda_backend.cpp: what it refuses, that `auto` passes it over where it cannot run, a live
// switch, and stepping against the fp32 ij kernel. They skip, saying why, where no CUDA device can be used.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "../unit/test_util.hpp"
#include "core/errors.hpp"
#include "cuda_backend.hpp"
#include "gpu_test_util.hpp"

using namespace nbody;

namespace {
SimParams with_variant(KernelVariant v, double eps) {
    SimParams p;
    p.kernel_auto = false;
    p.variant = v;
    p.shape = variant_info(v).default_shape;
    p.eps = eps;
    return p;
}
}  // namespace

// Pairs runs on one GPU in one process: asked for on two parts it is refused with the reason, and the automatic
// choice (whose built-in table picks pairs from N = 4,000 on one part) takes a kernel that runs there.
TEST(PairsKernel, RefusedOnTwoPartsAndPassedOverByAuto) {
    REQUIRE_GPU_PARTS(two, 0, 0);
    const State s0 = test::plummer_state(20000, 8);
    try {
        two->reset(s0, with_variant(KernelVariant::Pairs, 0.05));
        ADD_FAILURE() << "pairs ran on two parts";
    } catch (const ParamError& e) {
        EXPECT_NE(std::string(e.what()).find("one GPU"), std::string::npos) << e.what();
    }
    SimParams a;
    a.eps = 0.05;
    ASSERT_TRUE(a.kernel_auto);
    ASSERT_NO_THROW(two->reset(s0, a));
    EXPECT_EQ(two->kernel_label().find("pairs"), std::string::npos) << two->kernel_label();
    two->step(3);
    State s;
    two->read_state(s);
    for (const Double4& p : s.pos_mass) ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z));
    SimParams ds = with_variant(KernelVariant::Pairs, 0.05);
    ds.precision = Precision::DS;
    EXPECT_THROW(validate(ds), ParamError);
}

// A switch between ij and pairs keeps the bodies where they are, and 64 steps (two graph replays) of each from the
// same state agree within float rounding over the run (the sums differ in order only).
TEST(PairsKernel, SwitchKeepsTheStateAndStepsMatchIj) {
    REQUIRE_GPU(gpu);
    const State s0 = test::plummer_state(5000, 12);
    SimParams ij = with_variant(KernelVariant::IJUnrolled, 0.05), pairs = with_variant(KernelVariant::Pairs, 0.05);
    ij.dt = pairs.dt = 0.005;
    gpu->reset(s0, ij);
    gpu->step(10);
    State before, after;
    gpu->read_state(before);
    gpu->set_params(pairs);
    gpu->read_state(after);
    EXPECT_EQ(0, std::memcmp(before.pos_mass.data(), after.pos_mass.data(), before.size() * sizeof(Double4)));
    EXPECT_NE(gpu->kernel_label().find("pairs"), std::string::npos) << gpu->kernel_label();
    State a, b;
    gpu->reset(s0, ij);
    gpu->step(64);
    gpu->read_state(a);
    gpu->reset(s0, pairs);
    gpu->step(64);
    gpu->read_state(b);
    EXPECT_LT(test::max_abs_diff(a, b), 1e-4);
    EXPECT_GT(test::max_abs_diff(a, b), 0.0);  // two different kernels did run
    EXPECT_EQ(a.time, b.time);
}
