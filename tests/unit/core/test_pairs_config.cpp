// The pairs family's host-side rules (core/kernel_config, core/sim_params): its row in the variant table, the
// shapes it accepts (shared memory 384 k w^2 bytes a block), the messages that refuse the rest, its launch plan
// (the upper triangle of strips x strips tiles) and its scratch.
#include <gtest/gtest.h>

#include <algorithm>

#include <string>

#include "core/errors.hpp"
#include "core/kernels/kernel_config.hpp"
#include "core/kernels/kernel_family.hpp"
#include "core/rows/param_checks.hpp"
#include "core/rows/sim_params.hpp"
#include "test_util.hpp"

using namespace nbody;

namespace {
constexpr KernelVariant PV = KernelVariant::Pairs;

std::string shape_error(const KernelShape& s) { return test::shape_error(PV, s); }
}  // namespace

TEST(PairsConfig, VariantRowNamesAndDefault) {
    EXPECT_EQ(variant_name(PV), "pairs");
    EXPECT_EQ(parse_variant("pairs"), PV);
    const KernelShape d = variant_info(PV).default_shape;
    EXPECT_EQ(shape_error(d), "");
    // 4x2 in blocks of 64 (strips of 256, the most tiles): within 8% of the best pairs shape at N = 131,072 and
    // twice as fast as 8x2 in blocks of 128 at 7,500 (H200, docs/bench/2026-11-24-h200-pairs-shapes.json).
    EXPECT_EQ(kernel_label(PV, d), "pairs k 4 u 2 block 64");
    EXPECT_EQ(kernel_label(PV, {8, 2, 256, 4, 1}), "pairs k 8 u 2 block 256 q 4");
    EXPECT_FALSE(variant_info(PV).description.empty());
}

TEST(PairsConfig, ShapesOutsideTheFamilyNameTheField) {
    EXPECT_EQ(shape_error({1, 1, 128, 0, 1}), "k: variant pairs allows k in {2, 4, 8} (got 1)");
    EXPECT_EQ(shape_error({2, 4, 128, 0, 1}).substr(0, 30), "u: variant pairs needs u <= k ");
    EXPECT_EQ(shape_error({8, 8, 128, 0, 1}), "u: variant pairs allows u in {1, 2, 4} (got 8)");
    EXPECT_EQ(shape_error({4, 4, 128, 0, 1}), "");
    EXPECT_EQ(shape_error({8, 2, 512, 0, 1}), "block: variant pairs allows a block of 64 to 256 threads (got 512)");
    // k 8: 384 x 8 x 5^2 = 76,800 bytes at block 160 fits, 110,592 at 192 does not; k 4 fits up to 256.
    EXPECT_EQ(shape_error({8, 2, 160, 0, 1}), "");
    EXPECT_NE(shape_error({8, 2, 192, 0, 1}).find("block: variant pairs keeps 384 x k x v x (v + q - 1) bytes"),
              std::string::npos);
    EXPECT_NE(shape_error({8, 2, 192, 0, 1}).find("needs 110592"), std::string::npos);
    EXPECT_EQ(shape_error({4, 2, 256, 0, 1}), "");
    // q warps share an i-set and split the j-groups: 1, 2 or 4, dividing the block's warps.
    EXPECT_EQ(shape_error({8, 2, 128, 2, 1}), "");
    EXPECT_EQ(shape_error({4, 4, 256, 4, 1}), "");
    EXPECT_EQ(shape_error({4, 2, 64, 4, 1}),
              "q: variant pairs splits the j range over q warps of a block: q must be 0, 1, 2 or 4 and divide the "
              "block's 2 warps (got 4)");
    EXPECT_NE(shape_error({4, 2, 256, 8, 1}).find("q must be 0, 1, 2 or 4"), std::string::npos);
    EXPECT_NE(shape_error({4, 2, 96, 2, 1}).find("divide the block's 3 warps"), std::string::npos);
    EXPECT_EQ(shape_error({8, 2, 128, 1, 3}), "s: variant pairs has no j-split over blocks: s must be 0 or 1 (got 3)");
    EXPECT_EQ(shape_error({8, 2, 128, 1, 0}), "");
}

TEST(PairsConfig, OnlyFp32IsAccepted) {
    SimParams p;
    p.kernel_auto = false;
    p.variant = PV;
    p.shape = variant_info(PV).default_shape;
    EXPECT_NO_THROW(validate(p));
    p.precision = Precision::DS;
    try {
        validate(p);
        ADD_FAILURE() << "pairs accepted ds";
    } catch (const ParamError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "precision: the pairs kernel runs in fp32 only (got ds); choose fp32, or another variant for ds and fp64");
    }
}

