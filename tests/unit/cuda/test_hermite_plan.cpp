// How the Hermite force kernel spreads i-bodies and j-splits over its one-wave grid
// (cuda/hermite/hermite_plan.hpp, plain C++ that the kernels, the engine and the GRAPE-6 library share):
// every j-body in exactly one split, whole tiles, the scratch bound held, and waves filled, including the
// few-groups case whose exhaustive search of split counts once cost more than the forces.
#include <gtest/gtest.h>

#include "cuda/hermite/hermite_plan.hpp"

using namespace nbody::kernels;

namespace {

double wave_fill(const ForcePlan& p, int grid) {
    const long long items = static_cast<long long>(p.groups) * p.splits;
    return static_cast<double>(items) / static_cast<double>((items + grid - 1) / grid * grid);
}

}  // namespace

TEST(HermitePlan, SplitsCoverTheJRangeInWholeTilesWithinTheScratch) {
    for (const int n : {1, 127, 128, 1000, 100003, 131072, 1048576})
        for (const int ni : {1, 2, 33, 256, 2048, 16384, 131072}) {
            if (ni > n) continue;
            for (const int grid : {132, 528, 660}) {
                const ForcePlan p = force_plan(ni, n, 128, grid, 4);
                SCOPED_TRACE(testing::Message() << "n " << n << " ni " << ni << " grid " << grid);
                EXPECT_EQ(p.chunk % 128, 0);
                EXPECT_GE(static_cast<long long>(p.splits) * p.chunk, n);
                EXPECT_LT(static_cast<long long>(p.splits - 1) * p.chunk, n);  // no empty split
                EXPECT_GE(static_cast<long long>(p.groups) * p.lanes, ni);
                EXPECT_LE(static_cast<long long>(p.splits) * ni, force_partial_records(n, 128, grid, 4));
                EXPECT_LE(static_cast<long long>(p.splits) * ni, force_partial_records(ni, 128, grid, 4));
            }
        }
}

// 131,072 bodies at k = 4 are 256 groups: on 660 blocks 2 splits fill 78% of a wave, 5 fill 97% of two.
TEST(HermitePlan, PicksTheSplitCountThatFillsTheWaves) {
    const ForcePlan p = force_plan(131072, 131072, 128, 660, 4);
    EXPECT_EQ(p.k, 4);
    EXPECT_EQ(p.groups, 256);
    EXPECT_EQ(p.splits, 5);
    EXPECT_GT(wave_fill(p, 660), 0.95);
}

// Few groups (a GRAPE-6 batch of 256 against 131,072, a block step of 100 active bodies): hundreds of split
// counts to choose from, of which a few are tried, and the wave is still full.
TEST(HermitePlan, FewGroupsStillFillTheWave) {
    for (const int ni : {1, 100, 256, 1000}) {
        const ForcePlan p = force_plan(ni, 131072, 128, 528, 2);
        EXPECT_GT(wave_fill(p, 528), 0.9) << ni;
        EXPECT_GE(p.groups * p.splits, 528 * 9 / 10) << ni;
    }
}
