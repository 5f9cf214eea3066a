// The GL compute backend in the window's own context (GLFW, under xvfb-run in CI): chosen the way the Kernel
// panel's radio button chooses it, drawn from the renderer's buffer, and raced by the panel's Race button
// with its own variants only.
#include <glad/gl.h>
#include <imgui.h>
#include <imgui_internal.h>  // FindWindowByName

#include <gtest/gtest.h>

#include <cstdlib>

#include "core/session/simulation.hpp"
#include "gl_backend/gl_backend_factory.hpp"
#include "render/gl_check.hpp"
#include "render/glfw_window.hpp"
#include "render/image_capture.hpp"
#include "ui/race_driver.hpp"
#include "ui/ui.hpp"
#include "ui_test_util.hpp"

namespace nbody {
namespace {

TEST(GlBackendWindow, TheKernelPanelSwitchesToGlComputeAndRacesItsVariants) {
    if (!display_available()) GTEST_SKIP() << "no display (run under xvfb-run)";
    std::string why;
    auto win = GlfwWindow::create(1280, 720, "nbody gl backend test", &why);
    if (!win) GTEST_SKIP() << why;
    Simulation sim([](const SimParams& p, BackendChoice* choice) {
        return make_backend_with_gl(p, choice, {GlContextSource::Current, {}});
    });
    SimParams p;
    p.backend = BackendKind::Cpu;
    sim.load(test::ring(300), p);
    sim.pending().backend = BackendKind::Gl;  // what the Kernel panel's "GL compute" button writes
    sim.advance_frame(1.0, 0.0);
    ASSERT_TRUE(sim.error().empty()) << sim.error();
    ASSERT_TRUE(sim.facts().caps.gl_positions) << sim.backend_note();
    EXPECT_EQ(sim.backend().name().rfind("gl (", 0), 0u);

    Ui ui(win->handle(), "", 1.0f);
    RenderSettings render;
    Camera camera;
    UiState state;
    state.show_scene = state.show_physics = state.show_view = state.show_perf = state.show_diag = false;
    UiView view;
    RaceDriver race;
    state.race = &race;
    auto frame = [&] {
        ui.new_frame();
        ImGui::SetWindowCollapsed("Kernel", false);
        ui.build(sim, render, camera, state, view);
        NBODY_GL(glBindFramebuffer(GL_FRAMEBUFFER, 0));
        ui.render();
        win->present();
    };
    for (int i = 0; i < 3; ++i) frame();
    const ImGuiWindow* kernel = ImGui::FindWindowByName("Kernel");
    ASSERT_NE(kernel, nullptr);
    EXPECT_TRUE(kernel->WasActive);

    race.start(sim, 0.02);
    for (int frames = 0; race.running() && frames < 50; ++frames) {
        race.tick(sim);
        frame();
    }
    frame();
    // none, i-unrolled, ij-unrolled and auto in fp32: the rest (ds, fp64, tensor, pairs, the tree) left out
    const auto& results = race.report().results;
    ASSERT_EQ(results.size(), 4u);
    for (const RaceResult& r : results) {
        EXPECT_TRUE(r.skipped.empty()) << r.entry.name << ": " << r.skipped;
        EXPECT_EQ(r.row.kernel.rfind("gl ", 0), 0u) << r.row.kernel;
        EXPECT_GT(r.row.rate.interactions_per_s, 0) << r.entry.name;
    }
    if (const char* shot = std::getenv("NBODY_TEST_SCREENSHOT")) {  // for a person to look at
        int w = 0, h = 0;
        win->framebuffer_size(w, h);
        write_png(shot, read_framebuffer(0, w, h));
    }
}

}  // namespace
}  // namespace nbody
