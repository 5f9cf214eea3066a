// The trail ring's slot arithmetic (render/trail_ring.hpp): the head wraps, ages map back to slots without
// re-ordering, the stride spaces the samples, and a reset or clear empties it.
#include <gtest/gtest.h>

#include "render/trail_ring.hpp"
#include "render/trails.hpp"

using namespace nbody;

TEST(TrailRing, HeadWrapsAndAgesMapToSlots) {
    TrailRing r;
    r.reset(4);
    EXPECT_EQ(r.head(), -1);
    EXPECT_EQ(r.slot_of_age(0), -1);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(r.push(), i);
    EXPECT_EQ(r.count(), 3);
    EXPECT_EQ(r.slot_of_age(0), 2);
    EXPECT_EQ(r.slot_of_age(2), 0);
    EXPECT_EQ(r.slot_of_age(3), -1);  // not written yet
    EXPECT_EQ(r.push(), 3);
    EXPECT_EQ(r.push(), 0);  // full: the oldest slot is overwritten
    EXPECT_EQ(r.count(), 4);
    EXPECT_EQ(r.head(), 0);
    EXPECT_EQ(r.slot_of_age(0), 0);
    EXPECT_EQ(r.slot_of_age(1), 3);
    EXPECT_EQ(r.slot_of_age(3), 1);
    EXPECT_EQ(r.slot_of_age(-1), -1);
}

TEST(TrailRing, StrideSpacesTheSamplesAndClearStartsOver) {
    TrailRing r;
    r.reset(8);
    int samples = 0;
    for (int i = 0; i < 9; ++i)
        if (r.due(3)) r.push(), ++samples;
    EXPECT_EQ(samples, 3);  // updates 0, 3, 6
    r.clear();
    EXPECT_EQ(r.count(), 0);
    EXPECT_TRUE(r.due(3));  // the first update after a clear samples at once
    TrailRing none;
    none.reset(0);
    EXPECT_FALSE(none.due(1));
    EXPECT_EQ(none.push(), -1);
}

TEST(TrailRing, LengthIsCappedByTheMemoryBudget) {
    EXPECT_EQ(trail_length_for(18000, 128), 128);               // the Cartwheel: 18,000 x 128 x 16 B = 35 MiB
    EXPECT_EQ(trail_length_for(std::size_t(1) << 24, 512), 4);  // 2^24 bodies: 1 GiB / 256 MiB per sample
    EXPECT_EQ(trail_length_for(std::size_t(1) << 30, 128), 2);  // never fewer than a segment
    EXPECT_EQ(trail_length_for(10, 1), 2);
}
