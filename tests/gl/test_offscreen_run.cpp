// The whole off-screen program path (scene file -> simulation -> renderer -> PNG), as --headless
// --frames K --screenshot runs it.
#include <filesystem>

#include "app/sandbox.hpp"
#include "app/viewer.hpp"
#include "gl_test_util.hpp"
#include "render/image_capture.hpp"

using namespace nbody;
using namespace nbody::test;

TEST(Offscreen, FramesThenScreenshotWritesThePng) {
    {
        NBODY_HEADLESS_OR_SKIP(probe, 16, 16);  // skip where EGL cannot give a context at all
    }
    AppOptions o;
    o.headless = true;
    o.scene_path = NBODY_TEST_DATA "/two_clusters.toml";
    o.bodies = 400;
    o.backend = "cpu";
    o.threads = 1;
    o.frames = 3;
    o.width = 96;
    o.height = 64;
    o.quiet = true;
    o.screenshot_path = (std::filesystem::temp_directory_path() / "nbody-offscreen.png").string();
    ASSERT_TRUE(o.renders_offscreen());
    EXPECT_EQ(run_offscreen(o), 0);
    const auto [w, h] = png_size(o.screenshot_path);
    EXPECT_EQ(w, 96);
    EXPECT_EQ(h, 64);
    std::filesystem::remove(o.screenshot_path);
}

TEST(Offscreen, ViewerLoadFailureKeepsTheCurrentScene) {
    NBODY_HEADLESS_OR_SKIP(ctx, 64, 48);
    AppOptions o;
    o.scene_path = NBODY_TEST_DATA "/two_clusters.toml";
    o.bodies = 200;
    o.backend = "cpu";
    o.threads = 1;
    Viewer v(o, *ctx);
    v.simulate_and_draw(0.0, 1.0);
    const std::string err = v.load_scene(NBODY_TEST_DATA "/bad/negative_eps.toml", 1.0);
    EXPECT_FALSE(err.empty());
    EXPECT_NE(err.find("negative_eps.toml"), std::string::npos) << err;
    EXPECT_EQ(v.sim().backend().size(), 200u);
    v.simulate_and_draw(0.1, 1.0);  // still runs
    EXPECT_EQ(v.sim().backend().steps_taken(), 2);
}

TEST(Offscreen, RecordingWithoutFfmpegSaysSo) {
    if (program_on_path("ffmpeg")) GTEST_SKIP() << "ffmpeg is installed here";
    try {
        VideoRecorder rec("/tmp/nbody-test.mp4", 64, 48);
        FAIL() << "no error without ffmpeg";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("ffmpeg"), std::string::npos);
    }
}
