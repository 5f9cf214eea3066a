// The tensor-core family's host-side rules (core/kernel_config, core/sim_params): its row in the variant
// table, the shapes and precisions it accepts, the messages that refuse the rest, and its launch plan.
#include <gtest/gtest.h>

#include <string>

#include "core/errors.hpp"
#include "core/kernels/kernel_config.hpp"
#include "core/kernels/kernel_family.hpp"
#include "core/rows/param_checks.hpp"
#include "core/rows/sim_params.hpp"
#include "test_util.hpp"

using namespace nbody;

namespace {
constexpr KernelVariant TC = KernelVariant::Tensor;

std::string shape_error(const KernelShape& s) { return test::shape_error(TC, s); }
}  // namespace

TEST(TensorConfig, VariantRowNamesAndDefault) {
    EXPECT_EQ(variant_name(TC), "tensor");
    EXPECT_EQ(parse_variant("tensor"), TC);
    EXPECT_EQ(parse_variant("tc"), TC);
    const KernelShape d = variant_info(TC).default_shape;
    EXPECT_EQ(shape_error(d), "");
    EXPECT_EQ(d.block, 128);
    EXPECT_EQ(kernel_label(TC, d), "tensor block 128 s auto");
    EXPECT_EQ(kernel_label(TC, {1, 1, 256, 1, 1}), "tensor block 256");
    EXPECT_FALSE(variant_info(TC).description.empty());
    // Automatic choice stays with the tuned CUDA-core kernels until the family is measured: the defaults
    // do not name it.
    EXPECT_NE(SimParams{}.variant, TC);
}

TEST(TensorConfig, ShapesOutsideTheFamilyNameTheField) {
    EXPECT_EQ(shape_error({2, 1, 128, 0, 0}), "k: variant tensor allows k in {1} (got 2)");
    EXPECT_EQ(shape_error({1, 4, 128, 0, 0}), "u: variant tensor allows u in {1} (got 4)");
    EXPECT_EQ(
        shape_error({1, 1, 512, 0, 0}),
        "block: variant tensor allows a block of 64 to 256 threads (a multiple of 32; its i-bodies share "
        "one centre) (got 512)");
    EXPECT_NE(shape_error({1, 1, 100, 0, 0}).find("block: must be a multiple of 32"), std::string::npos);
    EXPECT_EQ(shape_error({1, 1, 128, 2, 0}),
              "q: variant tensor has no j-split in a warp: q must be 0 (auto) or 1 (got 2)");
    EXPECT_EQ(shape_error({1, 1, 64, 1, 64}), "");
    EXPECT_NE(shape_error({1, 1, 64, 1, 65}).find("s: blocks per body"), std::string::npos);
}

TEST(TensorConfig, OnlyFp32IsAccepted) {
    SimParams p;
    p.kernel_auto = false;
    p.variant = TC;
    p.shape = variant_info(TC).default_shape;
    EXPECT_NO_THROW(validate(p));
    for (Precision pr : {Precision::DS, Precision::Fp64}) {
        p.precision = pr;
        try {
            validate(p);
            ADD_FAILURE() << "tensor accepted " << precision_name(pr);
        } catch (const ParamError& e) {
            EXPECT_EQ(std::string(e.what()), "precision: the tensor kernel runs in fp32 only (got " +
                                                 std::string(precision_name(pr)) +
                                                 "); choose fp32, or another variant for ds and fp64");
        }
    }
    p.kernel_auto = true;  // the variant field is not used then
    EXPECT_NO_THROW(validate(p));
    EXPECT_NO_THROW(validate_variant_precision(KernelVariant::IJUnrolled, Precision::DS));
}

// 16 i-bodies per warp (block / 2 per block), one j-body per thread and tile, chunks of whole 8-body groups
// covering all N, and the automatic j-split filling one wave of 132 SMs x 1024 threads.
TEST(TensorConfig, LaunchPlanCoversEveryBody) {
    const KernelShape d = variant_info(TC).default_shape;  // block 128, s auto
    const LaunchPlan small = plan_launch(TC, d, 7500, 132);
    EXPECT_EQ(small.blocks, 118);  // ceil(7500 / 64)
    EXPECT_EQ(small.q, 1);
    EXPECT_EQ(small.tile, 128);
    EXPECT_EQ(small.splits, 8);   // 944 of 1,056 slots (89%, one wave); 9 spills into a second wave
    EXPECT_EQ(small.chunk, 944);  // ceil(7500 / 8) = 938, rounded up to whole groups of 8
    EXPECT_GE(small.chunk * small.splits, 7500);
    const LaunchPlan large = plan_launch(TC, d, 131072, 132);
    EXPECT_EQ(large.blocks, 2048);
    EXPECT_EQ(large.splits, 1);  // 2,048 of 2 x 1,056 slots: 97%
    // 7 resident blocks of 128: 924 slots; s = 1 fills 74% of 3 waves, s = 4 98.6% of 9.
    EXPECT_EQ(plan_launch(TC, d, 131072, 132, 7 * 128).splits, 4);
    const LaunchPlan one = plan_launch(TC, d, 1, 132);
    EXPECT_EQ(one.blocks, 1);
    EXPECT_EQ(one.splits, 1);
    EXPECT_EQ(one.chunk, 8);
    // A fixed s is kept, at most one split per 8-body group.
    EXPECT_EQ(plan_launch(TC, {1, 1, 256, 1, 7}, 5000, 132).splits, 7);
    const LaunchPlan tiny = plan_launch(TC, {1, 1, 64, 1, 64}, 100, 132);
    EXPECT_EQ(tiny.splits, 13);
    EXPECT_EQ(tiny.chunk, 8);
    EXPECT_EQ(tiny.blocks, 4);  // ceil(100 / 32)
    EXPECT_THROW(plan_launch(TC, {1, 1, 128, 4, 0}, 100, 132), ParamError);
}
