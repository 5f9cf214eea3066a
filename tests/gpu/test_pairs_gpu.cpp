// GPU tests (label gpu) of the pairs family (cuda/pairs/pairs_kernel.cuh) beyond the every-shape comparison
// with float64 in test_cuda_backend.cpp: what it refuses, that `auto` passes it over where it cannot run, a
// live switch, and stepping against the fp32 ij kernel. They skip, saying why, where no CUDA device can be
// used.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "../unit/test_util.hpp"
#include "core/errors.hpp"
#include "core/kernels/kernel_family.hpp"
#include "core/rows/param_checks.hpp"
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

// Pairs runs on several parts in one process (the automatic choice, whose built-in table picks pairs from N = 4,000,
// takes it there too); double-single pairs does not exist.
TEST(PairsKernel, AutoTakesPairsOnSeveralParts) {
    REQUIRE_GPU_PARTS(two, 0, 0);
    const State s0 = test::plummer_state(20000, 8);
    SimParams a;
    a.eps = 0.05;
    ASSERT_TRUE(a.kernel_auto);
    ASSERT_NO_THROW(two->reset(s0, a));
    EXPECT_NE(two->kernel_label().find("pairs"), std::string::npos) << two->kernel_label();
    two->step(3);
    State s;
    two->read_state(s);
    for (const Double4& p : s.pos_mass) ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z));
    SimParams ds = with_variant(KernelVariant::Pairs, 0.05);
    ds.precision = Precision::DS;
    EXPECT_THROW(validate(ds), ParamError);
}

