#define GLFW_INCLUDE_NONE
#include "ui/ui.hpp"

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "core/errors.hpp"
#include "core/session/measurements.hpp"
#include "ui/panels.hpp"

namespace nbody {

namespace fs = std::filesystem;

std::string user_config_dir() {
    fs::path base;
    if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x)
        base = x;
    else if (const char* h = std::getenv("HOME"); h && *h)
        base = fs::path(h) / ".config";
    else
        return "";
    std::error_code ec;
    fs::create_directories(base / "nbody-sandbox", ec);
    return ec ? std::string() : (base / "nbody-sandbox").string();
}

Ui::Ui(GLFWwindow* window, const std::string& ini_path, float scale) : m_ini(ini_path) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = m_ini.empty() ? nullptr : m_ini.c_str();
    ImGui::StyleColorsDark();
    ImGui::GetStyle().Colors[ImGuiCol_WindowBg].w = 0.85f;  // the galaxies show through the panels
    if (window) {
        // No callbacks of ImGui's own: it gets the window's queue through add_input, never two events of one
        // key or button in a frame (input_trickle.hpp).
        m_platform = ImGui_ImplGlfw_InitForOpenGL(window, false);
    }
    if (!ImGui_ImplOpenGL3_Init("#version 450 core")) {
        if (m_platform) ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
        throw Error("ui.cpp: ImGui's OpenGL 3 backend could not start");
    }
    m_font_choice = find_ui_font();
    m_wanted_scale = scale;
    apply_scale();
}

Ui::~Ui() {
    ImGui_ImplOpenGL3_Shutdown();
    if (m_platform) ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
}

void Ui::apply_scale() {
    if (m_wanted_scale == m_scale) return;
    // Sizes are scaled from a fresh style each time (ScaleAllSizes is cumulative); the fonts are rasterised
    // again at the new pixel size (sharp, unlike FontGlobalScale stretching a 13 px bitmap).
    ImGuiStyle fresh;
    ImGui::StyleColorsDark(&fresh);
    fresh.Colors[ImGuiCol_WindowBg].w = 0.85f;
    fresh.ScaleAllSizes(m_wanted_scale);
    ImGui::GetStyle() = fresh;
    m_fonts = build_ui_fonts(m_font_choice, m_wanted_scale);
    if (m_scale > 0) {  // the backend's texture exists after the first frame; before, NewFrame makes it
        ImGui_ImplOpenGL3_DestroyFontsTexture();
        ImGui_ImplOpenGL3_CreateFontsTexture();
    }
    m_scale = m_wanted_scale;
}

void Ui::new_frame(int width, int height, double dt) {
    apply_scale();
    ImGui_ImplOpenGL3_NewFrame();
    if (m_platform) {
        ImGui_ImplGlfw_NewFrame();
        m_input.apply(m_input_queue.next_frame());
    } else {
        ImGuiIO& io = ImGui::GetIO();
        io.DisplaySize = ImVec2(float(width), float(height));
        io.DeltaTime = float(dt > 0 ? dt : 1.0 / 60);
    }
    ImGui::NewFrame();
}

UiRequests Ui::build(Simulation& sim, RenderSettings& render, Camera& camera, UiState& state,
                     const UiView& view) {
    set_scale(state.ui_scale);  // from the View panel's slider: applied at the next frame
    UiRequests req;
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    state.scene_left = vp->WorkPos.x, state.scene_right = vp->WorkPos.x + vp->WorkSize.x;
    state.scene_bottom = vp->WorkPos.y + vp->WorkSize.y;
    if (state.show_ui) {
        // The first pick opens the Measure panel where its read-outs are (later picks leave the folding alone).
        const bool picked = state.measure && state.measure->picked();
        if (picked && !m_had_pick) m_layout.unfold("Measure");
        m_had_pick = picked;
        PanelContext ctx{sim, render, camera, state, view, req, m_fonts, m_layout};
        draw_panels(ctx);
        state.scene_left = m_layout.scene_left(), state.scene_right = m_layout.scene_right();
        state.scene_bottom = m_layout.scene_bottom();
        // While the scene card shows, the bodies are framed above it too.
        // Help (F1) covers the scene area: the card waits under it rather than showing through.
        const float card_top = state.show_help
                                   ? state.scene_bottom
                                   : m_card.draw(view, m_fonts, state.presentation, state.scene_left,
                                                 state.scene_right, m_layout.panels_bottom());
        state.scene_bottom = std::min(state.scene_bottom, card_top - 0.6f * ImGui::GetFontSize());
    }
    // A status message ("saved ...", "the scene being generated was dropped ...") also shows over the scene
    // for a few seconds: the View panel that keeps it may be folded.
    if (state.message != m_toast) m_toast = state.message, m_toast_at = ImGui::GetTime();
    const bool toast = !m_toast.empty() && ImGui::GetTime() - m_toast_at < 6.0;
    state.scene_top = scene_overlays(sim, state, m_fonts, toast ? m_toast : std::string());
    // The camera frames the bodies in the free area: not behind the panels, the banner or the legend.
    // It moves there smoothly (a quarter of a second) when the area changes: the card goes, a panel folds.
    const float target[4] = {state.scene_left - vp->WorkPos.x, state.scene_top - vp->WorkPos.y,
                             state.scene_right - vp->WorkPos.x, state.scene_bottom - vp->WorkPos.y};
    const float follow = m_view_set ? std::min(1.0f, ImGui::GetIO().DeltaTime / 0.25f) : 1.0f;
    for (int i = 0; i < 4; ++i) m_view[i] += (target[i] - m_view[i]) * follow;
    m_view_set = true;
    camera.set_view_rect(m_view[0], m_view[1], m_view[2], m_view[3], vp->WorkSize.x, vp->WorkSize.y);
    if (state.show_help) draw_help(state);
    draw_alerts(sim, state, req);
    return req;
}

void Ui::render() {
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void Ui::settle(Simulation& sim, RenderSettings& render, Camera& camera, UiState& state, const UiView& view,
                int frames) {
    for (int i = 0; i < frames; ++i) {
        new_frame();
        m_view_set = false;  // no easing towards the free area: the first picture starts there
        build(sim, render, camera, state, view);
        ImGui::EndFrame();
    }
}

bool Ui::wants_mouse() const {
    return ImGui::GetIO().WantCaptureMouse;
}
bool Ui::wants_keyboard() const {
    return ImGui::GetIO().WantCaptureKeyboard;
}

}  // namespace nbody
