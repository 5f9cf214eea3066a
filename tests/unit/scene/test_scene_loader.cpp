// Scene generation off the frame loop (scene/scene_loader.hpp): progress, cancel, and failures that hand
// back a message and no state.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "scene/scene_loader.hpp"

using namespace nbody;

namespace {
// Polls as a frame loop would, at most `seconds`.
std::optional<SceneLoader::Result> wait(SceneLoader& l, double seconds = 60) {
    const auto t0 = std::chrono::steady_clock::now();
    while (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < seconds) {
        if (auto r = l.take()) return r;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return std::nullopt;
}
}  // namespace

TEST(SceneLoader, BuildsOnAWorkerThread) {
    SceneLoader l;
    EXPECT_FALSE(l.take());
    l.start(NBODY_SOURCE_DIR "/scenes/cartwheel.toml", 0.05);
    auto r = wait(l);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->error, "");
    EXPECT_EQ(r->state.size(), r->scene.total_bodies());
    EXPECT_GT(r->state.size(), 100u);
    EXPECT_FALSE(l.busy());
    EXPECT_FALSE(l.take());  // handed over once
}

TEST(SceneLoader, FailuresComeBackAsMessages) {
    SceneLoader l;
    l.start(NBODY_SOURCE_DIR "/fuzz/regressions/fuzz_scene/issue11-flyby-halo-scale-1e-320.toml", 1.0);
    auto r = wait(l);
    ASSERT_TRUE(r);
    EXPECT_NE(r->error.find("field 'component[1].halo.scale': must be from 1e-4 to 1e4 (got 1e-320)"),
              std::string::npos)
        << r->error;
    EXPECT_EQ(r->state.size(), 0u);
    l.start("/no/such/scene.toml", 1.0);
    r = wait(l);
    ASSERT_TRUE(r);
    EXPECT_FALSE(r->error.empty());
}

// 2M bodies would take tens of seconds; cancelled, the worker stops within the next 1024 bodies.
TEST(SceneLoader, CancelStopsALargeBuildQuickly) {
    SceneLoader l;
    l.start(NBODY_SOURCE_DIR "/scenes/cartwheel.toml", 2e6 / 18000.0);
    const auto t0 = std::chrono::steady_clock::now();
    while (l.progress() == 0 && !l.take() && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(20))
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    EXPECT_GT(l.progress(), 0.0);
    EXPECT_LT(l.progress(), 0.5);
    l.cancel();
    const auto tc = std::chrono::steady_clock::now();
    auto r = wait(l, 10);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->error, "scene generation cancelled");
    EXPECT_EQ(r->state.size(), 0u);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - tc).count(), 2.0);
}
