#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/errors.hpp"
#include "core/kernels/kernel_family.hpp"
#include "core/rows/integrator.hpp"
#include "core/rows/sim_params.hpp"
#include "test_util.hpp"

using namespace nbody;

namespace {
std::string error_of(const SimParams& p) { return test::validation_error(p); }
}  // namespace

TEST(SimParams, DefaultsAreValid) {
    EXPECT_EQ(error_of(SimParams{}), "");
}

TEST(SimParams, BadValuesNameFieldAndRange) {
    SimParams p;
    p.dt = -0.1;
    EXPECT_EQ(error_of(p), "dt: must be from 1e-12 to 1e6 (got -0.1)");
    p.dt = std::numeric_limits<double>::quiet_NaN();
    EXPECT_NE(error_of(p).find("dt: must be from 1e-12 to 1e6 (got nan)"), std::string::npos);
    p = {};
    p.eps = -1;
    EXPECT_NE(error_of(p).find("eps: must be 0 or from 1e-9 to 1e4"), std::string::npos);
    p = {};
    p.G = 0;
    EXPECT_NE(error_of(p).find("G: must be from 1e-12 to 1e12"), std::string::npos);
    p = {};
    p.steps_per_frame = 0;
    EXPECT_NE(error_of(p).find("steps_per_frame: must be from 1 to 10000"), std::string::npos);
}

TEST(KernelShape, VariantTableIsConsistent) {
    for (const auto& info : variant_table()) {
        EXPECT_EQ(variant_info(info.variant).name, info.name);
        EXPECT_EQ(parse_variant(info.name), info.variant);
        EXPECT_NO_THROW(validate_shape(info.variant, info.default_shape)) << info.name;
    }
    EXPECT_EQ(parse_variant("ij"), KernelVariant::IJUnrolled);
    EXPECT_EQ(parse_variant("bogus"), std::nullopt);
}

