#include "core/session/perf_history.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace nbody {

void PerfHistory::record_frame(double now, std::size_t n, const WorkCount& done, double step_seconds) {
    if (m_window_start < 0 || n != m_n || done.flops_per_pair != m_work.flops_per_pair) {
        // a new N or integrator starts a new window: mixed work would mislead
        m_window_start = now;
        m_work = {0, 0, done.flops_per_pair};
        m_frames = 0;
        m_step_seconds = 0;
        m_n = n;
    }
    m_work.evaluations += done.evaluations;
    m_work.pairs += done.pairs;
    m_work.body_cell += done.body_cell;
    m_work.equivalent_direct += done.equivalent_direct;
    m_step_seconds += step_seconds;
    ++m_frames;
    const double elapsed = now - m_window_start;
    if (elapsed < m_window) return;
    PerfSample s;
    s.wall = now;
    // Interactions/s over the time spent stepping (the kernel's rate), not over the frame (which
    // includes drawing): that is what compares variants.
    s.rate = throughput(m_work, m_step_seconds);
    s.frames_per_s = double(m_frames) / elapsed;
    m_samples.push_back(s);
    m_window_start = now;
    m_work = {0, 0, m_work.flops_per_pair};
    m_frames = 0;
    m_step_seconds = 0;
    trim(now);
}

void PerfHistory::mark(double now, std::string label) {
    // Changes applied together (a backend switch and the kernel it runs) share one marker.
    if (!m_markers.empty() && m_markers.back().wall == now) {
        m_markers.back().label += "; " + label;
        return;
    }
    m_markers.push_back({now, std::move(label)});
    trim(now);
}

void PerfHistory::trim(double now) {
    while (!m_samples.empty() && m_samples.front().wall < now - m_keep) m_samples.pop_front();
    while (!m_markers.empty() && m_markers.front().wall < now - m_keep) m_markers.pop_front();
}

double round_up_nice(double v) {
    if (!(v > 0) || !std::isfinite(v)) return 1;
    const double decade = std::pow(10.0, std::floor(std::log10(v)));
    for (double m : {1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0})
        if (m * decade >= v * (1 - 1e-12)) return m * decade;
    return 10 * decade;
}

SeriesScale series_scale(const std::vector<double>& values) {
    SeriesScale s;
    if (values.empty()) return s;
    s.now = values.back();
    s.min = *std::min_element(values.begin(), values.end());
    s.max = *std::max_element(values.begin(), values.end());
    s.top = s.max > 0 ? round_up_nice(s.max) : 1;
    s.bottom = s.min < 0 ? -round_up_nice(-s.min) : 0;
    if (s.max <= 0 && s.min < 0) s.top = 0;
    return s;
}

std::string format_si(double v, const std::string& unit) {
    char buf[64];
    const double a = std::fabs(v);
    if (v != 0 && a < 1e-3) {
        std::snprintf(buf, sizeof buf, "%.2e%s%s", v, unit.empty() ? "" : " ", unit.c_str());
        return buf;
    }
    static const char* prefixes[] = {"", "k", "M", "G", "T", "P"};
    int i = 0;
    while (std::fabs(v) >= 999.5 && i < 5) v /= 1000, ++i;
    std::snprintf(buf, sizeof buf, "%.3g", v);
    const std::string suffix = std::string(prefixes[i]) + unit;
    return suffix.empty() ? std::string(buf) : std::string(buf) + " " + suffix;
}

}  // namespace nbody
