#include "core/perf_history.hpp"

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
    m_work.evaluations = 0;
    m_work.pairs = 0;
    m_frames = 0;
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