// Strips of block x k bodies; the grid is the upper triangle of strips x strips tiles, diagonal included.
TEST(PairsConfig, LaunchPlanIsTheUpperTriangle) {
    const KernelShape d{8, 2, 128, 0, 1};  // strips of 1,024
    for (std::size_t n : {std::size_t{1}, std::size_t{1024}, std::size_t{1025}, std::size_t{7500}, std::size_t{131072}}) {
        const LaunchPlan p = plan_launch(PV, d, n, 132);
        const long long t = (static_cast<long long>(n) + 1023) / 1024;
        EXPECT_EQ(pairs_strips(n, d), t) << n;
        EXPECT_EQ(p.tile, 1024) << n;
        EXPECT_EQ(p.blocks, t * (t + 1) / 2) << n;
        EXPECT_EQ(p.splits, 1);
        EXPECT_EQ(p.k, 8);
        EXPECT_EQ(p.u, 2);
        EXPECT_EQ(p.band, t) << n;  // up to 131,072 one band holds every diagonal: one launch
        EXPECT_EQ(pairs_scratch_bytes(n, d), (std::min(2 * t, t + 1) + 2) * t * 1024 * 16) << n;
        EXPECT_EQ(p.partial_bytes, pairs_scratch_bytes(n, d)) << n;  // what the engine allocates
        EXPECT_EQ(p.shared_bytes, pairs_shared_bytes(d));
        EXPECT_EQ(p.chunk, t) << n;  // the strips, as the kernels read them
        EXPECT_FALSE(p.alt);         // q 1: the main instance
    }
    EXPECT_EQ(plan_launch(PV, d, 0, 132).blocks, 0);
    // q = 2: strips of block / 2 x k; shared memory for 2 i-sets' j-sums and one set of i-sums: 12 x 256 x 3 bytes.
    const KernelShape split{4, 2, 128, 2, 1};
    EXPECT_EQ(pairs_strip(split), 256);
    EXPECT_EQ(plan_launch(PV, split, 7500, 132).tile, 256);
    EXPECT_EQ(plan_launch(PV, split, 7500, 132).q, 2);
    EXPECT_TRUE(plan_launch(PV, split, 7500, 132).alt);  // q > 1: the split instance
    EXPECT_EQ(plan_launch(PV, split, 7500, 132).blocks, 30 * 31 / 2);
    EXPECT_EQ(pairs_shared_bytes(split), 12 * 256 * 3);
    EXPECT_EQ(pairs_shared_bytes(d), 12 * 1024 * 4);  // q 1: 4 sets, no extra i-sums
    // 131,072 bodies: 128 strips in one band, 129 slots and the two running sums (group, total), 2 MB each (one slot
    // a strip before: 128); 1,048,576: 1,024 strips in bands of 8 diagonals (128 launches) over two buffers of 16
    // slots, + 2 of 16 MB: 570 MB, O(N) (it was one slot a strip, 17 GB); 4,194,304: bands of 4 in one buffer (two
    // would hold 2 diagonals each, under kPairsOverlapMinBand), 8 + 2 of 64 MB. Under 1 GiB at both, so a 24 GB GPU's
    // quarter allows them.
    EXPECT_EQ(pairs_scratch_bytes(131072, d), 131LL * 131072 * 16);
    EXPECT_EQ(pairs_bands(128, 1024).band, 128);
    EXPECT_EQ(pairs_bands(128, 1024).buffers, 1);
    EXPECT_EQ(pairs_band(1048576, d), 8);
    EXPECT_EQ(pairs_bands(1024, 1024).buffers, 2);
    EXPECT_EQ(pairs_scratch_bytes(1048576, d), 34LL * 1048576 * 16);
    EXPECT_EQ(pairs_band(4194304, d), 4);
    EXPECT_EQ(pairs_bands(4096, 1024).buffers, 1);
    EXPECT_EQ(pairs_scratch_bytes(4194304, d), 10LL * 4194304 * 16);
    EXPECT_LE(pairs_scratch_bytes(4194304, d), 1LL << 30);
    EXPECT_LE(pairs_scratch_bytes(1048576, d), 24LL * 1000 * 1000 * 1000 / kPairsScratchShare);
    // Just past one buffer (T = 129 strips of 1,024 hold 127 diagonals in 512 MiB): two buffers of 63, in the same
    // bytes or fewer.
    EXPECT_EQ(pairs_band(129 * 1024, d), 63);
    EXPECT_EQ(pairs_bands(129, 1024).buffers, 2);
    EXPECT_LE(pairs_scratch_bytes(129 * 1024, d), kPairsBandBytes + 2 * 129 * 1024 * 16);
    // Every strip count from 1 to 5,000 (strips of 256 and 1,024): a band of 1 to T diagonals, two buffers only where
    // each holds kPairsOverlapMinBand or more, and never more slot bytes than one buffer of kPairsBandBytes allows
    // (or one band of one diagonal).
    for (long long strip : {256LL, 1024LL})
        for (long long t = 1; t <= 5000; ++t) {
            const PairsBands b = pairs_bands(t, strip);
            ASSERT_GE(b.band, 1) << t;
            ASSERT_LE(b.band, t) << t;
            ASSERT_TRUE(b.buffers == 1 || (b.buffers == 2 && b.band >= kPairsOverlapMinBand && b.band < t)) << t;
            ASSERT_LE(b.buffers * pairs_band_slots(b.band, t) * t * strip * 16, std::max(kPairsBandBytes, 2 * t * strip * 16))
                << t;
        }
    // Past what one band of one diagonal holds (2^24 bodies) a launch still takes one diagonal.
    EXPECT_EQ(pairs_band(std::size_t(1) << 25, d), 1);
    EXPECT_EQ(pairs_band_slots(1, 1), 2);  // one strip: the diagonal tile's row sums, and a slot to spare
    EXPECT_EQ(pairs_band_slots(128, 128), 129);
    EXPECT_EQ(pairs_band_slots(16, 1024), 32);
    // The padding every position buffer carries covers any strip's tail.
    EXPECT_GE(kPairsMaxStrip, 256 * 4);
    EXPECT_GE(kPairsMaxStrip, 160 * 8);
}

