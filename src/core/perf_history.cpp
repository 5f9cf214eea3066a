#include "core/perf_history.hpp"

namespace nbody {

void PerfHistory::record_frame(double now, std::size_t n, long long steps, double step_seconds) {
    if (m_window_start < 0 || n != m_n) {  // a new N starts a new window: mixed N would mislead
        m_window_start = now;
        m_steps = m_frames = 0;
        m_step_seconds = 0;
        m_n = n;
    }
    m_steps += steps;
    m_step_seconds += step_seconds;
    ++m_frames;
    const double elapsed = now - m_window_start;
    if (elapsed < m_window) return;
    PerfSample s;
    s.wall = now;
    // Interactions/s over the time spent stepping (the kernel's rate), not over the frame (which
    // includes drawing): that is what compares variants.
    s.rate = throughput(n, m_steps, m_step_seconds);
    s.frames_per_s = double(m_frames) / elapsed;
    m_samples.push_back(s);
    m_window_start = now;
    m_steps = m_frames = 0;
    m_step_seconds = 0;
    trim(now);
}

void PerfHistory::mark(double now, std::string label) {
    m_markers.push_back({now, std::move(label)});
    trim(now);
}

void PerfHistory::trim(double now) {
    while (!m_samples.empty() && m_samples.front().wall < now - m_keep) m_samples.pop_front();
    while (!m_markers.empty() && m_markers.front().wall < now - m_keep) m_markers.pop_front();
}

}  // namespace nbody
