// The window's scene changes (app/scene_switch.hpp) on a headless context: a scene too heavy for smooth
// steps here loads reduced with a note, "Load full N" then loads every body of the same file (the request
// outlives the plan it came from: run under AddressSanitizer by scripts/test.sh), and the command line's
// scene is reduced the same way with a measured estimate.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "app/scene_switch.hpp"
#include "gl_test_util.hpp"
#include "scene/scene_file.hpp"
#include "ui/load_budget.hpp"

using namespace nbody;

namespace {

const std::string kScene = NBODY_TEST_DATA "/two_clusters.toml";  // 6,000 bodies

AppOptions small_cpu_run() {
    AppOptions o;
    o.scene_path = kScene;
    o.bodies = 200;
    o.backend = "cpu";
    o.threads = 1;
    return o;
}

// Polls as the window does each frame, until the load under way finishes (or 60 s pass).
bool wait_for_load(SceneSwitch& s, Viewer& v) {
    for (int i = 0; i < 60000; ++i) {
        if (s.poll()) return true;
        if (!v.loading()) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return false;
}

}  // namespace

TEST(SceneSwitch, LoadFullLoadsEveryBodyOfTheSceneThatLoadedReduced) {
    NBODY_HEADLESS_OR_SKIP(ctx, 64, 48);
    Viewer v(small_cpu_run(), *ctx);
    SceneSwitch s(v);
    // Four times the file's bodies: 24,000, far more than one CPU thread steps in 20 ms (576 M pairs).
    EXPECT_EQ(s.load({kScene, 4.0}), "");
    ASSERT_TRUE(wait_for_load(s, v)) << s.status();
    EXPECT_EQ(s.status(), "");
    EXPECT_LT(v.sim().backend().size(), 12000u);
    EXPECT_GE(double(v.sim().backend().size()), LoadBudget::kFloor - 2);
    EXPECT_EQ(s.plan().full_bodies(), 24000u);
    EXPECT_NE(s.plan().note().find("of 24,000 bodies"), std::string::npos) << s.plan().note();

    EXPECT_EQ(s.load_full(), "");
    ASSERT_TRUE(wait_for_load(s, v)) << s.status();
    EXPECT_EQ(s.status(), "") << "the full load failed: its path was lost";
    EXPECT_EQ(v.sim().backend().size(), 24000u);
    EXPECT_EQ(v.scene().name, "Two clusters (test)");
    EXPECT_EQ(s.plan().full_bodies(), 0u);
    EXPECT_EQ(s.plan().note(), "");
}

// "Open a scene file" takes a shipped scene's name too, as the command line does.
TEST(SceneSwitch, ASceneNameOpensTheShippedScene) {
    NBODY_HEADLESS_OR_SKIP(ctx, 64, 48);
    Viewer v(small_cpu_run(), *ctx);
    SceneSwitch s(v);
    EXPECT_EQ(s.load({"two-body", 1.0}), "");
    ASSERT_TRUE(wait_for_load(s, v)) << s.status();
    EXPECT_EQ(s.status(), "");
    EXPECT_EQ(v.sim().backend().size(), 2u);
}

TEST(SceneSwitch, AHeavySceneFromTheCommandLineStartsReducedAndMeasuresItsEstimate) {
    NBODY_HEADLESS_OR_SKIP(ctx, 64, 48);
    AppOptions o = small_cpu_run();
    o.bodies = 40000;  // asked for on the command line; far more than steps smoothly on one CPU thread
    LoadPlan plan;
    const auto t0 = std::chrono::steady_clock::now();
    Viewer v(window_start_options(o, plan), *ctx);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
    ASSERT_TRUE(plan.full());
    EXPECT_EQ(plan.full()->path, kScene);
    EXPECT_EQ(plan.full_bodies(), 40000u);
    EXPECT_LT(v.sim().backend().size(), 20000u);
    SceneSwitch s(v);
    s.plan() = plan;
    EXPECT_NE(s.plan().note().find("measuring"), std::string::npos) << s.plan().note();
    v.sim().set_auto_steps(false);
    for (int frame = 0; frame < 400 && !s.plan().measured(); ++frame) {
        v.simulate_and_draw(0.1 * frame, 1.0);
        s.measure();
    }
    ASSERT_TRUE(s.plan().measured());
    EXPECT_NE(s.plan().note().find("would take about"), std::string::npos) << s.plan().note();
    // Direct summation: the estimate is the measured step scaled by (40,000 / n)^2.
    EXPECT_GT(s.plan().estimate_seconds(), 0.01);
}

// The estimate's measurement reads the reduced scene's state between frames: it must not do so while a step
// runs beside the frames (collecting it there left the window waiting on its own steps, frame after frame,
// and the panels read steps of 80 microseconds: "12.5 ksteps/s").
TEST(SceneSwitch, MeasuringTheEstimateLeavesTheStepsBesideTheFrames) {
    NBODY_HEADLESS_OR_SKIP(ctx, 64, 48);
    AppOptions o = small_cpu_run();
    o.bodies = 40000;
    LoadPlan plan;
    Viewer v(window_start_options(o, plan), *ctx);
    ASSERT_TRUE(plan.full());
    SceneSwitch s(v);
    s.plan() = plan;
    v.sim().set_background_steps(true);
    double wall = 0;
    for (int frame = 0; frame < 200 && v.sim().perf().samples().size() < 8; ++frame) {
        v.simulate_and_draw(wall += 0.05,
                            0.0005);  // a budget no step meets: every step runs beside the frames
        s.measure();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    ASSERT_TRUE(s.plan().measured());
    const double n = double(v.sim().facts().size);
    for (const PerfSample& p : v.sim().perf().samples())  // one thread does at most a few G pairs/s
        EXPECT_LT(p.rate.steps_per_s, 2e10 / (n * n)) << "a step of " << n << " bodies timed too short";
}

// The Scene panel's Load after a scene with other physics: Milky Way–Andromeda runs the tree with block steps;
// the figure-eight that follows it runs what its own file says (direct summation, leap-frog, its dt).
TEST(SceneSwitch, ASceneLoadedFromThePanelRunsItsOwnPhysics) {
    NBODY_HEADLESS_OR_SKIP(ctx, 64, 48);
    Viewer v(small_cpu_run(), *ctx);
    SceneSwitch s(v);
    const std::string dir = NBODY_SOURCE_DIR "/scenes/";
    EXPECT_EQ(s.load({dir + "milky-way-andromeda.toml", 0.0005}), "");
    ASSERT_TRUE(wait_for_load(s, v)) << s.status();
    const SimParams mwa = load_scene_file(dir + "milky-way-andromeda.toml").apply_to({});
    ASSERT_NE(mwa.method, ForceMethod::Direct);  // the test needs a scene with other physics first
    EXPECT_EQ(v.sim().params().method, mwa.method);
    EXPECT_EQ(v.sim().params().integrator, mwa.integrator);

    EXPECT_EQ(s.load({dir + "three-body-figure8.toml", 1.0}), "");
    ASSERT_TRUE(wait_for_load(s, v)) << s.status();
    const SimParams want = load_scene_file(dir + "three-body-figure8.toml").apply_to({});
    const SimParams& got = v.sim().params();
    EXPECT_EQ(got.method, want.method);
    EXPECT_EQ(got.integrator, want.integrator);
    EXPECT_EQ(got.eta, want.eta);
    EXPECT_EQ(got.dt, want.dt);
    EXPECT_EQ(got.backend, BackendKind::Cpu);  // the user's machine choice stays
}

// Esc cancels "Load full N" while it generates: the reduced scene runs on, and its note and its "Load full N"
// stay (the plan was the running scene's, not the cancelled load's).
TEST(SceneSwitch, ACancelledLoadKeepsTheRunningScenesLoadFullN) {
    NBODY_HEADLESS_OR_SKIP(ctx, 64, 48);
    Viewer v(small_cpu_run(), *ctx);
    SceneSwitch s(v);
    EXPECT_EQ(s.load({kScene, 40.0}), "");  // 240,000 bodies: loads reduced
    ASSERT_TRUE(wait_for_load(s, v)) << s.status();
    ASSERT_EQ(s.plan().full_bodies(), 240000u);
    const std::size_t running = v.sim().backend().size();
    const std::string note = s.plan().note();
    EXPECT_EQ(s.load_full(), "");
    v.cancel_load();
    EXPECT_FALSE(wait_for_load(s, v));
    EXPECT_NE(s.status(), "");  // the cancel's words
    EXPECT_EQ(v.sim().backend().size(), running);
    EXPECT_EQ(s.plan().full_bodies(), 240000u) << "Load full N is gone after the cancel";
    EXPECT_EQ(s.plan().note(), note);
}