// Two, three and five parts on one GPU run the whole several-part path (each part's groups of tiles, their sums sent
// to the bodies' owners, the owners' sums in group order, the position exchange) and must be bit-identical to one
// part: awkward N (fewer bodies than parts, partial strips, one group up to 7,499; 20,011 has 4 groups in strips of
// 256, so three parts take 1, 1 and 2 and five parts leave one idle; 100,003 in strips of 256 has 12 in 5 bands of
// 83 diagonals over two buffers, so groups run over two bands and each part's bands over both streams), shapes with
// strips of 256 (q 1 and 2) and 1,024, through the priming and 5 steps.
TEST(PairsKernel, SeveralPartsAreBitIdenticalToOne) {
    REQUIRE_GPU_PARTS(one, 0);
    REQUIRE_GPU_PARTS(two, 0, 0);
    REQUIRE_GPU_PARTS(three, 0, 0, 0);
    REQUIRE_GPU_PARTS(five, 0, 0, 0, 0, 0);
    for (std::size_t n : {1u, 2u, 3u, 31u, 33u, 255u, 257u, 7499u, 20011u, 100003u}) {
        if (!test::within_cap(n)) continue;
        const State s0 = test::plummer_state(n, 17);
        for (const KernelShape& shape :
             {KernelShape{4, 2, 64, 0, 1}, KernelShape{4, 2, 128, 2, 1}, KernelShape{8, 2, 128, 1, 1}}) {
            SimParams p = with_variant(KernelVariant::Pairs, 0.05);
            p.shape = shape;
            p.dt = 0.005;
            State a;
            one->reset(s0, p);
            one->step(5);
            one->read_state(a);
            for (CudaBackend* many : {two.get(), three.get(), five.get()}) {
                many->reset(s0, p);
                many->step(5);
                State b;
                many->read_state(b);
                ASSERT_EQ(a.size(), b.size());
                const std::string at = "N " + std::to_string(n) + ", " + std::to_string(many->parts()) + " parts, " +
                                       kernel_label(KernelVariant::Pairs, shape);
                EXPECT_EQ(0, std::memcmp(a.pos_mass.data(), b.pos_mass.data(), n * sizeof(Double4))) << at;
                EXPECT_EQ(0, std::memcmp(a.vel.data(), b.vel.data(), n * sizeof(Double4))) << at;
                EXPECT_EQ(a.time, b.time);
            }
            if (n >= 2) EXPECT_GT(test::max_abs_diff(a, s0), 0.0) << n;  // gravity did move the bodies
        }
    }
    // The Performance panel's per-part times include the reduction: a kernel that ran, copies that took time.
    const std::vector<DeviceTiming> t = two->readouts(ReadoutAsk::timings()).device_timings;
    ASSERT_EQ(t.size(), 2u);
    EXPECT_GT(t[0].kernel_ms, 0.0);
    EXPECT_GT(t[1].exchange_ms, 0.0);
    EXPECT_NE(two->kernel_label().find("2 parts"), std::string::npos) << two->kernel_label();
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

// Past one band the bands alternate over two buffers and the second buffer's run on a second stream, joined back by
// events. One step at a time (direct launches) and 32 steps in one graph (the capture records the fork and the join
// as edges) must give the same bits: N = 100,003 in strips of 256 has 391 strips in 5 bands of 83 diagonals, so
// every step runs bands on both streams and each buffer is used again two bands on.
TEST(PairsKernel, BandsOnTwoStreamsAreTheSameInAGraph) {
    REQUIRE_GPU(graph);
    REQUIRE_GPU(single);
    const std::size_t n = 100003;
    if (!test::within_cap(n)) GTEST_SKIP() << "NBODY_GPU_TEST_MAX_N is below " << n;
    const State s0 = test::plummer_state(n, 23);
    SimParams p = with_variant(KernelVariant::Pairs, 0.05);
    p.shape = KernelShape{4, 2, 64, 0, 1};
    p.dt = 0.005;
    graph->reset(s0, p);
    graph->step(32);  // kGraphSteps: one graph replay
    single->reset(s0, p);
    for (int i = 0; i < 32; ++i) single->step(1);
    State a, b;
    graph->read_state(a);
    single->read_state(b);
    EXPECT_EQ(0, std::memcmp(a.pos_mass.data(), b.pos_mass.data(), n * sizeof(Double4)));
    EXPECT_EQ(0, std::memcmp(a.vel.data(), b.vel.data(), n * sizeof(Double4)));
    EXPECT_GT(test::max_abs_diff(a, s0), 0.0);
}

// Narrow bands (16 diagonals or fewer) are finished by one thread a body (the finish kernel's one-lane instance):
// 600,001 bodies in strips of 256 have 2,344 strips in bands of 13 over two buffers; past 1,048,576 the bands are too
// narrow for two, and 1,100,003 bodies have 4,297 strips in 287 bands of 15 in one. The accelerations of the priming
// evaluation must agree with the ij kernel's (float32 sums of 1.1M terms in another order: a median of 1.5e-5 on the
// H200): a band lost or added twice would move the median by about 1/287 of the force, 3e-3.
TEST(PairsKernel, NarrowBandsMatchIj) {
    REQUIRE_GPU(gpu);
    for (std::size_t n : {std::size_t{600001}, std::size_t{1100003}}) {
        if (!test::within_cap(n)) GTEST_SKIP() << "NBODY_GPU_TEST_MAX_N is below " << n;
        const State s0 = test::plummer_state(n, 29);
        std::vector<Double4> pairs, ij;
        gpu->reset(s0, with_variant(KernelVariant::Pairs, 0.05));
        gpu->read_accelerations(pairs);
        gpu->reset(s0, with_variant(KernelVariant::IJUnrolled, 0.05));
        gpu->read_accelerations(ij);
        ASSERT_EQ(pairs.size(), n);
        std::vector<double> rel;
        for (std::size_t i = 0; i < n; i += 97) {
            const double dx = pairs[i].x - ij[i].x, dy = pairs[i].y - ij[i].y, dz = pairs[i].z - ij[i].z;
            rel.push_back(
                std::sqrt((dx * dx + dy * dy + dz * dz) / (ij[i].x * ij[i].x + ij[i].y * ij[i].y + ij[i].z * ij[i].z)));
        }
        std::nth_element(rel.begin(), rel.begin() + rel.size() / 2, rel.end());
        EXPECT_LT(rel[rel.size() / 2], 1e-4) << n;
        EXPECT_GT(*std::max_element(rel.begin(), rel.end()), 0.0) << n;  // two different kernels did run
    }
}
