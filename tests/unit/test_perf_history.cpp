#include <gtest/gtest.h>

#include "core/perf_history.hpp"

using namespace nbody;

TEST(PerfHistory, WindowsBecomeSamples) {
    PerfHistory h(0.5, 30.0);
    // 60 frames per second, 2 steps of N = 1000 per frame, each step 1 ms.
    for (int f = 0; f <= 60; ++f) h.record_frame(f / 60.0, 1000, 2, 0.002);
    ASSERT_EQ(h.samples().size(), 2u);
    const PerfSample s = h.latest();
    EXPECT_NEAR(s.rate.steps_per_s, 1000.0, 1e-6);  // over the time spent stepping
    EXPECT_NEAR(s.rate.interactions_per_s, 1e9, 1e-3);
    EXPECT_NEAR(s.frames_per_s, 60.0, 1e-6);
}

TEST(PerfHistory, KeepsAboutThirtySecondsAndItsMarkers) {
    PerfHistory h(0.5, 30.0);
    h.mark(1.0, "old variant");
    for (int f = 0; f < 60 * 60; ++f) h.record_frame(f / 60.0, 100, 1, 0.001);  // 60 s
    h.mark(59.0, "ij k 4 u 4");
    EXPECT_LE(h.samples().size(), 61u);
    EXPECT_GE(h.samples().front().wall, 60.0 - 30.0 - 1.0);
    ASSERT_EQ(h.markers().size(), 1u);  // the marker at 1 s aged out
    EXPECT_EQ(h.markers().front().label, "ij k 4 u 4");
}

TEST(PerfHistory, ANewParticleCountStartsANewWindow) {
    PerfHistory h(0.5, 30.0);
    h.record_frame(0.0, 1000, 1, 0.001);
    h.record_frame(0.4, 1000, 1, 0.001);
    h.record_frame(0.6, 8000, 1, 0.1);  // N changed: does not close a window mixing both
    EXPECT_TRUE(h.samples().empty());
}
