// Performance and Diagnostics panels: live numbers and history plots, with markers where the kernel
// variant or backend changed.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

#include "ui/panels.hpp"

namespace nbody {

namespace {

// A line plot of `values` at wall times `times` (s), with vertical markers at `marks` and their labels
// on hover. The x axis spans the history's keep window ending now.
void history_plot(const char* label, const std::vector<float>& values, const std::vector<double>& times,
                  const std::deque<PerfMarker>& marks, const char* overlay) {
    const float h = 60 * ImGui::GetIO().FontGlobalScale;
    const float top = values.empty() ? 1.0f : *std::max_element(values.begin(), values.end()) * 1.1f;
    ImGui::SetNextItemWidth(-FLT_MIN);  // 1.86's PlotLines takes width 0 as "item width", not -1
    ImGui::PlotLines(label, values.empty() ? nullptr : values.data(), int(values.size()), 0, overlay, 0.0f,
                     std::max(top, 1e-12f), ImVec2(0, h));
    if (values.empty() || times.empty()) return;
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    // PlotLines spreads samples evenly and they are about evenly spaced in time, so a marker's x is its
    // time between the first and the last sample's.
    const double t0 = times.front(), t1 = std::max(times.back(), t0 + 1e-9);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    for (const PerfMarker& m : marks) {
        if (m.wall < t0 || m.wall > t1) continue;
        const float x = a.x + float((m.wall - t0) / (t1 - t0)) * (b.x - a.x);
        dl->AddLine(ImVec2(x, a.y), ImVec2(x, b.y), IM_COL32(255, 220, 60, 220), 2.0f);
        if (ImGui::IsMouseHoveringRect(ImVec2(x - 4, a.y), ImVec2(x + 4, b.y)))
            ImGui::SetTooltip("%s", m.label.c_str());
    }
}

std::string si(double v, const char* unit) {
    static const char* prefixes[] = {"", "k", "M", "G", "T", "P"};
    int i = 0;
    while (std::fabs(v) >= 1000 && i < 5) v /= 1000, ++i;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3g %s%s", v, prefixes[i], unit);
    return buf;
}

}  // namespace

void performance_panel(PanelContext& c) {
    PerfHistory& h = c.sim.perf();
    const PerfSample s = h.latest();
    ImGui::Text("interactions/s  %s", si(s.rate.interactions_per_s, "").c_str());
    ImGui::Text("Gflop/s  %.4g (20/int)   %.4g (38/int)", s.rate.gflops20, s.rate.gflops38);
    if (s.rate.flops_per_pair != kFlopsPerInteractionNvidia)
        ImGui::Text("Gflop/s  %.4g at %g flops per interaction (%s)", s.rate.gflops, s.rate.flops_per_pair,
                    std::string(integrator_name(c.sim.params().integrator)).c_str());
    ImGui::Text("steps/s  %.4g    frames/s  %.1f    steps/frame %d", s.rate.steps_per_s, s.frames_per_s,
                c.sim.steps_last_frame());
    // Block steps: a step advances only the active bodies, so pairs / (block steps x N) is the mean active
    // count.
    if (c.sim.params().integrator == Integrator::HermiteBlock && s.rate.steps_per_s > 0 &&
        c.sim.backend().size() > 0)
        ImGui::Text("block steps/s  %.4g    mean active  %.1f of %zu", s.rate.steps_per_s,
                    s.rate.interactions_per_s / s.rate.steps_per_s / double(c.sim.backend().size()),
                    c.sim.backend().size());
    ImGui::TextWrapped("kernel: %s", c.sim.backend().kernel_label().c_str());
    // Several GPUs: each one's share of the last step (force kernel, then its positions sent to the others).
    for (const DeviceTiming& d : c.sim.backend().device_timings())
        ImGui::Text("%s  kernel %.3f ms   exchange %.3f ms", d.device.c_str(), d.kernel_ms, d.exchange_ms);
    ImGui::Separator();
    ImGui::TextWrapped("positions: %s", c.view.upload_path.c_str());
    if (!c.view.upload_note.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("%s", c.view.upload_note.c_str());
        ImGui::PopStyleColor();
    }
    const FrameTimes& t = c.view.times;
    ImGui::Text("frame %.2f ms = sim %.2f + %s %.2f", t.frame * 1e3, t.sim * 1e3,
                c.view.upload_path.rfind("CUDA", 0) == 0 ? "map/unmap" : "upload", t.upload * 1e3);
    ImGui::Text("                 + draw %.2f (GPU) + UI %.2f + rest", t.draw * 1e3, t.ui * 1e3);
    std::vector<float> rate, fps;
    std::vector<double> times;
    for (const PerfSample& p : h.samples()) {
        rate.push_back(float(p.rate.interactions_per_s));
        fps.push_back(float(p.frames_per_s));
        times.push_back(p.wall);
    }
    history_plot("##rate", rate, times, h.markers(), "interactions/s (30 s)");
    history_plot("##fps", fps, times, h.markers(), "frames/s");
    if (!h.markers().empty()) ImGui::TextDisabled("yellow lines: kernel or backend changed (hover)");
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", c.view.gl_renderer.c_str());
    ImGui::PopStyleColor();
}

void diagnostics_panel(PanelContext& c) {
    DiagnosticsSampler& d = c.sim.diagnostics();
    const std::size_t n = c.sim.backend().size();
    if (!d.enabled(n)) {
        ImGui::TextWrapped(
            "Energy sampling is off above N = %zu on the CPU backend (the float64 O(N^2) energy runs on one "
            "CPU core); the CUDA backend computes it on the GPU.",
            d.max_n());
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
    std::vector<float> e, p;
    for (const DiagnosticsPoint& q : d.history()) {
        e.push_back(float(q.energy_error));
        p.push_back(float(q.momentum_drift));
    }
    const float h = 60 * ImGui::GetIO().FontGlobalScale;
    const float emax = std::max(1e-12f, *std::max_element(e.begin(), e.end()) * 1.1f);
    const float pmax = std::max(1e-12f, *std::max_element(p.begin(), p.end()) * 1.1f);
    ImGui::SetNextItemWidth(-FLT_MIN);
    ImGui::PlotLines("##e", e.data(), int(e.size()), 0, "relative energy error", 0, emax, ImVec2(0, h));
    ImGui::SetNextItemWidth(-FLT_MIN);
    ImGui::PlotLines("##p", p.data(), int(p.size()), 0, "momentum drift", 0, pmax, ImVec2(0, h));
    ImGui::TextDisabled("sampled every few seconds on a background thread, since the last reset");
}

}  // namespace nbody