// The diagonal groups several parts deal out: one up to T = 31, then one more every 16 diagonals up to 12; from
// diagonal 0 to T, none empty, tile counts within one diagonal's tiles of an equal share (so parts are balanced by
// tiles, not by rows); any part count takes whole groups, all of them once.
TEST(PairsConfig, GroupsSplitTheTrianglesTilesEvenly) {
    EXPECT_EQ(pairs_groups(1), 1);
    EXPECT_EQ(pairs_groups(31), 1);
    EXPECT_EQ(pairs_groups(32), 2);
    EXPECT_EQ(pairs_groups(79), 4);
    EXPECT_EQ(pairs_groups(191), 11);
    EXPECT_EQ(pairs_groups(192), kPairsMaxGroups);
    EXPECT_EQ(pairs_groups(16384), kPairsMaxGroups);
    for (long long t : {1LL, 2LL, 3LL, 31LL, 32LL, 47LL, 79LL, 128LL, 391LL, 1024LL, 16384LL}) {
        const std::vector<long long> e = pairs_group_ends(t);
        const int groups = pairs_groups(t);
        ASSERT_EQ(e.size(), static_cast<std::size_t>(groups + 1));
        EXPECT_EQ(e.front(), 0);
        EXPECT_EQ(e.back(), t);
        const long long total = t * (t + 1) / 2;
        long long seen = 0;
        for (int g = 0; g < groups; ++g) {
            ASSERT_LT(e[g], e[g + 1]) << t;
            long long tiles = 0;
            for (long long d = e[g]; d < e[g + 1]; ++d) tiles += t - d;
            seen += tiles;
            EXPECT_NEAR(static_cast<double>(tiles), static_cast<double>(total) / groups, static_cast<double>(t))
                << t << " " << g;
        }
        EXPECT_EQ(seen, total);
    }
    for (int groups : {1, 4, 12})
        for (int parts : {1, 2, 3, 4, 5, 6, 8, 12, 16}) {
            int covered = 0, most = 0;
            for (int k = 0; k < parts; ++k) {
                int first = 0, last = 0;
                pairs_part_groups(k, parts, groups, first, last);
                EXPECT_EQ(first, covered);
                EXPECT_LE(first, last);
                most = std::max(most, last - first);
                covered = last;
            }
            EXPECT_EQ(covered, groups);
            EXPECT_LE(most, (groups + parts - 1) / parts) << groups << " over " << parts;
        }
}

// On several parts every part plans the whole triangle of all N (its groups of it), whatever its own share.
TEST(PairsConfig, APartPlansTheTriangleOfAllBodies) {
    const KernelShape d{8, 2, 128, 1, 1};
    const LaunchPlan half = plan_launch(KernelVariant::Pairs, d, 50000, 132, 256, 100003);
    const LaunchPlan whole = plan_launch(KernelVariant::Pairs, d, 100003, 132);
    EXPECT_EQ(half.chunk, whole.chunk);
    EXPECT_EQ(half.band, whole.band);
    EXPECT_EQ(half.partial_bytes, whole.partial_bytes);
}
