// Simulation's background steps: on a host backend a step slower than the frame runs on a worker thread, so
// the window keeps drawing (the last state), turning the camera and answering Pause at its own frame rate.
// While the step runs nothing else touches the backend: advance_frame only polls the future, the panels read
// BackendFacts copied before the step started, and backend() waits for the step. The worker runs one step
// at a time, so Pause, a parameter edit or a new scene waits at most one step.
#include <chrono>
#include <string>

#include "core/errors.hpp"
#include "core/session/simulation.hpp"

namespace nbody {

namespace {
// For the step's own duration only (the frame loop's wall_now has its own epoch).
double steady_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

bool Simulation::wants_background(int steps, double budget_s) const {
    if (!m_background_allowed || steps <= 0 || m_facts.caps.gpu) return false;  // GPU steps are queued, not waited
    // Unknown (a fresh scene or backend: its first step may take seconds) or slower than the frame's budget.
    return m_sec_per_step <= 0 || m_sec_per_step > budget_s;
}

void Simulation::start_background_step(double) {
    m_inflight_before = m_backend->work();
    // Rewind bookkeeping stays on this thread: the saved states after a restored one go now, the new state
    // is recorded when the step is collected.
    if (m_rewind.capacity() > 0) m_rewind.drop_after(m_backend->steps_taken());
    m_inflight_t0 = steady_seconds();
    Backend* backend = m_backend.get();
    m_inflight = std::async(std::launch::async, [backend] { backend->step(1); });
}

bool Simulation::collect_background_step(double wall_now, bool wait) {
    using namespace std::chrono_literals;
    if (!wait && m_inflight.wait_for(0s) != std::future_status::ready) return false;
    const double seconds = steady_seconds() - m_inflight_t0;
    int steps = 1;
    try {
        m_inflight.get();  // rethrows what the step threw
    } catch (const Error& e) {
        m_error = std::string("step failed: ") + e.what();
        m_paused = true;
        steps = 0;
    }
    if (steps > 0 && m_rewind.capacity() > 0) {
        const long long last = m_rewind.empty() ? -1 : m_rewind.at(m_rewind.size() - 1).step;
        if (last < 0 || m_backend->steps_taken() - last >= rewind_stride(m_rewind_settings.interval, m_current.dt))
            record();
    }
    m_perf.record_frame(wall_now, m_backend->size(), m_backend->work() - m_inflight_before, seconds);
    after_steps(steps, seconds, wall_now);
    return true;
}

void Simulation::finish_background_step() {
    if (m_inflight.valid()) collect_background_step(m_last_wall, true);  // the last frame's wall time
}

void Simulation::refresh_facts() {
    if (!m_backend) return;
    m_facts.name = m_backend->name();
    m_facts.kernel_label = m_backend->kernel_label();
    m_facts.caps = m_backend->caps();
    m_facts.size = m_backend->size();
    m_facts.time = m_backend->time();
    m_facts.steps = m_backend->steps_taken();
    Readouts r = m_backend->readouts(ReadoutAsk::timings());
    m_facts.kernel_choice = std::move(r.kernel_choice);
    m_facts.device_timings = std::move(r.device_timings);
    m_facts.stage_times = std::move(r.stage_times);
}

}  // namespace nbody
