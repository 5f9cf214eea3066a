#include "core/session/diagnostics_sampler.hpp"

#include <algorithm>
#include <chrono>
#include "core/rows/force_method.hpp"

namespace nbody {

DiagnosticsSampler::~DiagnosticsSampler() {
    wait();
}

void DiagnosticsSampler::wait() {
    if (!m_job.valid()) return;
    const Job j = m_job.get();
    if (!m_job_stale) collect(j);
}

void DiagnosticsSampler::rebaseline() {
    // A job from before the change measures the wrong thing: it is dropped when it finishes (not waited
    // for here, which would freeze the window for as long as the O(N^2) sum takes).
    m_job_stale = m_job.valid();
    m_want_baseline = true;
    m_baseline.reset();
    m_history.clear();
    m_next_due = 0;
}

void DiagnosticsSampler::collect(const Job& j) {
    // Sample no more often than 5x the computation time, so the background core is mostly idle.
    m_interval = std::max(m_interval, 5.0 * j.seconds);
    if (m_job_is_baseline || !m_baseline) {
        m_baseline = j.d;
        m_history.clear();
        m_history.push_back({j.sim_time, 0, 0});
        return;
    }
    m_history.push_back(
        {j.sim_time, relative_energy_error(*m_baseline, j.d), momentum_drift(*m_baseline, j.d)});
    if (m_history.size() > 512) m_history.pop_front();
}

// The state a new sample is computed from; the sample is the baseline if one was asked for.
State DiagnosticsSampler::start_job(Backend& backend) {
    State copy;
    backend.read_state(copy);
    m_job_is_baseline = m_want_baseline;
    m_want_baseline = false;
    m_job_stale = false;
    return copy;
}

void DiagnosticsSampler::poll(Backend& backend, double wall_now) {
    if (m_job.valid()) {
        if (m_job.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
        wait();
    }
    if (wall_now < m_next_due) return;
    const bool on_cpu = backend.size() <= m_max_n;
    m_on_device = !on_cpu && backend.caps().gpu;
    if (!on_cpu && !m_on_device) return;
    m_next_due = wall_now + m_interval;
    if (m_on_device) {
        // The O(N^2) potential on the GPU costs about one direct step: done here, in this frame, every
        // interval. Asked first: a backend that declines costs no state copy. Beside a tree step at large N
        // it would cost many steps: not asked.
        const bool too_costly =
            method_info(backend.params().method).approximate && backend.size() > kSampledTreePotentialMaxN;
        const auto t0 = std::chrono::steady_clock::now();
        const std::optional<double> w = too_costly ? std::nullopt : backend.potential_energy();
        if (!w) {
            m_on_device = false;
            m_declined = true;
            return;
        }
        m_declined = false;
        const SimParams p = backend.params();
        const State copy = start_job(backend);
        Job j{compute_diagnostics(copy, p.eps, p.G, 1, w), copy.time, 0};
        j.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        collect(j);
        return;
    }
    const SimParams p = backend.params();
    m_job = std::async(std::launch::async, [s = start_job(backend), eps = p.eps, G = p.G] {
        const auto t0 = std::chrono::steady_clock::now();
        Job j{compute_diagnostics(s, eps, G, 1), s.time, 0};
        j.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return j;
    });
}

std::optional<DiagnosticsPoint> DiagnosticsSampler::latest() const {
    if (m_history.empty()) return std::nullopt;
    return m_history.back();
}

}  // namespace nbody
