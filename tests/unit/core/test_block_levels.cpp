// The level histogram of a block-step run from each body's step (core/backend/block_levels.hpp): each power-of-two
// step on its level, the counts adding up to the bodies whatever the steps, odd ones included.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>
#include <vector>

#include "core/backend/block_levels.hpp"

using namespace nbody;

namespace {
BlockLevels of(const std::vector<double>& dt, double dt_max, std::size_t last_active = 0) {
    return block_levels_of(dt.size(), dt_max, last_active, [&](std::size_t i) { return dt[i]; });
}
std::size_t total(const BlockLevels& l) {
    return std::accumulate(l.count.begin(), l.count.end(), std::size_t{0});
}
}  // namespace

TEST(BlockLevelsOf, EachPowerOfTwoStepOnItsLevel) {
    const double dt_max = 1.0 / 64;
    const BlockLevels l = of({dt_max, dt_max / 2, dt_max / 16, dt_max / 2, dt_max, dt_max}, dt_max, 5);
    EXPECT_EQ(l.dt_max, dt_max);
    EXPECT_EQ(l.last_active, 5u);
    EXPECT_EQ(l.count, (std::vector<std::size_t>{3, 2, 0, 0, 1}));  // the empty levels between stay, as 0
    EXPECT_EQ(total(l), 6u);
}

// dt_max not a power of two (the CUDA Hermite engine's largest step is dt itself): the ratios still are.
TEST(BlockLevelsOf, ALargestStepThatIsNoPowerOfTwo) {
    const double dt_max = 0.01;
    const BlockLevels l = of({0.01, 0.01 / 8, 0.01 / 1024}, dt_max);
    ASSERT_EQ(l.count.size(), 11u);
    EXPECT_EQ(l.count[0], 1u);
    EXPECT_EQ(l.count[3], 1u);
    EXPECT_EQ(l.count[10], 1u);
}

// A step that is not on the time line is counted, never dropped: 0, infinite, NaN and above dt_max on level
// 0; between two levels on the nearer in log2; below 2^-63 dt_max on the last level (63).
TEST(BlockLevelsOf, OddStepsAreCountedOnTheNearestLevel) {
    const double dt_max = 1.0 / 128, inf = std::numeric_limits<double>::infinity();
    const BlockLevels odd = of({0.0, -dt_max, inf, std::nan(""), 4 * dt_max}, dt_max);
    EXPECT_EQ(odd.count, (std::vector<std::size_t>{5}));
    const BlockLevels between =
        of({0.75 * dt_max, 0.6 * dt_max, 0.3 * dt_max}, dt_max);  // log2: 0.42, 0.74, 1.74
    EXPECT_EQ(between.count, (std::vector<std::size_t>{1, 1, 1}));
    const BlockLevels tiny = of({std::ldexp(dt_max, -80), std::ldexp(dt_max, -63)}, dt_max);
    ASSERT_EQ(tiny.count.size(), 64u);
    EXPECT_EQ(tiny.count[63], 2u);
    EXPECT_EQ(total(tiny), 2u);
}

TEST(BlockLevelsOf, NoBodiesNoLevels) {
    const BlockLevels l = of({}, 0.5, 0);
    EXPECT_TRUE(l.count.empty());
    EXPECT_EQ(l.dt_max, 0.5);
    EXPECT_EQ(l.last_active, 0u);
}
