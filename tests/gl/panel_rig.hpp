#pragma once
// Shared by the gl tests that drive the panels on a headless context (no platform window: the display size is
// given to Ui::new_frame): a CPU simulation and the panels one frame at a time, and the windows' rectangles.
#include <glad/gl.h>
#include <imgui.h>
#include <imgui_internal.h>  // the window list: which windows were built, and where

#include <memory>
#include <string>
#include <vector>

#include "gl_backend/gl_backend_factory.hpp"
#include "render/gl_context.hpp"
#include "ui/ui.hpp"
#include "ui_test_util.hpp"

namespace nbody::test {

struct Rect {
    std::string name;
    float x0, y0, x1, y1;
};

// A headless context, a CPU simulation and the panels, driven one frame at a time.
struct Rig {
    Rig(GlContext& context, float scale, const std::string& ini = "",
        std::unique_ptr<Simulation> simulation = cpu_simulation())
        : ctx(context), owner(std::move(simulation)), ui(nullptr, ini, scale) {
        state.ui_scale = scale;
        view.scene_name = "ring";
        view.upload_path = "host copy";
        view.group_count = 3;
        view.backends =
            backend_offers(backend_rows_with_gl());  // the Kernel panel's buttons, as the sandbox has them
    }
    void frames(int n, int w, int h, double dt = 1.0 / 60) {
        for (int i = 0; i < n; ++i) {
            sim.advance_frame(1.0, 0.0);
            ui.new_frame(w, h, dt);
            ui.build(sim, render, camera, state, view);
            glBindFramebuffer(GL_FRAMEBUFFER, ctx.target_framebuffer());
            ui.render();
        }
    }
    GlContext& ctx;
    std::unique_ptr<Simulation> owner;
    Simulation& sim = *owner;
    Ui ui;
    RenderSettings render;
    Camera camera;
    UiState state;
    UiView view;
};

// The windows built in the last frame (ImGui's implicit "Debug##Default" aside), with their rectangles.
inline std::vector<Rect> active_windows() {
    std::vector<Rect> out;
    for (const ImGuiWindow* w : ImGui::GetCurrentContext()->Windows) {
        if (!w->Active || std::string(w->Name).rfind("Debug##", 0) == 0) continue;
        out.push_back({w->Name, w->Pos.x, w->Pos.y, w->Pos.x + w->Size.x, w->Pos.y + w->Size.y});
    }
    return out;
}

// The windows whose items reach past their inner right edge (a button cut to "Re"), with by how much: ImGui
// keeps each window's content extent (ContentSize, from the cursor's furthest reach in the last frame).
inline std::string clipped_items() {
    std::string out;
    const ImGuiStyle& st = ImGui::GetStyle();
    for (const ImGuiWindow* w : ImGui::GetCurrentContext()->Windows) {
        if (!w->Active || w->Collapsed || std::string(w->Name).rfind("Debug##", 0) == 0) continue;
        if (w->ParentWindow) continue;  // child windows (list boxes, combos) are checked through their host
        const float inner = w->Size.x - 2 * st.WindowPadding.x - w->ScrollbarSizes.x;
        if (w->ContentSize.x > inner + 1)
            out += std::string(w->Name) + " by " + std::to_string(w->ContentSize.x - inner) + " px; ";
    }
    return out;
}

inline bool overlap(const Rect& a, const Rect& b) {
    return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

inline bool collapsed(const char* name) {
    const ImGuiWindow* w = ImGui::FindWindowByName(name);
    return w && w->Collapsed;
}

}  // namespace nbody::test
