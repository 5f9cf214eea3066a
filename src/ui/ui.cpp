#define GLFW_INCLUDE_NONE
#include "ui/ui.hpp"

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <cstdlib>
#include <filesystem>

#include "core/errors.hpp"
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
        // The app's GLFW callbacks are installed already: ImGui chains to them.
        m_platform = ImGui_ImplGlfw_InitForOpenGL(window, true);
    }
    if (!ImGui_ImplOpenGL3_Init("#version 450 core")) {
        if (m_platform) ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
        throw Error("ui.cpp: ImGui's OpenGL 3 backend could not start");
    }
    set_scale(scale);
}

Ui::~Ui() {
    ImGui_ImplOpenGL3_Shutdown();
    if (m_platform) ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
}

void Ui::set_scale(float scale) {
    if (scale == m_scale) return;
    // Sizes are scaled from a fresh style each time (ScaleAllSizes is cumulative); fonts through the global
    // scale, which keeps the one font atlas.
    ImGuiStyle fresh;
    ImGui::StyleColorsDark(&fresh);
    fresh.Colors[ImGuiCol_WindowBg].w = 0.85f;
    fresh.ScaleAllSizes(scale);
    ImGui::GetStyle() = fresh;
    ImGui::GetIO().FontGlobalScale = scale;
    m_scale = scale;
}

void Ui::new_frame(int width, int height, double dt) {
    ImGui_ImplOpenGL3_NewFrame();
    if (m_platform) {
        ImGui_ImplGlfw_NewFrame();
    } else {
        ImGuiIO& io = ImGui::GetIO();
        io.DisplaySize = ImVec2(float(width), float(height));
        io.DeltaTime = float(dt > 0 ? dt : 1.0 / 60);
    }
    ImGui::NewFrame();
}

UiRequests Ui::build(Simulation& sim, RenderSettings& render, Camera& camera, UiState& state,
                     const UiView& view) {
    set_scale(state.ui_scale);
    UiRequests req;
    if (state.show_ui) {
        PanelContext ctx{sim, render, camera, state, view, req};
        draw_panels(ctx);
    }
    if (state.show_help) draw_help(state);
    draw_alerts(sim, state, req);
    return req;
}

void Ui::render() {
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

bool Ui::wants_mouse() const {
    return ImGui::GetIO().WantCaptureMouse;
}
bool Ui::wants_keyboard() const {
    return ImGui::GetIO().WantCaptureKeyboard;
}

}  // namespace nbody
