#include <gtest/gtest.h>

#include "core/counters.hpp"

using namespace nbody;

TEST(Counters, InteractionsAndFlopsFromTimedSteps) {
    // 10 steps of N = 1000 in 0.5 s: 1e7 interactions in 0.5 s = 2e7 /s.
    const Throughput t = throughput(1000, 10, 0.5);
    EXPECT_DOUBLE_EQ(t.steps_per_s, 20.0);
    EXPECT_DOUBLE_EQ(t.interactions_per_s, 2e7);
    EXPECT_DOUBLE_EQ(t.gflops20, 2e7 * 20 * 1e-9);
    EXPECT_DOUBLE_EQ(t.gflops38, 2e7 * 38 * 1e-9);
}

TEST(Counters, NoTimeGivesZeroNotInfinity) {
    const Throughput t = throughput(1000, 10, 0.0);
    EXPECT_EQ(t.interactions_per_s, 0.0);
    EXPECT_EQ(throughput(1000, 0, 1.0).steps_per_s, 0.0);
}

TEST(Counters, LargeNDoesNotOverflow) {
    // N = 2^26: N^2 = 4.5e15 interactions per step, beyond 32-bit and fine in double.
    EXPECT_DOUBLE_EQ(interactions_per_step(1u << 26), 4503599627370496.0);
}
