// The window and off-screen rendering flags.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
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

TEST(RenderFlags, TrailsTakeAnOptionalLength) {
    auto plain = parse({"--headless", "--frames", "2"});
    ASSERT_TRUE(std::holds_alternative<AppOptions>(plain));
    EXPECT_FALSE(std::get<AppOptions>(plain).trails.has_value());
    auto bare = parse({"--trails", "--headless"});
    ASSERT_TRUE(std::holds_alternative<AppOptions>(bare));
    EXPECT_EQ(std::get<AppOptions>(bare).trails.value_or(-1), 128);
    auto with = parse({"--trails", "300"});
    ASSERT_TRUE(std::holds_alternative<AppOptions>(with));
    EXPECT_EQ(std::get<AppOptions>(with).trails.value_or(-1), 300);
    auto eq = parse({"--trails=64"});
    ASSERT_TRUE(std::holds_alternative<AppOptions>(eq));
    EXPECT_EQ(std::get<AppOptions>(eq).trails.value_or(-1), 64);
    auto before_scene = parse({"--trails", NBODY_SOURCE_DIR "/scenes/plummer.toml"});
    ASSERT_TRUE(std::holds_alternative<AppOptions>(before_scene));
    EXPECT_EQ(std::get<AppOptions>(before_scene).trails.value_or(-1), 128);
    EXPECT_NE(std::get<AppOptions>(before_scene).scene_path.find("plummer.toml"), std::string::npos);
    EXPECT_NE(std::get<int>(parse({"--trails", "1"})), 0);
    EXPECT_NE(std::get<int>(parse({"--trails", "5000"})), 0);
    EXPECT_NE(std::get<int>(parse({"--trails", "long"})), 0);
}

TEST(RenderFlags, PickTakesOneOrTwoDifferentBodies) {
    auto one = parse({"--pick", "3", "two-body"});
    ASSERT_TRUE(std::holds_alternative<AppOptions>(one));
    EXPECT_EQ(std::get<AppOptions>(one).pick, (std::vector<std::size_t>{3}));
    // The scene is not taken for a second body.
    EXPECT_NE(std::get<AppOptions>(one).scene_path.find("two-body"), std::string::npos);
    auto two = parse({"--pick", "0,1"});
    ASSERT_TRUE(std::holds_alternative<AppOptions>(two));
    EXPECT_EQ(std::get<AppOptions>(two).pick, (std::vector<std::size_t>{0, 1}));
    for (const char* bad : {"x", "1,1", "1,2,3", "-1", "2,", ""}) {
        SCOPED_TRACE(bad);
        std::string args[] = {"nbody-sandbox", "--pick", bad};
        char* argv[] = {args[0].data(), args[1].data(), args[2].data()};
        std::ostringstream out, err;
        const auto r = parse_command_line(3, argv, &out, &err);
        ASSERT_TRUE(std::holds_alternative<int>(r));
        EXPECT_NE(std::get<int>(r), 0);
        EXPECT_NE(err.str().find("--pick"), std::string::npos) << err.str();
    }
}
