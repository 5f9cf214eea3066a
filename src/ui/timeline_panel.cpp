// The classroom controls: trails (a block in the View panel) and the rewind timeline (its own
// panel): drag back to a saved state, change a component's mass or dt, run on from there.
#include <imgui.h>

#include <algorithm>
#include <string>

#include "core/errors.hpp"
#include "core/rows/force_method.hpp"
#include "ui/panels.hpp"

namespace nbody {

void trails_controls(PanelContext& c) {
    TrailSettings& t = c.render.trails;
    ImGui::Checkbox("trails", &t.on);
    if (ImGui::IsItemHovered()) wrapped_tooltipf("Each body leaves a fading trail of its past positions");
    if (!t.on) return;
    ImGui::SliderInt("trail length", &t.length, 8, 1024, "%d samples", ImGuiSliderFlags_Logarithmic);
    ImGui::SliderInt("trail stride", &t.stride, 1, 16, "every %d frames");
    if (ImGui::IsItemHovered())
        wrapped_tooltipf("A sample every this many frames in which the bodies moved (none while paused)");
    ImGui::SliderFloat("trail brightness", &t.brightness, 0.02f, 4.0f, "%.2f", ImGuiSliderFlags_Logarithmic);
    ImGui::TextDisabled("%d samples held, %.1f MiB of GPU memory", c.view.trail_samples,
                        double(c.view.trail_bytes) / double(1 << 20));
    if (!c.view.trail_note.empty()) ImGui::TextWrapped("%s", c.view.trail_note.c_str());
}

void tree_cells_controls(PanelContext& c) {
    CellSettings& t = c.render.cells;
    const bool tree = method_info(c.sim.params().method).has_cells;
    if (!tree) ImGui::BeginDisabled();
    ImGui::Checkbox("tree cells", &t.on);
    if (!tree) ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        wrapped_tooltipf(tree ? "The boxes of the tree's cells, one colour per depth: where the bodies crowd, "
                                 "the cells split smaller"
                               : "The tree's cells: choose method tree in Physics first");
    if (!t.on || !tree) return;
    ImGui::SliderInt("cell depth", &t.depth, 0, kMaxCellDrawDepth, "down to %d");
    ImGui::SliderFloat("cell opacity", &t.opacity, 0.05f, 1.0f, "%.2f");
    ImGui::TextDisabled("%zu cells drawn", c.view.tree_cells);
}

namespace {

// A component's mass times a factor, before running on from a rewound state.
void mass_editor(PanelContext& c) {
    UiState& s = c.state;
    const int groups = int(std::max<std::size_t>(c.view.group_count, 1));
    s.mass_group = std::clamp(s.mass_group, 0, groups - 1);
    auto name = [&](int g) {
        return std::size_t(g) < c.view.group_names.size() ? c.view.group_names[std::size_t(g)]
                                                          : "group " + std::to_string(g);
    };
    if (ImGui::BeginCombo("component", name(s.mass_group).c_str())) {
        for (int g = 0; g < groups; ++g)
            if (ImGui::Selectable((name(g) + "##g" + std::to_string(g)).c_str(), g == s.mass_group))
                s.mass_group = g;
        ImGui::EndCombo();
    }
    ImGui::SliderFloat("mass x", &s.mass_factor, 0.1f, 10.0f, "%.3g", ImGuiSliderFlags_Logarithmic);
    if (ImGui::Button("Apply mass")) {
        try {
            c.sim.scale_group_mass(uint32_t(s.mass_group), double(s.mass_factor));
            s.message = "mass of " + name(s.mass_group) + " x " + std::to_string(s.mass_factor);
            s.mass_factor = 1.0f;
        } catch (const Error& e) {
            s.message = e.what();
        }
    }
    if (ImGui::IsItemHovered())
        wrapped_tooltipf(
            "Multiplies the mass of every body of this component, here and now; the saved states "
            "after this point are dropped");
}

void rewind_settings(PanelContext& c) {
    RewindSettings r = c.sim.rewind_settings();
    bool changed = ImGui::Checkbox("record", &r.enabled);
    changed |= input_positive("every (time)", r.interval, "%.4g", 1e-12);
    int capacity = r.capacity;
    if (ImGui::InputInt("states", &capacity, 0, 0, ImGuiInputTextFlags_EnterReturnsTrue) && capacity >= 1 &&
        capacity <= 100000)
        r.capacity = capacity, changed = true;
    if (ImGui::IsItemHovered()) wrapped_tooltipf("Saved states kept (GPU: in device memory); 1 to 100,000");
    if (changed) c.sim.set_rewind(r);  // a new timeline from here
}

}  // namespace

void timeline_panel(PanelContext& c) {
    Simulation& sim = c.sim;
    const RewindRing& ring = sim.rewind();
    const double now = sim.facts().time;
    if (ring.empty()) {
        ImGui::TextDisabled("no saved states (recording is off)");
    } else {
        const double first = ring.at(0).time, last = ring.at(ring.size() - 1).time;
        ImGui::Text("%d states saved, t = %.4g to %.4g", ring.size(), first, last);
        float t = float(std::clamp(now, first, last));
        ImGui::SetNextItemWidth(-1);
        if (ImGui::SliderFloat("##timeline", &t, float(first), float(std::max(last, first + 1e-9)),
                               "t = %.4g")) {
            try {
                sim.scrub_to(double(t));  // pauses
            } catch (const Error& e) {
                c.state.message = e.what();
            }
        }
        if (ImGui::IsItemHovered())
            wrapped_tooltipf(
                "Drag back to a saved state (pauses); Run from here goes on, and the later states "
                "make way for the new run");
    }
    if (ImGui::Button(sim.paused() ? "Run from here" : "Pause")) sim.set_paused(!sim.paused());
    ImGui::SameLine();
    ImGui::Text("t = %.5g", now);
    input_positive("dt", sim.pending().dt, "%.6g", 1e-12);  // applied at the next frame, as in the Physics panel
    mass_editor(c);
    if (ImGui::CollapsingHeader("Recording")) rewind_settings(c);
    if (!sim.rewind_note().empty()) ImGui::TextWrapped("%s", sim.rewind_note().c_str());
}

}  // namespace nbody
