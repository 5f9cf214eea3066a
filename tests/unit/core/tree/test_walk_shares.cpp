// The shares of the walk on several GPUs (core/tree/walk_shares.hpp): even bounds cover the bodies exactly,
// rebalancing moves the bounds toward equal times and stays ordered whatever the inputs, and the exchange's
// bytes are 16 a body to each other part.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "core/tree/walk_shares.hpp"

using namespace nbody::tree;

namespace {

void expect_ordered(const WalkShares& s, std::size_t n) {
    ASSERT_FALSE(s.bounds.empty());
    EXPECT_EQ(s.bounds.front(), 0u);
    EXPECT_EQ(s.bounds.back(), n);
    for (std::size_t k = 1; k < s.bounds.size(); ++k) EXPECT_LE(s.bounds[k - 1], s.bounds[k]);
}

}  // namespace

TEST(WalkShares, EvenSharesCoverEveryBodyOnce) {
    for (std::size_t n : {0ul, 1ul, 7ul, 10485760ul, 10485761ul})
        for (std::size_t parts : {1ul, 2ul, 3ul, 8ul}) {
            const WalkShares s = WalkShares::even(n, parts);
            ASSERT_EQ(s.parts(), parts);
            expect_ordered(s, n);
            for (std::size_t k = 0; k < parts; ++k) {
                const std::size_t size = s.bounds[k + 1] - s.bounds[k];
                EXPECT_LE(size, n / parts + 1) << n << " bodies, part " << k << " of " << parts;
                EXPECT_GE(size, n / parts) << n << " bodies, part " << k << " of " << parts;
            }
        }
    EXPECT_EQ(WalkShares::even(5, 0).parts(), 1u);  // no parts is one part
}

TEST(WalkShares, ASlowPartGivesUpBodies) {
    WalkShares s = WalkShares::even(1000, 2);
    // Part 0 took 3 s over its 500 bodies, part 1 1 s over its 500: half of the 4 s is 2/3 of part 0's run,
    // so equal times put the bound at 333; half the way there from 500 is 417.
    s.rebalance({0, 500, 1000}, {3.0, 1.0}, 0.5);
    EXPECT_EQ(s.bounds[1], 417u);
    s = WalkShares::even(1000, 2);
    s.rebalance({0, 500, 1000}, {3.0, 1.0}, 1.0);
    EXPECT_EQ(s.bounds[1], 333u);
}

TEST(WalkShares, RepeatedRebalancingConvergesOnACostProfile) {
    // Bodies whose walk costs rise along the key order (a dense centre at the end): cost(i) = 1 + i / 100.
    const std::size_t n = 10000, parts = 4;
    auto cost = [](std::size_t i) { return 1.0 + double(i) / 100.0; };
    WalkShares s = WalkShares::even(n, parts);
    std::vector<double> seconds(parts);
    for (int round = 0; round < 30; ++round) {
        for (std::size_t k = 0; k < parts; ++k) {
            seconds[k] = 0;
            for (std::size_t i = s.bounds[k]; i < s.bounds[k + 1]; ++i) seconds[k] += cost(i);
        }
        s.rebalance(s.bounds, seconds, 0.5);
        expect_ordered(s, n);
    }
    double lo = std::numeric_limits<double>::max(), hi = 0;
    for (double t : seconds) lo = std::min(lo, t), hi = std::max(hi, t);
    EXPECT_LT(hi / lo, 1.02);
}

TEST(WalkShares, BadTimesOrRunsLeaveTheBoundsAlone) {
    const WalkShares even = WalkShares::even(100, 2);
    for (const std::vector<double>& t : std::vector<std::vector<double>>{
             {0.0, 1.0}, {-1.0, 1.0}, {std::nan(""), 1.0}, {1.0, std::numeric_limits<double>::infinity()}, {1.0}}) {
        WalkShares s = even;
        s.rebalance({0, 50, 100}, t);
        EXPECT_EQ(s.bounds, even.bounds);
    }
    WalkShares s = even;
    s.rebalance({0, 100, 100}, {1.0, 1.0});  // an empty run: no cost per body to read
    EXPECT_EQ(s.bounds, even.bounds);
    s.rebalance({0, 50}, {1.0, 1.0});  // runs for another part count
    EXPECT_EQ(s.bounds, even.bounds);
}

TEST(WalkShares, RandomTimesKeepTheBoundsOrderedAndInside) {
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> t(1e-6, 10.0);
    for (int trial = 0; trial < 2000; ++trial) {
        const std::size_t parts = 2 + trial % 7, n = std::size_t(rng() % 100000);
        WalkShares s = WalkShares::even(n, parts);
        std::vector<std::size_t> runs = s.bounds;
        std::vector<double> seconds(parts);
        for (double& x : seconds) x = t(rng);
        s.rebalance(runs, seconds, std::uniform_real_distribution<double>(-1.0, 2.0)(rng));
        expect_ordered(s, n);
    }
}

TEST(WalkShares, ExchangeBytesAreSixteenABodyToEachOtherPart) {
    EXPECT_EQ(exchange_bytes(10485760, 1), 0.0);
    EXPECT_EQ(exchange_bytes(10485760, 2), 16.0 * 10485760);
    EXPECT_EQ(exchange_bytes(1000, 4), 48000.0);
}
