// The window path (GLFW, under xvfb-run in CI): a screenshot is a PNG of the window's size; one ImGui
// frame builds with every panel open; an edit made the way the panels make it takes effect at the next step.
#include <glad/gl.h>
#include <imgui.h>
#include <imgui_internal.h>  // FindWindowByName: which panels were built

#include <filesystem>

#include "core/session/simulation.hpp"
#include "cpu/cpu_backend.hpp"
#include "gl_backend/gl_backend_factory.hpp"
#include "gl_test_util.hpp"
#include "render/gl_check.hpp"
#include "render/glfw_window.hpp"
#include "ui/race_driver.hpp"
#include "ui/ui.hpp"
#include "ui_test_util.hpp"

using namespace nbody;
using namespace nbody::test;

namespace {

std::unique_ptr<GlfwWindow> window_or_null(int w, int h, std::string& why) {
    if (!display_available()) {
        why = "no display (run under xvfb-run)";
        return nullptr;
    }
    return GlfwWindow::create(w, h, "nbody gl test", &why);
}

#define NBODY_WINDOW_OR_SKIP(win, w, h)             \
    std::string why_##win;                          \
    auto win = window_or_null((w), (h), why_##win); \
    if (!win) GTEST_SKIP() << why_##win

}  // namespace

TEST(Window, ScreenshotIsAPngOfTheWindowSize) {
    NBODY_WINDOW_OR_SKIP(win, 320, 200);
    int w = 0, h = 0;
    win->framebuffer_size(w, h);
    ASSERT_GT(w, 0);
    NBODY_GL(glBindFramebuffer(GL_FRAMEBUFFER, 0));
    NBODY_GL(glViewport(0, 0, w, h));
    NBODY_GL(glClearColor(0.2f, 0.4f, 0.6f, 1.0f));
    NBODY_GL(glClear(GL_COLOR_BUFFER_BIT));
    const Image img = read_framebuffer(0, w, h);
    const auto path = (std::filesystem::temp_directory_path() / "nbody-window-shot.png").string();
    write_png(path, img);
    const auto [pw, ph] = png_size(path);
    EXPECT_EQ(pw, w);
    EXPECT_EQ(ph, h);
    EXPECT_NEAR(pixel(img, w / 2, h / 2).b, 153, 2);  // 0.6 * 255: the cleared colour, read back
    std::filesystem::remove(path);
}

// A window, a small CPU simulation and the panels' state, as the sandbox has them.
struct Panels {
    explicit Panels(GlfwWindow& w) : ui(w.handle(), "", 1.0f) {
        view.backends = backend_offers(backend_rows_with_gl());
    }
    std::unique_ptr<Simulation> owner = cpu_simulation();
    Simulation& sim = *owner;
    Ui ui;
    RenderSettings render;
    Camera camera;
    UiState state;  // every panel is open by default
    UiView view;
};

TEST(Window, OneImGuiFrameWithEveryPanelOpen) {
    NBODY_WINDOW_OR_SKIP(win, 1280, 720);
    Panels p(*win);
    auto& [owner, sim, ui, render, camera, state, view] = p;
    state.show_help = true;
    std::vector<SceneEntry> scenes = {{"a.toml", "Scene A", "first", 100},
                                      {"b.toml", "Scene B", "second", 200}};
    view.scenes = &scenes;
    view.scene_name = "ring";
    view.upload_path = "host copy";
    view.group_count = 3;
    render.trails.on = true;  // its controls in the View panel
    for (int m = 0; m < kColorModes; ++m) {  // every legend: swatches, or a colour bar with its units
        const ColorMode mode = static_cast<ColorMode>(m);
        render.color_mode = mode;
        // Density with a range; potential without (too many bodies): components, and the note says why.
        view.colour_range = mode == ColorMode::Density ? ValueRange{-2, 1, true} : ValueRange{};
        view.colour_note = "not shown: a test";
        sim.advance_frame(1.0, 0.0);
        ui.new_frame();
        const UiRequests req = ui.build(sim, render, camera, state, view);
        EXPECT_FALSE(req.reset);
        NBODY_GL(glBindFramebuffer(GL_FRAMEBUFFER, 0));
        ui.render();
        gl_check("ImGui frame", __FILE__, __LINE__);
        ASSERT_NE(ImGui::GetDrawData(), nullptr);
        win->present();
    }
    // Auto-sized windows are hidden on their first frame; by the third everything is drawn.
    EXPECT_GT(ImGui::GetDrawData()->TotalVtxCount, 1000);
    for (const char* name :
         {"Scene", "Physics", "Kernel", "Timeline", "View", "Measure", "Performance", "Diagnostics", "Help (F1)",
          "Legend"}) {
        const ImGuiWindow* w = ImGui::FindWindowByName(name);
        ASSERT_NE(w, nullptr) << name;
        EXPECT_TRUE(w->WasActive) << name << " was not built";
    }
    // The tree: theta, its force error (measuring, then measured) and its interactions per body.
    sim.pending().method = ForceMethod::Tree;
    for (int frame = 0; frame < 4; ++frame) {
        sim.advance_frame(1.0, 0.1 * frame);
        if (frame == 2) sim.force_error().wait();
        ui.new_frame();
        ui.build(sim, render, camera, state, view);
        NBODY_GL(glBindFramebuffer(GL_FRAMEBUFFER, 0));
        ui.render();
        gl_check("ImGui frame, tree", __FILE__, __LINE__);
        win->present();
    }
    EXPECT_EQ(sim.params().method, ForceMethod::Tree);
    EXPECT_TRUE(sim.force_error().latest().has_value());
    for (const char* name : {"Physics", "Performance"}) {
        const ImGuiWindow* w = ImGui::FindWindowByName(name);
        ASSERT_NE(w, nullptr) << name;
        EXPECT_TRUE(w->WasActive) << name << " was not built with the tree";
    }
}

TEST(Window, AnEditThroughThePanelsPathTakesEffectAtTheNextStep) {
    NBODY_WINDOW_OR_SKIP(win, 640, 480);
    Panels p(*win);
    auto& [owner, sim, ui, render, camera, state, view] = p;
    ui.new_frame();
    ui.build(sim, render, camera, state, view);
    sim.pending().dt = 0.003;  // the Physics panel writes exactly here
    sim.pending().steps_per_frame = 2;
    ui.render();
    EXPECT_DOUBLE_EQ(sim.backend().params().dt, 0.01);  // in effect only at the frame boundary
    const double t0 = sim.backend().time();
    EXPECT_EQ(sim.advance_frame(1.0, 0.0), 2);
    EXPECT_DOUBLE_EQ(sim.backend().params().dt, 0.003);
    EXPECT_NEAR(sim.backend().time() - t0, 0.006, 1e-12);
}

// The Kernel panel's race section: progress while the race runs a slice per frame, then the bar chart, and
// the simulation where it was.
TEST(Window, TheKernelPanelShowsARaceInProgressAndThenItsBars) {
    NBODY_WINDOW_OR_SKIP(win, 1280, 720);
    Panels p(*win);
    auto& [owner, sim, ui, render, camera, state, view] = p;
    RaceDriver race;
    state.race = &race;
    state.show_scene = state.show_physics = state.show_view = state.show_perf = state.show_diag = false;
    auto frame = [&] {
        ui.new_frame();
        ImGui::SetWindowCollapsed("Kernel", false);  // it opens folded the first time
        ui.build(sim, render, camera, state, view);
        NBODY_GL(glBindFramebuffer(GL_FRAMEBUFFER, 0));
        ui.render();
        win->present();
        return ImGui::GetDrawData()->TotalVtxCount;
    };
    for (int i = 0; i < 3; ++i) frame();  // auto-sized windows are hidden on their first frame
    const int idle = frame();
    State before, after;
    sim.backend().read_state(before);
    race.start(sim, 0.02);
    int frames = 0;
    while (race.running() && frames < 50) {
        race.tick(sim);  // what the app does instead of stepping
        frame();
        ++frames;
    }
    EXPECT_EQ(frames, 5);  // the reference, three precisions and the tree
    const int with_bars = frame();
    EXPECT_GT(with_bars, idle + 100) << "no bar chart drawn";
    ASSERT_EQ(race.report().results.size(), 4u);
    sim.backend().read_state(after);
    EXPECT_EQ(before.pos_mass[5].x, after.pos_mass[5].x);
    EXPECT_EQ(before.time, after.time);
    for (const char* name : {"Kernel", "Race results"}) {
        const ImGuiWindow* w = ImGui::FindWindowByName(name);
        ASSERT_NE(w, nullptr) << name;
        EXPECT_TRUE(w->WasActive) << name;
    }
}