TEST(KernelShape, BadShapesNameTheField) {
    auto msg = [](KernelVariant v, KernelShape s) {
        try {
            validate_shape(v, s);
        } catch (const ParamError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_EQ(msg(KernelVariant::None, {2, 1, 256, 0}), "k: variant none allows k in {1} (got 2)");
    EXPECT_EQ(msg(KernelVariant::IUnrolled, {3, 1, 256, 0}),
              "k: variant i-unrolled allows k in {2, 4, 8} (got 3)");
    EXPECT_EQ(msg(KernelVariant::IJUnrolled, {4, 16, 256, 0}),
              "u: variant ij-unrolled allows u in {2, 4, 8} (got 16)");
    EXPECT_NE(msg(KernelVariant::IJUnrolled, {4, 4, 100, 0}).find("block: must be a multiple of 32"),
              std::string::npos);
    EXPECT_NE(msg(KernelVariant::IJUnrolled, {4, 4, 2048, 0}).find("block"), std::string::npos);
    EXPECT_NE(msg(KernelVariant::IJUnrolled, {4, 4, 256, 3}).find("q: threads per body"), std::string::npos);
    EXPECT_EQ(msg(KernelVariant::IJUnrolled, {8, 8, 1024, 32}), "");
}

// The automatic j-split fills the GPU at small N and stays out of the way at large N (132 SMs, H200).
TEST(LaunchPlan, AutomaticQFollowsN) {
    const KernelShape ij = variant_info(KernelVariant::IJUnrolled).default_shape;  // k 4, u 4, block 256
    const LaunchPlan small = plan_launch(KernelVariant::IJUnrolled, ij, 7500, 132);
    EXPECT_EQ(small.q, 32);        // even q = 32 gives only 235 blocks of 256 threads
    EXPECT_EQ(small.blocks, 235);  // ceil(7500 / (256 / 32 * 4))
    EXPECT_EQ(small.tile, 0);      // fp32 with q >= kStreamFromQ: no tiles, the j-bodies read from global memory
    EXPECT_TRUE(small.alt);        // the tile-free instance
    EXPECT_EQ(small.shared_bytes, 0);
    EXPECT_EQ(small.partial_bytes, 0);  // one split
    // N = 1,000 at q 32: 31 bodies a slice, under kStreamMinPerSlice: tiles again.
    EXPECT_GT(plan_launch(KernelVariant::IJUnrolled, {4, 4, 256, 32}, 1000, 132).tile, 0);
    EXPECT_EQ(plan_launch(KernelVariant::IJUnrolled, {4, 4, 256, 32}, 4096, 132).tile, 0);
    EXPECT_GT(plan_launch(KernelVariant::IJUnrolled, {4, 4, 256, 32}, 4095, 132).tile, 0);
    const LaunchPlan small_ds = plan_launch(KernelVariant::IJUnrolled, ij, 7500, 132, 1024, 0, 32);
    EXPECT_EQ(small_ds.q, 32);
    EXPECT_EQ(small_ds.tile, 512);  // ds: the largest tile in 16 KiB, each of the 32 slices reads 16 bodies per barrier
    const LaunchPlan large = plan_launch(KernelVariant::IJUnrolled, ij, 131072, 132);
    EXPECT_EQ(large.q, 8);  // q = 4 gives 131072 threads, just short of 132 x 1024
    EXPECT_EQ(large.blocks, 1024);
    EXPECT_EQ(large.tile, 1024);  // 128 bodies per slice between barriers
    EXPECT_FALSE(large.alt);
    EXPECT_EQ(large.shared_bytes, 2 * 1024 * 16);  // two float4 tile buffers
    const LaunchPlan split = plan_launch(KernelVariant::IJUnrolled, {4, 4, 256, 1, 4}, 131072, 132, 1024, 0, 32);
    EXPECT_EQ(split.partial_bytes, 4LL * 131072 * 32);  // one Dbl4 partial sum per body and split
    const LaunchPlan one = plan_launch(KernelVariant::None, {1, 1, 64, 0}, 1, 132);
    EXPECT_EQ(one.blocks, 1);
    EXPECT_EQ(one.tile % (one.q * one.u), 0);
}

// Blocks need not be a power of two: 480 threads (15 i-lanes of q = 32) spread N = 7,500 over 125 blocks where
// 512 gives 118, and the tile is cut to a whole number of q x u bodies (not a multiple of the block).
// Fp32 with q >= kStreamFromQ has no tiles (tile 0).
TEST(LaunchPlan, BlocksThatAreNotAPowerOfTwo) {
    const LaunchPlan p = plan_launch(KernelVariant::IJUnrolled, {4, 4, 480, 8}, 7500, 132);
    EXPECT_EQ(p.q, 8);
    EXPECT_EQ(p.blocks, 32);  // ceil(7500 / (480 / 8 * 4))
    EXPECT_EQ(p.tile % (8 * 4), 0);
    EXPECT_GE(p.tile, 480);
    EXPECT_LE(p.tile * 16, 16384);
    EXPECT_EQ(plan_launch(KernelVariant::IJUnrolled, {4, 4, 480, 32}, 7500, 132).blocks, 125);  // 118 of 512
    const LaunchPlan a = plan_launch(KernelVariant::IJUnrolled, {4, 8, 96, 0}, 1000, 132, 1024, 0, 32);  // auto q
    EXPECT_EQ(a.tile % (a.q * 8), 0);
    EXPECT_EQ(96 % a.q, 0);
    EXPECT_EQ(plan_launch(KernelVariant::IJUnrolled, {4, 8, 256, 32}, 1000, 132).q, 32);
}

// Automatic s: q stays 1 and the j range is split over blocks, a power of two, until one wave of 132 SMs x
// 1024 threads is filled or a split would fall under kMinSplitChunk bodies.
TEST(LaunchPlan, AutomaticSplitOverBlocksFollowsN) {
    const KernelShape s0{4, 4, 256, 0, 0};
    const LaunchPlan small = plan_launch(KernelVariant::IJUnrolled, s0, 7500, 132);
    EXPECT_EQ(small.q, 1);
    EXPECT_EQ(small.blocks, 8);   // ceil(7500 / (256 x 4))
    // One wave whatever s (8 blocks on 528 slots): the time nj / s + 1,024 falls with s until one more split
    // gains under 2% (s = 27 of the 29 that keep >= 256 bodies each).
    EXPECT_EQ(small.splits, 27);
    EXPECT_EQ(small.chunk, 278);  // ceil(7500 / 27): the last split takes what is left
    const LaunchPlan large = plan_launch(KernelVariant::IJUnrolled, s0, 131072, 132);
    EXPECT_EQ(large.splits, 4);   // 128 blocks x 4 = 512 of 528 slots: one wave, 97% full
    EXPECT_EQ(plan_launch(KernelVariant::IJUnrolled, s0, 131072 * 8, 132).splits, 1);
    // ij 8x8 in blocks of 256 at 100,000 with 2 resident per SM (264 slots, 49 i-groups): the power of two that
    // first reached a wave (8: 392 blocks, the second wave half full) gave way to one wave of 245 (93%).
    EXPECT_EQ(plan_launch(KernelVariant::IJUnrolled, {8, 8, 256, 0, 0}, 100000, 132, 512).splits, 5);
    EXPECT_EQ(plan_launch(KernelVariant::None, {1, 1, 64, 0, 0}, 1, 132).splits, 1);
    // A part of a multi-GPU run: 1,000 own bodies against 100,000 may split its j range further.
    const LaunchPlan part = plan_launch(KernelVariant::IJUnrolled, s0, 1000, 132, 1024, 100000);
    EXPECT_EQ(part.splits, kMaxSplits - 1);  // the 64th would shorten each split by under 2%
    EXPECT_EQ(part.chunk, (100000 + kMaxSplits - 2) / (kMaxSplits - 1));
    // A fixed s is kept (clamped to the j count).
    EXPECT_EQ(plan_launch(KernelVariant::IJUnrolled, {4, 4, 256, 1, 7}, 5000, 132).splits, 7);
    EXPECT_EQ(plan_launch(KernelVariant::IJUnrolled, {4, 4, 256, 1, 7}, 3, 132).splits, 3);
}

TEST(SimParams, DevicesForGpuCount) {
    std::string note;
    EXPECT_EQ(devices_for(1, 2, &note), std::vector<int>({0}));
    EXPECT_TRUE(note.empty());
    EXPECT_EQ(devices_for(0, 2, &note), std::vector<int>({0, 1}));  // 0 = all
    EXPECT_EQ(devices_for(4, 2, &note), std::vector<int>({0, 1}));
    EXPECT_EQ(note, "asked for 4 GPUs; this machine has 2: running on 2");
    EXPECT_EQ(devices_for(0, 0, &note), std::vector<int>({0}));  // the caller reports the missing device
}

TEST(SimParams, EngineAxesParseAndValidate) {
    EXPECT_EQ(parse_precision("ds"), Precision::DS);
    EXPECT_EQ(parse_precision("fp64"), Precision::Fp64);
    EXPECT_FALSE(parse_precision("fp16").has_value());
    EXPECT_EQ(parse_integrator("hermite-block"), Integrator::HermiteBlock);
    EXPECT_EQ(integrator_name(Integrator::LeapFrog), "leapfrog");
    EXPECT_EQ(joined_names(precision_table()), "fp32, ds, fp64");
    SimParams p;
    EXPECT_TRUE(p.kernel_auto);  // users get the tuned choice unless they pick one
    p.eta = 0;
    EXPECT_NE(error_of(p).find("eta: must be from 1e-6 to 1"), std::string::npos);
    p.eta = std::numeric_limits<double>::quiet_NaN();
    EXPECT_NE(error_of(p).find("eta:"), std::string::npos);
    p = {};
    p.gpus = kMaxGpus + 1;
    EXPECT_NE(error_of(p).find("gpus: must be 0 or from 1 to 64 (0: all)"), std::string::npos);
    p = {};
    p.shape.k = 3;  // ignored while the backend chooses the kernel...
    EXPECT_EQ(error_of(p), "");
    p.kernel_auto = false;  // ...checked once the user does
    EXPECT_NE(error_of(p).find("k: variant ij-unrolled allows k in {2, 4, 8}"), std::string::npos);
}

TEST(SimParams, SameParamsSeesEveryAxis) {
    const SimParams a;
    for (int field = 0; field < 5; ++field) {
        SimParams b = a;
        if (field == 0) b.precision = Precision::DS;
        if (field == 1) b.integrator = Integrator::Hermite;
        if (field == 2) b.eta = 0.02;
        if (field == 3) b.gpus = 2;
        if (field == 4) b.kernel_auto = false;
        EXPECT_FALSE(same_params(a, b)) << "field " << field;
    }
    EXPECT_TRUE(same_params(a, SimParams{}));
}
