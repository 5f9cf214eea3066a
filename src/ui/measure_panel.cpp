// The Measure panel: what the picked body does (distance from the centre of mass, speed, acceleration,
// orbital period), the ruler between two picks, and the switches of the arrows, the trace and the camera's
// follow. The numbers come from core/session/measurements.hpp, in the scene's physical units where it
// declares them. Every read-out wraps: a panel narrowed to its column's share of a 1280-pixel window at UI
// scale 1.5 is about 19 em wide, and a line cut at its edge cannot be scrolled to (the panel scrolls only
// vertically).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "core/physics/unit_words.hpp"
#include "core/session/measurements.hpp"
#include "ui/panels.hpp"

namespace nbody {

namespace {
double norm(Double3 a) {
    return std::sqrt(dot(a, a));
}

// "body 12 (intruder)": the scene's component name where the body has one.
std::string body_name(PanelContext& c, std::size_t i) {
    std::string name = "body " + std::to_string(i);
    const std::vector<uint32_t>& group = c.sim.initial_state().group;
    if (i < group.size() && group[i] < c.view.group_names.size())
        name += " (" + c.view.group_names[group[i]] + ")";
    return name;
}

void period_line(const Measurements& m, const PhysicalUnits& u) {
    const PeriodReading p = m.period();
    const bool angle = p.method == PeriodMethod::SameAngle;
    if (p.period)
        ImGui::TextWrapped("period: %s (%d %s seen)", time_words(u, *p.period).c_str(), p.turns,
                           angle ? (p.turns == 1 ? "turn" : "turns") : (p.turns == 1 ? "return" : "returns"));
    else if (angle)
        ImGui::TextWrapped("period: after one full turn (%.0f%% so far)",
                           std::max(0.0, 100 * p.angle / (2 * std::numbers::pi)));
    else
        ImGui::TextWrapped("period: when it is back where it was picked");
    disabled_wrapped(std::string("timed by: ") + period_method_words(p.method));
    if (ImGui::IsItemHovered())
        wrapped_tooltip(
            angle ? "Measured from the trace: the time between the last two passages of the same angle "
                    "around the centre of mass (the angle the body had when it was picked), in the "
                    "plane of its orbit. The trace starts again at a pick, a reset or a rewind."
                  : "This path runs through the centre of mass, where the angle around it jumps: the "
                    "period is the time between the last two returns to where the body was picked, "
                    "moving the same way. The trace starts again at a pick, a reset or a rewind.");
}

// One line, right under the picked body's name: with two picks the distance is what was asked for, and it
// stays in sight when the panel is a few lines tall (at 1280x720 and UI scale 1.5, or under the Read-out).
void ruler_line(PanelContext& c, const Measurements& m) {
    const std::string to = "ruler to " + body_name(c, *m.second());
    if (const std::optional<double> d = m.ruler_length())
        ImGui::TextWrapped("%s: %s", to.c_str(), length_words(c.view.units, *d).c_str());
    else
        ImGui::TextWrapped("%s", to.c_str());
}

void picked_readouts(PanelContext& c, Measurements& m) {
    const PhysicalUnits& u = c.view.units;
    const std::size_t i = *m.picked();
    ImGui::TextWrapped("%s", body_name(c, i).c_str());
    if (m.second()) ruler_line(c, m);
    const BodyReading* r = m.reading_of(i);
    if (!r) {
        disabled_wrapped("reading it at the next frame");
        return;
    }
    if (const std::optional<double> d = m.distance_from_centre())
        ImGui::TextWrapped("from the centre of mass: %s", length_words(u, *d).c_str());
    ImGui::TextWrapped("speed: %s", speed_words(u, norm(r->vel)).c_str());
    ImGui::TextWrapped("acceleration: %s", acceleration_words(u, norm(r->acc)).c_str());
    period_line(m, u);
    ImGui::Checkbox("follow it with the camera", &m.follow);
    if (ImGui::IsItemHovered())
        wrapped_tooltipf("The camera turns about the picked body as it moves (C resets)");
}

void arrow_switches(PanelContext& c, Measurements& m) {
    const PhysicalUnits& u = c.view.units;
    ImGui::Checkbox("velocity (green)", &m.show_velocity);
    same_line_if_fits("acceleration (orange)", NextItem::Checkbox);
    ImGui::Checkbox("acceleration (orange)", &m.show_acceleration);
    ImGui::Checkbox("trace", &m.show_trace);
    same_line_if_fits("arrows on every body", NextItem::Checkbox);
    ImGui::BeginDisabled(!m.few_bodies());
    ImGui::Checkbox("arrows on every body", &m.every_body);
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        wrapped_tooltipf(m.few_bodies()
                             ? "Every body's velocity and acceleration (the force on it over its mass)"
                             : "In scenes of up to %zu bodies",
                         Measurements::kFewBodies);
    const ArrowScale& s = m.arrow_scale();
    if (s.velocity_time > 0) {
        disabled_wrapped("velocity arrow: the distance covered in " + time_words(u, s.velocity_time) +
                         "; acceleration arrow: " + length_words(u, 1.0) + " long for " +
                         acceleration_words(u, s.accel_per_length));
    }
}
}  // namespace

void measure_panel(PanelContext& c) {
    Measurements* m = c.state.measure;
    if (!m) {
        disabled_wrapped("No measuring tools in this window");
        return;
    }
    if (m->picked())
        picked_readouts(c, *m);
    else
        ImGui::TextWrapped("Click a body to pick it; Shift+click a second one for the ruler.");
    ImGui::Separator();
    arrow_switches(c, *m);
    if (ImGui::Button("Rescale arrows")) m->rescale_arrows();
    if (ImGui::IsItemHovered())
        wrapped_tooltipf(
            "The arrows keep one scale while a pick lasts, so a longer arrow is a larger value; this "
            "chooses it again for what the bodies do now");
    same_line_if_fits("Clear picks");
    ImGui::BeginDisabled(!m->picked());
    if (ImGui::Button("Clear picks")) m->clear();
    ImGui::EndDisabled();
}

}  // namespace nbody
