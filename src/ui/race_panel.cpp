#include "ui/race_panel.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "core/limits.hpp"
#include "core/rows/force_method.hpp"
#include "core/session/perf_history.hpp"
#include "ui/plain_words.hpp"
#include "ui/race_driver.hpp"

namespace nbody {

namespace {

constexpr float kBarWidth = 460;  // unscaled pixels: the results window sizes itself to its bars

ImU32 precision_colour(Precision p) {
    switch (p) {
        case Precision::Fp32:
            return IM_COL32(40, 110, 210, 255);
        case Precision::DS:
            return IM_COL32(200, 120, 20, 255);
        case Precision::Fp64:
            break;
    }
    return IM_COL32(50, 145, 60, 255);
}

// One entry: its name and force error on a line, then a bar in proportion to the fastest entry's steps/s with
// steps/s and interactions/s written over it (the kernel that ran and Gflop/s in the tooltip).
void race_bar(const RaceResult& r, double best, float w) {
    ImGui::TextUnformatted(r.entry.name.c_str());
    ImGui::SameLine();
    if (!r.skipped.empty()) {
        disabled_wrapped("skipped: " + r.skipped);
        return;
    }
    const Throughput& t = r.row.rate;
    const bool tree = method_info(r.entry.method).approximate;
    // Steps/s on every entry: the one rate that compares a tree with direct summation.
    const std::string steps = format_si(t.steps_per_s) + " steps/s";  // "178 k steps/s", as interactions_text
    if (tree)  // its accuracy cost, where the eye compares its bar with the direct ones
        ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.3f, 1.0f), "median force error %.1e (max %.1e), %s",
                           r.row.error.median_rel, r.row.error.max_rel, steps.c_str());
    else
        ImGui::TextDisabled("force error max %.1e, median %.1e, %s", r.row.error.max_rel,
                            r.row.error.median_rel, steps.c_str());
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float h = ImGui::GetTextLineHeight() + 2;
    const float f = best > 0 ? std::clamp(float(t.steps_per_s / best), 0.0f, 1.0f) : 0.0f;
    dl->AddRectFilled(p, ImVec2(p.x + w, p.y + h), IM_COL32(255, 255, 255, 25));
    dl->AddRectFilled(p, ImVec2(p.x + w * f, p.y + h), precision_colour(r.entry.precision));
    char text[160];
    // A tree's interactions are the ones it evaluated (body-body + body-cell), not N^2: said on its bar.
    std::snprintf(text, sizeof text, "%s   %s%s", steps.c_str(),
                  interactions_text(t.interactions_per_s).c_str(), tree ? " evaluated" : "");
    dl->AddText(ImVec2(p.x + 4, p.y + 1), IM_COL32_WHITE, text);
    ImGui::Dummy(ImVec2(w, h));
    if (ImGui::IsItemHovered()) {
        if (tree)
            wrapped_tooltipf(
                "%s\n%s steps/s, %.3g ms per step\nThe tree skips most pairs: it evaluated %s, "
                "as fast as direct summation at %s.\nIts forces are off by %.1e (median) against "
                "the exact sum: compare steps/s, at that accuracy.",
                r.row.kernel.c_str(), format_si(t.steps_per_s).c_str(), r.row.ms_per_step,
                interactions_text(t.interactions_per_s).c_str(),
                interactions_text(t.equivalent_direct_per_s).c_str(), r.row.error.median_rel);
        else
            wrapped_tooltipf("%s\n%s steps/s, %.3g ms per step, %s (20 flops each)", r.row.kernel.c_str(),
                              format_si(t.steps_per_s).c_str(), r.row.ms_per_step,
                              flops_text(t.gflops20).c_str());
    }
}

// The results in a window of their own beside the Kernel panel, sized to the bars (the panel keeps its size).
void race_results(PanelContext& c, RaceDriver& race) {
    const RaceReport& r = race.report();
    if (r.results.empty() || !race.show_results) return;
    const float scale = ImGui::GetIO().FontGlobalScale;
    ImGui::SetNextWindowPos(ImVec2(360 * scale, 300 * scale), ImGuiCond_FirstUseEver);
    if (ImGui::Begin("Race results", &race.show_results, ImGuiWindowFlags_AlwaysAutoResize)) {
        ImGui::Text("N = %s on %s, %.2g s each", with_commas(r.n).c_str(), r.device.c_str(), r.seconds);
        if (!r.note.empty()) {
            ImGui::PushTextWrapPos(kBarWidth * scale);
            disabled_wrapped(r.note);
            ImGui::PopTextWrapPos();
        }
        // Fastest first, bars by steps/s: the time to a result, which compares a tree with direct summation.
        double best = 0;
        for (const RaceResult& e : r.results) best = std::max(best, e.row.rate.steps_per_s);
        for (const RaceResult* e : by_steps_per_s(r)) race_bar(*e, best, kBarWidth * scale);
        ImGui::SetNextItemWidth(kBarWidth * scale);
        ImGui::InputTextWithHint("##race_export", "file (empty: race-<time> in the working directory)",
                                 &race.export_path);
        if (ImGui::Button("Export CSV")) c.state.message = race.export_report(race.export_path, false);
        ImGui::SameLine();
        if (ImGui::Button("Export JSON")) c.state.message = race.export_report(race.export_path, true);
        if (!c.state.message.empty()) {
            ImGui::PushTextWrapPos(kBarWidth * scale);
            ImGui::TextUnformatted(c.state.message.c_str());
            ImGui::PopTextWrapPos();
        }
    }
    ImGui::End();
}

}  // namespace

void race_section(PanelContext& c) {
    if (!c.state.race) return;  // a front end without the race hook (off-screen runs)
    RaceDriver& race = *c.state.race;
    ImGui::Separator();
    if (race.running()) {
        const RaceProgress p = race.progress();
        char text[160];
        // RaceProgress counts the float64 reference as a step before the entries: the bar says which.
        if (p.done == 0)
            std::snprintf(text, sizeof text, "reference forces (float64), then %zu entries", p.total - 1);
        else
            std::snprintf(text, sizeof text, "%zu of %zu entries done: %s", p.done - 1, p.total - 1,
                          p.doing.c_str());
        ImGui::ProgressBar(p.total ? float(p.done) / float(p.total) : 0.0f, ImVec2(-1, 0), text);
        if (ImGui::Button("Cancel race")) race.cancel(c.sim);
        disabled_wrapped("paused while racing; the state is put back afterwards");
        return;
    }
    if (ImGui::Button("Race")) race.start(c.sim, race.seconds);
    if (ImGui::IsItemHovered())
        wrapped_tooltipf(
            "Times every kernel variant in every precision (the CPU backend: each precision), and the tree "
            "at "
            "the theta set in Physics, on a copy of this state, then puts the simulation back exactly where "
            "it "
            "was. Each entry shows its force error against the exact sum.");
    ImGui::SameLine();
    float seconds = float(race.seconds);
    ImGui::SetNextItemWidth(120);
    if (ImGui::SliderFloat("s each", &seconds, 0.25f, 2.0f, "%.2f")) race.seconds = seconds;
    if (!race.status().empty()) ImGui::TextWrapped("%s", race.status().c_str());
    if (!race.report().results.empty() && !race.show_results && ImGui::Button("Show race results"))
        race.show_results = true;
    race_results(c, race);
}

}  // namespace nbody
