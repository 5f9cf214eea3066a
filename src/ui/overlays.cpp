// Marks drawn over the scene, never over a control: PAUSED in large type, a banner when the CPU backend runs
// because no GPU could, and the "Esc again quits" hint. They go on ImGui's background draw list, which lies
// over the particles and under every panel, so none of them can hide a widget.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <string>

#include "ui/panels.hpp"
#include "ui/plain_words.hpp"
#include "ui/race_driver.hpp"

namespace nbody {

namespace {

// Text centred at x, its top at y, wrapped at `wrap` pixels, on a dark rounded box; returns the box's bottom.
float boxed_text(ImDrawList* dl, ImFont* font, float size, float x, float y, const std::string& text, ImU32 col,
                 float wrap = FLT_MAX) {
    const ImVec2 t = font->CalcTextSizeA(size, FLT_MAX, wrap, text.c_str());
    const float pad = 0.35f * size;
    const ImVec2 a(x - t.x * 0.5f - pad, y), b(x + t.x * 0.5f + pad, y + t.y + 2 * pad);
    dl->AddRectFilled(a, b, IM_COL32(0, 0, 0, 150), pad);
    dl->AddText(font, size, ImVec2(a.x + pad, a.y + pad), col, text.c_str(), nullptr, wrap);
    return b.y;
}

}  // namespace

float scene_overlays(Simulation& sim, const UiState& state, const UiFonts& fonts, const std::string& toast) {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImDrawList* bg = ImGui::GetBackgroundDrawList();
    ImFont* font = ImGui::GetFont();
    const float f = ImGui::GetFontSize();
    const float cx = 0.5f * (state.scene_left + state.scene_right);  // the free area's middle
    const float wrap = std::max(state.scene_right - state.scene_left - 2 * f, 8 * f);
    float y = vp->WorkPos.y + 0.6f * f;
    const std::string fallback = cpu_fallback_reason(sim.backend_choice());
    if (!fallback.empty())
        y = boxed_text(bg, font, f, cx, y, "CPU only: " + fallback, IM_COL32(255, 200, 90, 255), wrap) + 0.4f * f;
    if (!state.slow_note.empty())
        y = boxed_text(bg, font, f, cx, y, state.slow_note, IM_COL32(255, 200, 90, 255), wrap) + 0.4f * f;
    const float top = fallback.empty() && state.slow_note.empty() ? vp->WorkPos.y : y;  // under the banners
    const bool racing = state.race && state.race->running();
    if (sim.paused() && !racing) {
        ImFont* big = fonts.huge ? fonts.huge : font;
        const float size = fonts.huge ? fonts.huge->FontSize : 2.75f * f;
        y = boxed_text(bg, big, size, cx, y, "PAUSED", IM_COL32(255, 255, 255, 230));
        y = boxed_text(bg, font, f, cx, y + 0.2f * f, "Space runs, Right arrow steps once",
                       IM_COL32(220, 220, 220, 255), wrap) + 0.4f * f;
    }
    if (!toast.empty()) boxed_text(bg, font, f, cx, y, in_words(toast), IM_COL32(140, 220, 255, 255), wrap);
    if (state.quit_hint) {
        // Over everything: it answers a key press and lasts a second.
        const float size = 1.5f * f;
        boxed_text(ImGui::GetForegroundDrawList(), font, size, cx, vp->WorkPos.y + vp->WorkSize.y * 0.45f,
                   "Press Esc again to quit (Ctrl+Q quits at once)", IM_COL32(255, 255, 255, 255));
    }
    return top;
}

}  // namespace nbody
