// Performance and Diagnostics panels: live numbers and history plots, with markers where the kernel
// variant or backend changed.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/limits.hpp"
#include "core/rows/integrator.hpp"
#include "ui/panels.hpp"
#include "ui/plain_words.hpp"

namespace nbody {

namespace {

// A history plot with its scale: a title line with the newest value and the window's min and max (units
// included), the y range from 0 to a round number written at the top-left corner, the time span along the
// bottom, and a vertical line where a marker is, its label at the top and in full on hover.
void history_plot(const char* id, const std::string& title, const std::vector<double>& values,
                  const std::vector<double>& times, const std::deque<PerfMarker>& marks,
                  const std::function<std::string(double)>& fmt) {
    const SeriesScale sc = series_scale(values);
    ImGui::TextUnformatted(title.c_str());
    if (!values.empty()) {
        ImGui::SameLine();
        ImGui::TextDisabled("now %s   min %s   max %s", fmt(sc.now).c_str(), fmt(sc.min).c_str(), fmt(sc.max).c_str());
    }
    std::vector<float> v(values.begin(), values.end());
    const float h = 70 * ImGui::GetIO().FontGlobalScale * ImGui::GetFontSize() / 13.0f;
    ImGui::SetNextItemWidth(-FLT_MIN);  // 1.86's PlotLines takes width 0 as "item width", not -1
    ImGui::PlotLines(id, v.empty() ? nullptr : v.data(), int(v.size()), 0, nullptr, float(sc.bottom), float(sc.top),
                     ImVec2(0, h));
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 axis = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const float pad = 3, line = ImGui::GetTextLineHeight();
    dl->AddText(ImVec2(a.x + pad, a.y + 1), axis, fmt(sc.top).c_str());
    dl->AddText(ImVec2(a.x + pad, b.y - line - 1), axis, fmt(sc.bottom).c_str());
    if (times.size() < 2) return;
    // PlotLines spreads samples evenly and they are about evenly spaced in time, so a marker's x is its
    // time between the first and the last sample's.
    const double t0 = times.front(), t1 = std::max(times.back(), t0 + 1e-9);
    char span[32];
    std::snprintf(span, sizeof span, "last %.0f s", t1 - t0);
    dl->AddText(ImVec2(b.x - ImGui::CalcTextSize(span).x - pad, b.y - line - 1), axis, span);
    for (const PerfMarker& m : marks) {
        if (m.wall < t0 || m.wall > t1) continue;
        const float x = a.x + float((m.wall - t0) / (t1 - t0)) * (b.x - a.x);
        dl->AddLine(ImVec2(x, a.y), ImVec2(x, b.y), IM_COL32(255, 220, 60, 220), 2.0f);
        const std::string shortened = m.label.size() > 18 ? m.label.substr(0, 17) + "..." : m.label;
        dl->AddText(ImVec2(x + 3, a.y + line + 2), IM_COL32(255, 220, 60, 255), shortened.c_str());
        if (ImGui::IsMouseHoveringRect(ImVec2(x - 4, a.y), ImVec2(x + 4, b.y)))
            wrapped_tooltipf("%s", m.label.c_str());
    }
}

std::string si(double v, const char* unit) { return format_si(v, unit); }

// A tree's interactions per body and step, body-body (the near bodies, one by one) and body-cell (far groups
// as one cell): rate / steps per second / N. Direct summation's is N body-body, so the line is the tree's
// saving.
void tree_work_per_body(const Throughput& r, std::size_t n) {
    if (r.body_cell_per_s <= 0 || r.steps_per_s <= 0 || n == 0) return;
    const double per = r.steps_per_s * double(n);
    ImGui::Text("per body a step: %.0f body-body + %.0f body-cell (direct: %zu)", r.body_body_per_s / per,
                r.body_cell_per_s / per, n);
    if (ImGui::IsItemHovered())
        wrapped_tooltipf(
            "The pulls the tree computed for each body in each step: nearby bodies one by one, far "
            "groups of bodies as one cell. Direct summation computes one pull from every body.");
}

// Block steps: one bar per level from the longest step in use to the shortest, its height log-scaled so a
// binary's two bodies still show beside a million on one level; the step under each bar and the count over it
// where they fit, both in full on hover.
void block_levels_plot(const BlockLevels& l, std::size_t n) {
    std::size_t first = 0;
    while (first < l.count.size() && l.count[first] == 0) ++first;
    if (first == l.count.size()) return;
    const std::size_t bars = l.count.size() - first;
    const std::size_t most = *std::max_element(l.count.begin(), l.count.end());
    // The largest step allowed (dt as a power of two) may hold no one: the bars start at the first that does.
    ImGui::TextWrapped("bodies on each time step, the largest %s (bar height: log scale)",
                       block_step_text(l.dt_max).c_str());
    const float line = ImGui::GetTextLineHeight(), width = ImGui::GetContentRegionAvail().x;
    const float plot_h = 4.5f * line;
    ImGui::InvisibleButton("##levels", ImVec2(width, plot_h + line + 2));
    const ImVec2 a = ImGui::GetItemRectMin();
    const ImVec2 b(ImGui::GetItemRectMax().x, a.y + plot_h);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(a, b, ImGui::GetColorU32(ImGuiCol_FrameBg));
    const float slot = std::max(1.0f, width / float(bars));
    const ImU32 bar = ImGui::GetColorU32(ImGuiCol_PlotHistogram), text = ImGui::GetColorU32(ImGuiCol_Text);
    const ImU32 axis = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    auto step_of = [&](std::size_t k) { return block_step_text(std::ldexp(l.dt_max, -int(k))); };
    // Steps and counts each every `stride` bars, their widest deciding, so neighbours never overlap.
    float step_w = 0, count_w = 0;
    for (std::size_t k = first; k < l.count.size(); ++k) {
        step_w = std::max(step_w, ImGui::CalcTextSize(step_of(k).c_str()).x);
        count_w = std::max(count_w, ImGui::CalcTextSize(format_si(double(l.count[k])).c_str()).x);
    }
    const std::size_t step_stride = std::size_t(std::ceil((step_w + 6) / slot));
    const std::size_t count_stride = std::size_t(std::ceil((count_w + 6) / slot));
    // A label centred on its bar, kept inside the plot's width.
    auto label = [&](const std::string& t, float mid, float y, ImU32 colour) {
        const float w = ImGui::CalcTextSize(t.c_str()).x;
        dl->AddText(ImVec2(std::max(a.x, std::min(mid - 0.5f * w, b.x - w)), y), colour, t.c_str());
    };
    const double top = std::log10(1.0 + double(most));
    for (std::size_t i = 0; i < bars; ++i) {
        const std::size_t k = first + i, c = l.count[k];
        const float x0 = a.x + slot * float(i), mid = x0 + 0.5f * slot;
        const float h = float(std::log10(1.0 + double(c)) / top) * (plot_h - line - 4);
        const float half = 0.5f * std::max(2.0f, std::min(0.8f * slot, 3.0f * line));
        if (c > 0) dl->AddRectFilled(ImVec2(mid - half, b.y - h), ImVec2(mid + half, b.y), bar);
        if (i % step_stride == 0) label(step_of(k), mid, b.y + 1, axis);
        if (i % count_stride == 0) label(format_si(double(c)), mid, b.y - h - line - 1, text);
        const float mouse = ImGui::GetIO().MousePos.x;
        if (ImGui::IsItemHovered() && mouse >= x0 && mouse < x0 + slot)
            wrapped_tooltipf("step %s (level %zu): %zu bodies, %.3g%%", step_of(k).c_str(), k, c,
                              n > 0 ? 100.0 * double(c) / double(n) : 0.0);
    }
    if (l.last_active > 0 && n > 0)
        ImGui::Text("last block step: %zu of %zu active (%.3g%%)", l.last_active, n,
                    100.0 * double(l.last_active) / double(n));
    else
        disabled_wrapped("no block step since the start or the last change");
}

}  // namespace

// The newest sample that saw a step finish: with one step running beside the frames for seconds, most
// half-second samples hold none, and "0 steps/s" would say the simulation stopped. Paused: the newest one.
PerfSample rate_sample(Simulation& sim) {
    const std::deque<PerfSample>& all = sim.perf().samples();
    if (!sim.paused())
        for (auto it = all.rbegin(); it != all.rend(); ++it)
            if (it->rate.steps_per_s > 0) return *it;
    return sim.perf().latest();
}

std::string rates_line(Simulation& sim) {
    // "12.5 k steps/s": the prefix apart from a word unit, as "2.52 G interactions/s".
    return format_si(sim.perf().latest().frames_per_s) + " frames/s   " +
           format_si(rate_sample(sim).rate.steps_per_s) + " steps/s";
}

namespace {

// Where the frame's time went, on the frame's own thread (the parts add up to the whole); the GPU's drawing
// and a step running beside the frames are on other clocks and said apart.
void frame_time_lines(PanelContext& c) {
    const FrameTimes& t = c.view.times;
    const double rest = std::max(0.0, t.frame - t.sim_frame - t.upload - t.draw - t.ui);
    ImGui::TextWrapped(
        "frame %.3g ms = stepping %.3g + copying %.3g + drawing %.3g + panels %.3g + other %.3g",
        t.frame * 1e3, t.sim_frame * 1e3, t.upload * 1e3, t.draw * 1e3, t.ui * 1e3, rest * 1e3);
    if (ImGui::IsItemHovered())
        wrapped_tooltipf(
            "Milliseconds of one frame on the program's own thread. \"other\" is mostly waiting for "
            "the screen's next refresh (vsync) and handling input.");
    if (t.draw_gpu > 0) ImGui::TextDisabled("the graphics card drew for %.3g ms", t.draw_gpu * 1e3);
    if (t.density_gpu > 0) ImGui::TextDisabled("of it the density grid %.3g ms", t.density_gpu * 1e3);
}
}  // namespace

void performance_panel(PanelContext& c) {
    PerfHistory& h = c.sim.perf();
    const PerfSample s = rate_sample(c.sim);
    ImGui::TextUnformatted(interactions_text(s.rate.interactions_per_s).c_str());
    if (ImGui::IsItemHovered())
        wrapped_tooltipf("Pairs of bodies whose pull was computed, per second: N x N per step for direct "
                          "summation");
    // A method that skips pairs (a tree) shows what it evaluated beside what direct summation would have taken.
    if (s.rate.body_cell_per_s > 0) {
        ImGui::TextWrapped("body-body %s, body-cell %s; direct summation would need %s",
                           si(s.rate.body_body_per_s, "/s").c_str(), si(s.rate.body_cell_per_s, "/s").c_str(),
                           si(s.rate.equivalent_direct_per_s, "/s").c_str());
    }
    tree_work_per_body(s.rate, c.sim.facts().size);
    ImGui::TextWrapped("%s (20 flops each), %s (38 flops each)", flops_text(s.rate.gflops20).c_str(),
                       flops_text(s.rate.gflops38).c_str());
    if (ImGui::IsItemHovered())
        wrapped_tooltipf("The same speed as floating-point operations per second. Papers count one "
                          "interaction as 20 flops (NVIDIA's convention) or 38 (the GRAPE convention, with the "
                          "division and square root counted in full), so both are shown.");
    if (s.rate.flops_per_pair != kFlopsPerInteractionNvidia)
        ImGui::TextWrapped("%s at %g flops per interaction (%s)", flops_text(s.rate.gflops).c_str(),
                           s.rate.flops_per_pair,
                           std::string(integrator_name(c.sim.params().integrator)).c_str());
    ImGui::Text("%s   %s", (format_si(s.rate.steps_per_s) + " steps/s").c_str(),
                (format_si(h.latest().frames_per_s) + " frames/s").c_str());
    if (c.sim.stepping_in_background() ||
        (c.sim.steps_last_frame() == 0 && c.sim.seconds_per_step() > 0.05 && !c.sim.paused()))
        ImGui::TextWrapped("one step at a time beside the frames, %.3g s each", c.sim.seconds_per_step());
    else
        ImGui::Text("steps/frame %d", c.sim.steps_last_frame());
    // Block steps: a step evaluates only the active bodies, so the direct-summation equivalent (active x N
    // pairs, the tree's too) over block steps x N is the mean active count.
    if (integrator_info(c.sim.params().integrator).block_steps && s.rate.steps_per_s > 0 &&
        c.sim.facts().size > 0)
        ImGui::Text("block steps/s  %.3g    mean active  %.0f of %zu", s.rate.steps_per_s,
                    s.rate.equivalent_direct_per_s / s.rate.steps_per_s / double(c.sim.facts().size),
                    c.sim.facts().size);
    if (const std::optional<BlockLevels>& levels = c.sim.block_levels())
        block_levels_plot(*levels, c.sim.facts().size);
    ImGui::TextWrapped("kernel: %s", c.sim.facts().kernel_label.c_str());
    if (!c.sim.facts().stage_times.empty()) ImGui::TextWrapped("%s", c.sim.facts().stage_times.c_str());
    // Several GPUs: each one's share of the last step (force kernel, then its positions sent to the others).
    for (const DeviceTiming& d : c.sim.facts().device_timings)
        ImGui::Text("%s  kernel %.3g ms   exchange %.3g ms", d.device.c_str(), d.kernel_ms, d.exchange_ms);
    ImGui::Separator();
    ImGui::TextWrapped("positions: %s", c.view.upload_path.c_str());
    if (!c.view.upload_note.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("%s", c.view.upload_note.c_str());
        ImGui::PopStyleColor();
    }
    frame_time_lines(c);
    std::vector<double> rate, gflops, fps, times;
    for (const PerfSample& p : h.samples()) {
        rate.push_back(p.rate.interactions_per_s);
        gflops.push_back(p.rate.gflops);
        fps.push_back(p.frames_per_s);
        times.push_back(p.wall);
    }
    history_plot("##fps", "frames/s", fps, times, h.markers(), [](double v) { return si(v, "Hz"); });
    history_plot("##rate", "interactions/s", rate, times, h.markers(), [](double v) { return si(v, "/s"); });
    char flops[64];
    std::snprintf(flops, sizeof flops, "Gflop/s (%g flops per interaction)", s.rate.flops_per_pair);
    history_plot("##gflops", flops, gflops, times, h.markers(),
                 [](double v) { return si(v * 1e9, "flop/s"); });
    if (!h.markers().empty()) disabled_wrapped("yellow lines: the kernel, precision, integrator or backend changed");
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", c.view.gl_renderer.c_str());
    ImGui::PopStyleColor();
}

void diagnostics_panel(PanelContext& c) {
    DiagnosticsSampler& d = c.sim.diagnostics();
    const std::size_t n = c.sim.facts().size;
    if (!d.enabled(n) && d.declined()) {
        ImGui::TextWrapped(
            "Energy sampling is off: at N = %s the exact O(N^2) energy would take as long as many tree steps "
            "and stall the picture each time. Direct summation, or the tree at up to 262,144 bodies, samples it.",
            with_commas(n).c_str());
        return;
    }
    if (!d.enabled(n)) {
        ImGui::TextWrapped(
            "Energy sampling is off above N = %s on the CPU backend (the float64 O(N^2) energy runs on one "
            "CPU core); the CUDA backend computes it on the GPU.",
            with_commas(d.max_n()).c_str());
        return;
    }
    const auto last = d.latest();
    if (!d.baseline() || !last) {
        ImGui::Text("measuring the reference energy...");
        return;
    }
    ImGui::Text("E0 = %.8g   (potential %s)", d.baseline()->total,
                d.on_device() ? "on the GPU: float32 pair sums, resolves |dE/E0| ~ 1e-6" : "float64 on a CPU core");
    ImGui::Text("energy error  |dE/E0| = %.3e   (t = %.4g)", last->energy_error, last->sim_time);
    ImGui::Text("momentum drift         = %.3e", last->momentum_drift);
    std::vector<double> e, p, t;
    for (const DiagnosticsPoint& q : d.history()) {
        e.push_back(q.energy_error);
        p.push_back(q.momentum_drift);
        t.push_back(q.sim_time);
    }
    const std::deque<PerfMarker> none;
    auto sci = [](double v) {
        char b[32];
        std::snprintf(b, sizeof b, "%.2e", v);
        return std::string(b);
    };
    history_plot("##e", "relative energy error |dE/E0|", e, {}, none, sci);
    history_plot("##p", "momentum drift |dP|/sum m|v|", p, {}, none, sci);
    disabled_wrapped("sampled every few seconds on a background thread, since the last reset");
}

}  // namespace nbody
