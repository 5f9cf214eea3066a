#include <gtest/gtest.h>

#include "core/session/perf_history.hpp"

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

TEST(PerfHistory, ChangesAtOneMomentShareAMarker) {
    PerfHistory h;
    h.mark(3.0, "backend cuda");
    h.mark(3.0, "kernel ij-unrolled");
    h.mark(4.0, "integrator hermite");
    ASSERT_EQ(h.markers().size(), 2u);
    EXPECT_EQ(h.markers().front().label, "backend cuda; kernel ij-unrolled");
}

TEST(PlotScale, RoundNumbersAtOrAboveTheMaximum) {
    EXPECT_DOUBLE_EQ(round_up_nice(1.0), 1.0);
    EXPECT_DOUBLE_EQ(round_up_nice(1.23e9), 1.5e9);
    EXPECT_DOUBLE_EQ(round_up_nice(2.6e-5), 3e-5);
    EXPECT_DOUBLE_EQ(round_up_nice(8.01), 10.0);
    EXPECT_DOUBLE_EQ(round_up_nice(0), 1.0);
}

TEST(PlotScale, NowMinMaxAndAZeroBasedRange) {
    const SeriesScale s = series_scale({1.1e9, 1.3e9, 1.0e9, 1.2e9});
    EXPECT_DOUBLE_EQ(s.now, 1.2e9);
    EXPECT_DOUBLE_EQ(s.min, 1.0e9);
    EXPECT_DOUBLE_EQ(s.max, 1.3e9);
    EXPECT_DOUBLE_EQ(s.bottom, 0.0);  // a 30% dip is not blown up to the plot's full height
    EXPECT_DOUBLE_EQ(s.top, 1.5e9);
    const SeriesScale neg = series_scale({-2e-6, 1e-6});
    EXPECT_DOUBLE_EQ(neg.bottom, -2e-6);
    EXPECT_DOUBLE_EQ(neg.top, 1e-6);
    EXPECT_DOUBLE_EQ(series_scale({}).top, 1.0);
}

TEST(PlotScale, SiPrefixesWithUnits) {
    EXPECT_EQ(format_si(1.234e9, "/s"), "1.23 G/s");
    EXPECT_EQ(format_si(59.94, "Hz"), "59.9 Hz");
    EXPECT_EQ(format_si(0), "0");
    EXPECT_EQ(format_si(999.9, "flop/s"), "1 kflop/s");
    EXPECT_EQ(format_si(2.5e-5), "2.50e-05");
}
