// The windows over the scene that are not panels of the column: the legend of colours at the bottom of the
// free area, Help (F1) beside the panels, and the alert when the simulation stops or a request fails.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "core/physics/physical_units.hpp"
#include "render/colormap.hpp"
#include "render/measure_overlay.hpp"
#include "ui/panels.hpp"
#include "ui/plain_words.hpp"

namespace nbody {

namespace {
// At the legend's end: a bar of a round length at the camera target's distance ("20 kpc" where the scene
// declares its units, else in length units), at most 4 em long; left out where the legend would then be
// wider than the free area it is centred in.
void scale_bar_item(PanelContext& c) {
    const float fov_height = 2.0f * c.camera.distance() * std::tan(0.5f * c.camera.fov_y);
    const double per_pixel = double(fov_height) / (double(ImGui::GetIO().DisplaySize.y) *
                                                   double(std::max(c.camera.view_scale(), 1e-6f)));
    const float em = ImGui::GetFontSize();
    const ScaleBar bar = scale_bar(c.view.units, per_pixel, 4.0 * em);
    if (bar.pixels < 2) return;
    const ImGuiStyle& st = ImGui::GetStyle();
    const float used = ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x;
    const float needed = em + float(bar.pixels) + st.ItemSpacing.x +
                         ImGui::CalcTextSize(bar.label.c_str()).x + st.WindowPadding.x;
    if (used + needed > c.layout.scene_right() - c.layout.scene_left()) return;
    ImGui::SameLine(0, em);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float w = float(bar.pixels), h = ImGui::GetTextLineHeight(), y = p.y + 0.5f * h;
    const ImU32 colour = ImGui::GetColorU32(ImGuiCol_Text);
    ImDrawList* d = ImGui::GetWindowDrawList();
    d->AddLine(ImVec2(p.x, y), ImVec2(p.x + w, y), colour, 2.0f);
    d->AddLine(ImVec2(p.x, y - 0.3f * h), ImVec2(p.x, y + 0.3f * h), colour, 2.0f);
    d->AddLine(ImVec2(p.x + w, y - 0.3f * h), ImVec2(p.x + w, y + 0.3f * h), colour, 2.0f);
    ImGui::Dummy(ImVec2(w, h));
    ImGui::SameLine();
    ImGui::TextUnformatted(bar.label.c_str());
}

// The orbit guide's entry: three dashes in the guide's colour and its name ("the four-body eight"), then a
// small ring: where its point masses would be now.
void guide_item(const std::string& label) {
    const float em = ImGui::GetFontSize(), h = ImGui::GetTextLineHeight();
    ImDrawList* d = ImGui::GetWindowDrawList();
    const ImU32 colour =
        ImGui::ColorConvertFloat4ToU32(ImVec4(kGuideColour.r, kGuideColour.g, kGuideColour.b, 1.0f));
    ImGui::SameLine(0, em);
    ImVec2 p = ImGui::GetCursorScreenPos();
    for (int k = 0; k < 3; ++k) {
        const float x = p.x + float(k) * 0.6f * em;
        d->AddLine(ImVec2(x, p.y + 0.5f * h), ImVec2(x + 0.35f * em, p.y + 0.5f * h), colour, 2.0f);
    }
    ImGui::Dummy(ImVec2(1.6f * em, h));
    ImGui::SameLine();
    ImGui::TextUnformatted(label.c_str());
    ImGui::SameLine(0, 0.6f * em);
    p = ImGui::GetCursorScreenPos();
    d->AddCircle(ImVec2(p.x + 0.4f * em, p.y + 0.5f * h), 0.35f * em, colour, 0, 1.5f);
    ImGui::Dummy(ImVec2(0.8f * em, h));
    ImGui::SameLine();
    ImGui::TextUnformatted("point masses on it");
}
}  // namespace

void legend_overlay(PanelContext& c) {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    // Its room is kept free by PanelLayout: one line high, a margin of 0.6 em under it, in the middle of the
    // free area (the bodies are framed above it).
    ImGui::SetNextWindowPos(ImVec2(0.5f * (c.layout.scene_left() + c.layout.scene_right()),
                                   vp->WorkPos.y + vp->WorkSize.y - std::round(0.6f * ImGui::GetFontSize())),
                            ImGuiCond_Always, ImVec2(0.5f, 1.0f));
    ImGui::SetNextWindowBgAlpha(0.5f);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                   ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove;
    if (!ImGui::Begin("Legend", nullptr, flags)) {
        ImGui::End();
        return;
    }
    auto swatch = [](glm::vec3 col, float w) {
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const float h = ImGui::GetTextLineHeight();
        ImGui::GetWindowDrawList()->AddRectFilled(
            p, ImVec2(p.x + w, p.y + h), ImGui::ColorConvertFloat4ToU32(ImVec4(col.x, col.y, col.z, 1)));
        ImGui::Dummy(ImVec2(w, h));
    };
    const bool no_potential = c.render.color_mode == ColorMode::Potential && !c.view.colour_range.valid;
    if (c.render.color_mode == ColorMode::Group || no_potential) {  // the latter drawn by component
        for (std::size_t g = 0; g < std::min<std::size_t>(c.view.group_count, kGroupColours); ++g) {
            const GroupStyle& st = c.render.groups[g];
            if (g) ImGui::SameLine();
            swatch(st.visible ? st.colour : glm::vec3(0.2f), ImGui::GetTextLineHeight());
            ImGui::SameLine();
            std::string name =
                g < c.view.group_names.size() ? c.view.group_names[g] : "group " + std::to_string(g);
            // Dimmed dark matter says so (the name says it is a halo); a hidden group is greyed.
            if (st.dark_matter && !c.render.show_dark_matter) name += " (dimmed)";
            if (st.visible)
                ImGui::TextUnformatted(name.c_str());
            else
                ImGui::TextDisabled("%s (hidden)", name.c_str());
        }
        if (no_potential) {
            ImGui::SameLine();
            ImGui::TextDisabled("(no potential colours yet: the View panel says why)");
        }
    } else {
        colour_bar_item(c);
    }
    if (c.render.orbit_guides && !c.view.guide_label.empty()) guide_item(c.view.guide_label);
    scale_bar_item(c);
    ImGui::End();
}

void draw_help(UiState& state) {
    // In the middle of the free area, beside the panels rather than over them (Esc or F1 closes it).
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const float left = state.scene_right > state.scene_left ? state.scene_left : vp->WorkPos.x;
    const float right =
        state.scene_right > state.scene_left ? state.scene_right : vp->WorkPos.x + vp->WorkSize.x;
    ImGui::SetNextWindowPos(ImVec2(0.5f * (left + right), vp->GetCenter().y), ImGuiCond_Always,
                            ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0),
                                        ImVec2(right - left - ImGui::GetFontSize(), vp->WorkSize.y));
    if (!ImGui::Begin("Help (F1)", &state.show_help, ImGuiWindowFlags_AlwaysAutoResize)) {
        ImGui::End();
        return;
    }
    static constexpr const char* kKeys[][2] = {{"left drag", "orbit (let go while moving: it keeps turning)"},
                                               {"click a body", "pick it: arrows, trace, period (Measure)"},
                                               {"Shift+click", "a second body: the ruler"},
                                               {"right / middle drag", "pan"},
                                               {"wheel", "zoom"},
                                               {"Space", "pause / run"},
                                               {"Right arrow", "one step"},
                                               {"R", "reset the scene"},
                                               {"C", "reset the camera"},
                                               {"F", "frame all particles"},
                                               {"G", "follow the centre of mass"},
                                               {"F12", "PNG screenshot (working directory)"},
                                               {"V", "start / stop video (needs ffmpeg)"},
                                               {"Tab", "hide / show the panels"},
                                               {"P", "presentation layout (big numbers for a room)"},
                                               {"F1, Esc", "close this help"},
                                               {"Esc", "cancel: scene generation, race, recording"},
                                               {"Esc twice, Ctrl+Q", "quit"}};
    if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg)) {
        for (const auto& k : kKeys) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(k[0]);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(k[1]);
        }
        ImGui::EndTable();
    }
    ImGui::End();
}

void draw_alerts(Simulation& sim, UiState& state, UiRequests& req) {
    if (sim.error().empty()) return;
    ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(480 * state.ui_scale, 0), ImGuiCond_Always);
    if (ImGui::Begin(sim.blew_up() ? "Simulation stopped" : "Problem", nullptr,
                     ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
        ImGui::TextWrapped("%s", in_words(sim.error()).c_str());
        if (sim.blew_up() && ImGui::Button("Reset the scene")) req.reset = true;
        if (sim.blew_up()) ImGui::SameLine();
        if (ImGui::Button("Dismiss")) sim.clear_error();
    }
    ImGui::End();
}

}  // namespace nbody
