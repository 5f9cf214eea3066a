// A backend chosen by hand that runs slower than the CPU backend would (GL compute on a software rasterizer)
// gets words in the window with the measured factor (app/slow_backend_note.hpp); the CPU backend gets none.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "app/slow_backend_note.hpp"
#include "app/viewer.hpp"
#include "gl_test_util.hpp"

using namespace nbody;

namespace {
AppOptions run_on(const std::string& backend) {
    AppOptions o;
    o.scene_path = NBODY_SOURCE_DIR "/scenes/plummer.toml";
    o.bodies = 2048;
    o.backend = backend;
    return o;
}
// Frames as the window runs them, the note updated after each.
std::string note_after_frames(Viewer& v, int frames) {
    SlowBackendNote note;
    for (int i = 0; i < frames; ++i) {
        v.simulate_and_draw(double(i) / 60, 1.0 / 60);
        note.update(v.sim());
    }
    return note.text();
}
}  // namespace

TEST(SlowBackendNote, GlComputeOnASoftwareRasterizerSaysHowMuchSlowerThanTheCpu) {
#if defined(__SANITIZE_ADDRESS__)
    // The CPU backend built unoptimised for the sanitizers is slower than llvmpipe's own compiled shaders: the
    // comparison the note makes does not hold in this build (it runs in the release build's gl label).
    GTEST_SKIP() << "the sanitizer build's CPU backend is unoptimised";
#endif
    NBODY_HEADLESS_OR_SKIP(ctx, 64, 48);
    std::string text;
    // The note compares two timings: up to five runs two seconds apart on a machine shared with other work
    // (ctest runs tests side by side), where a burst of it can hide the gap or move the stepping off the
    // frame (the note measures frames that step): three runs back to back within one second all came back
    // empty in one CI run.
    for (int attempt = 0; attempt < 5 && text.empty(); ++attempt) {
        if (attempt > 0) std::this_thread::sleep_for(std::chrono::seconds(2));
        Viewer v(run_on("gl"), *ctx);
        if (v.sim().backend_choice().caution.empty())
            GTEST_SKIP() << "GL compute runs on hardware here (" << v.sim().backend_choice().note << ")";
        text = note_after_frames(v, 20);
    }
    EXPECT_NE(text.find("a software rasterizer: its shaders run on this CPU"), std::string::npos) << text;
    EXPECT_NE(text.find("slower than the CPU backend on this scene (measured)"), std::string::npos) << text;
}

TEST(SlowBackendNote, TheCpuBackendGetsNoNote) {
    NBODY_HEADLESS_OR_SKIP(ctx, 64, 48);
    Viewer v(run_on("cpu"), *ctx);
    EXPECT_EQ(note_after_frames(v, 20), "");
}

TEST(SlowBackendNote, TheSentenceGivesTheFactor) {
    EXPECT_EQ(slow_backend_text("GL compute runs on llvmpipe", 4.13),
              "GL compute runs on llvmpipe. 4.1x slower than the CPU backend on this scene (measured): Kernel panel, cpu");
}
