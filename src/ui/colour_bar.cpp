// The legend's colour bar: the ramp the bodies are drawn through, its two end values and the unit, in the
// scene's physical units where it declares them (render/colour_scale.hpp chooses the words).
#include <imgui.h>

#include "render/colour_scale.hpp"
#include "ui/panels.hpp"

namespace nbody {

namespace {
// The range of the bar in N-body units: what the renderer mapped this frame (UiView::colour_range), except
// for speed and depth, whose ends are settings and camera facts.
ValueRange bar_range(const PanelContext& c) {
    switch (c.render.color_mode) {
        case ColorMode::Speed:
            return {0, double(c.render.speed_max), true};
        case ColorMode::Depth:
            return {double(c.view.depth_near), double(c.view.depth_far), true};
        default:
            return c.view.colour_range;
    }
}
}  // namespace

void colour_bar_item(PanelContext& c) {
    const ValueRange range = bar_range(c);
    if (!range.valid) {
        ImGui::TextDisabled("%s: no range yet", color_mode_name(c.render.color_mode));
        return;
    }
    const ColourBarText t = colour_bar_text(c.render.color_mode, c.view.units, c.view.G, range);
    ImGui::Text("%s  %s", t.title.c_str(), t.left.c_str());
    ImGui::SameLine();
    // The ramp, left (bottom, dark) to right (top, bright), as a strip of quads on the draw list.
    const ColormapTable table = c.view.colormap ? c.view.colormap->table : colormap_table();
    const float w = 12 * ImGui::GetFontSize(), h = ImGui::GetTextLineHeight();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImDrawList* d = ImGui::GetWindowDrawList();
    constexpr int kSteps = 64;
    for (int i = 0; i < kSteps; ++i) {
        const glm::vec3 col = table[std::size_t(i * (kColormapSize - 1) / (kSteps - 1))];
        const float x0 = p.x + w * float(i) / kSteps, x1 = p.x + w * float(i + 1) / kSteps;
        d->AddRectFilled(ImVec2(x0, p.y), ImVec2(x1, p.y + h),
                         ImGui::ColorConvertFloat4ToU32(ImVec4(col.x, col.y, col.z, 1)));
    }
    d->AddRect(p, ImVec2(p.x + w, p.y + h), ImGui::GetColorU32(ImGuiCol_Border));
    ImGui::Dummy(ImVec2(w, h));
    ImGui::SameLine();
    ImGui::Text("%s %s", t.right.c_str(), t.unit.c_str());
}

}  // namespace nbody
