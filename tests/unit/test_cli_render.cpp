// The window and off-screen rendering flags.
#include <gtest/gtest.h>

#include <vector>

#include "app/options.hpp"
#include "cli_parse.hpp"

using namespace nbody;

using nbody::test::parse;

TEST(RenderFlags, HeadlessWithFramesOrScreenshotRendersOffscreen) {
    auto r = parse({"--headless", "--frames", "3", "--screenshot", "out.png", "--width", "320", "--height", "200",
                    "--color", "speed", "--no-interop"});
    ASSERT_TRUE(std::holds_alternative<AppOptions>(r));
    const AppOptions& o = std::get<AppOptions>(r);
    EXPECT_TRUE(o.renders_offscreen());
    EXPECT_EQ(*o.frames, 3);
    EXPECT_EQ(o.width, 320);
    EXPECT_EQ(o.color, "speed");
    EXPECT_FALSE(o.interop);
}

TEST(RenderFlags, PlainHeadlessOnlySimulates) {
    auto r = parse({"--headless", "--steps", "10"});
    ASSERT_TRUE(std::holds_alternative<AppOptions>(r));
    EXPECT_FALSE(std::get<AppOptions>(r).renders_offscreen());
}

TEST(RenderFlags, BadValuesAreRefused) {
    EXPECT_NE(std::get<int>(parse({"--frames", "0"})), 0);
    EXPECT_NE(std::get<int>(parse({"--color", "rainbow"})), 0);
    EXPECT_NE(std::get<int>(parse({"--width", "5"})), 0);
}

TEST(RenderFlags, StepsPerFrameReachesSimParams) {
    auto r = parse({"--steps-per-frame", "25", "--bodies", "64"});
    ASSERT_TRUE(std::holds_alternative<AppOptions>(r));
    EXPECT_EQ(prepare_run(std::get<AppOptions>(r)).params.steps_per_frame, 25);
}
