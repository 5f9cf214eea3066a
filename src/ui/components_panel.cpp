// The View panel's components block: each colour group's visibility and colour, and the one switch that
// shows dark matter at full light (it is dimmed by default, so the stars are not drawn under a halo that
// outnumbers them).
#include <imgui.h>

#include <algorithm>
#include <string>

#include "ui/panels.hpp"

namespace nbody {

void components_controls(PanelContext& c) {
    RenderSettings& r = c.render;
    const std::size_t groups = std::min<std::size_t>(c.view.group_count, kGroupColours);
    bool any_dark = false;
    for (std::size_t g = 0; g < groups; ++g) any_dark = any_dark || r.groups[g].dark_matter;
    if (any_dark) {
        ImGui::Checkbox("show dark matter", &r.show_dark_matter);
        if (ImGui::IsItemHovered())
            wrapped_tooltip(
                "The halos hold most of the bodies and most of the mass but give no light; they are "
                "drawn at a tenth of their light unless this is on.");
    }
    if (groups < 2 || !ImGui::TreeNode("components")) return;
    for (std::size_t g = 0; g < groups; ++g) {
        GroupStyle& st = r.groups[g];
        ImGui::PushID(int(g));
        ImGui::Checkbox("##shown", &st.visible);
        ImGui::SameLine();
        ImGui::ColorEdit3("##colour", &st.colour.x, ImGuiColorEditFlags_NoInputs | ImGuiColorEditFlags_Float);
        ImGui::SameLine();
        const std::string name =
            g < c.view.group_names.size() ? c.view.group_names[g] : "group " + std::to_string(g);
        ImGui::TextUnformatted((name + (st.dark_matter ? " (dark matter)" : "")).c_str());
        ImGui::PopID();
    }
    ImGui::TreePop();
}

}  // namespace nbody
