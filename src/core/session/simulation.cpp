#include "core/session/simulation.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/errors.hpp"
#include "core/rows/force_method.hpp"
#include "core/rows/integrator.hpp"
#include "core/rows/param_checks.hpp"
#include "core/session/run_driver.hpp"

namespace nbody {

namespace {
constexpr int kMaxStepsPerFrame = 10000;
constexpr double kFiniteCheckInterval = 0.25;  // s of wall time between NaN checks (a copy of N float4)

// A copy made at wall time `last` is due again `interval` later; wall_now going back (a caller with another
// clock) counts as due.
bool interval_due(double wall_now, double last, double interval) {
    return wall_now - last >= interval || wall_now < last;
}
}  // namespace

Simulation::Simulation(BackendFactory factory) : m_factory(std::move(factory)) {}

Simulation::~Simulation() {
    if (m_inflight.valid()) m_inflight.wait();  // the worker steps m_backend: it must end before the backend
}

bool needs_new_backend(const SimParams& next, const SimParams& now) {
    return next.backend != now.backend || next.cpu_threads != now.cpu_threads || next.gpus != now.gpus;
}

void Simulation::load(const State& initial, const SimParams& p) {
    finish_background_step();
    validate(p);
    const bool new_backend = !m_backend || needs_new_backend(p, m_current);
    std::unique_ptr<Backend> fresh;
    BackendChoice choice = m_choice;
    if (new_backend) {
        fresh = m_factory(p, &choice);
        try {
            fresh->reset(initial, p);  // may throw (out of memory): the running backend is untouched
        } catch (const BackendError& e) {
            // A GPU that cannot hold or run this scene: its row's stand-in (the CPU) takes it, and the note
            // (the window's banner) says why.
            const std::optional<BackendKind> stand_in = choice.stand_in;
            if (!stand_in || !fresh->caps().gpu) throw;
            SimParams instead = p;
            instead.backend = *stand_in;
            fresh = m_factory(instead, nullptr);
            fresh->reset(initial, p);
            choice = cpu_fallback_choice(p.backend, e.what());
            choice.running = *stand_in;
        }
        m_backend = std::move(fresh);
    } else {
        // Same backend: keep a copy of the running state so a failed reset (a GPU out of memory for the
        // new N) can put it back and the old scene keeps running.
        State running;
        m_backend->read_state(running);
        m_rewind.reset(0);
        m_backend->reserve_snapshots(0);  // the old timeline's memory (on a GPU) before the new N needs room
        try {
            m_backend->reset(initial, p);
        } catch (...) {
            m_backend->reset(running, m_current);
            setup_rewind();
            throw;
        }
    }
    m_choice = choice;
    m_initial = initial;
    m_current = m_pending = p;
    m_blew_up = false;
    m_error.clear();
    ++m_generation;
    m_diag.rebaseline();
    m_force_error.invalidate();
    setup_rewind();
    refresh_facts();
}

void Simulation::reset() {
    finish_background_step();
    m_backend->reset(m_initial, m_current);
    m_blew_up = false;
    m_error.clear();
    ++m_generation;
    m_diag.rebaseline();
    m_force_error.invalidate();
    setup_rewind();
    refresh_facts();
}

void Simulation::switch_backend(const SimParams& p) {
    State s;
    m_backend->read_state(s);  // the particles stay where they are
    BackendChoice choice;
    auto fresh = m_factory(p, &choice);
    fresh->reset(s, p);
    fresh->set_steps_taken(m_backend->steps_taken());  // the run goes on: its step count too
    m_backend = std::move(fresh);
    m_choice = choice;
    ++m_generation;
    m_force_error.invalidate();
    setup_rewind();
}

std::string Simulation::choices_here(const SimParams& p, const std::string& field) const {
    if (field != "precision" || needs_new_backend(p, m_current)) return "";
    std::string works;
    for (const auto& row : precision_table()) {
        SimParams q = p;
        q.precision = row.value;
        try {
            validate(q);
        } catch (const ParamError&) {
            continue;
        }
        if (m_backend->refusal(q).empty()) works += (works.empty() ? "" : " or ") + std::string(row.name);
    }
    return works.empty() ? "; no precision runs it on " + m_backend->name()
                         : "; on " + m_backend->name() + " choose " + works;
}

void Simulation::apply_pending(double wall_now) {
    if (same_params(m_pending, m_current)) return;
    const SimParams p = m_pending;
    try {
        validate(p);
        if (needs_new_backend(p, m_current)) {
            switch_backend(p);
            m_perf.mark(wall_now, "backend " + m_backend->name());
        } else {
            m_backend->set_params(p);
        }
    } catch (const ParamError& e) {
        // The advice is the whole set that runs here: the rows' words, narrowed by what this backend has code for
        // (hermite6-block in fp32: "ds and fp64" by its row, only fp64 on the CPU).
        m_error = std::string("not applied: ") + e.what() + choices_here(p, e.field);
        m_pending = m_current;  // the simulation keeps running with what worked
        return;
    } catch (const Error& e) {
        m_error = std::string("not applied: ") + e.what();
        m_pending = m_current;
        return;
    }
    // What the integrator does is not in every backend's kernel label: mark its change here (the kernel itself
    // is marked by mark_what_runs, from the backend's own label).
    if (p.integrator != m_current.integrator)
        m_perf.mark(wall_now, "integrator " + std::string(integrator_name(p.integrator)));
    if (p.eps != m_current.eps || p.G != m_current.G) m_diag.rebaseline();  // energy itself changed
    const bool new_timeline = p.precision != m_current.precision || p.integrator != m_current.integrator;
    m_current = p;
    if (new_timeline) setup_rewind();  // a GPU's saved states have the old engine's layout
}

int Simulation::steps_for_frame(double budget_s) const {
    if (!m_auto_steps) return m_current.steps_per_frame;
    if (m_sec_per_step <= 0) return 1;
    return static_cast<int>(
        std::clamp(std::floor(budget_s / m_sec_per_step), 1.0, double(kMaxStepsPerFrame)));
}

void Simulation::check_finite(double wall_now) {
    if (wall_now < m_next_finite_check) return;
    m_next_finite_check = wall_now + kFiniteCheckInterval;
    std::optional<std::string> why = blow_up(*m_backend);
    if (!why) return;
    m_blew_up = true;
    m_paused = true;  // the panel titled "Simulation stopped" offers the reset
    m_error = std::move(*why);
}

void Simulation::mark_what_runs(double wall_now) {
    // The backend's own label (Backend::kernel_label): a variant change on a backend that ignores variants leaves
    // no mark, and auto picking another kernel for a new N (a scene load) does.
    std::string label = m_backend->kernel_label();
    if (label == m_running_label) return;
    if (!m_running_label.empty()) m_perf.mark(wall_now, "kernel " + label);
    m_running_label = std::move(label);
}

int Simulation::advance_frame(double budget_s, double wall_now) {
    m_last_wall = wall_now;
    // A step on the worker: nothing else touches the backend until it is collected.
    // A frame that collects a step starts none, so the viewer reads the new positions with the backend idle.
    if (m_inflight.valid()) {
        if (collect_background_step(wall_now, false)) return m_steps_last_frame;
        m_steps_last_frame = 0;
        m_step_seconds_last_frame = 0;
        m_perf.record_frame(wall_now, m_facts.size, idle_work(m_inflight_before), 0);
        return 0;
    }
    apply_pending(wall_now);
    mark_what_runs(wall_now);
    int steps = 0;
    if (!m_blew_up && (!m_paused || m_single_step)) steps = m_paused ? 1 : steps_for_frame(budget_s);
    m_single_step = false;
    if (wants_background(steps, budget_s)) {
        start_background_step(wall_now);
        m_steps_last_frame = 0;
        m_step_seconds_last_frame = 0;
        m_perf.record_frame(wall_now, m_facts.size, idle_work(m_inflight_before), 0);
        return 0;
    }
    double seconds = 0;
    const WorkCount before = m_backend->work();
    if (steps > 0) {
        const auto t0 = std::chrono::steady_clock::now();
        const double device0 = m_backend->device_seconds();
        try {
            step_recording(steps);
        } catch (const Error& e) {
            m_error = std::string("step failed: ") + e.what();
            m_paused = true;
            steps = 0;
        }
        seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (device0 >= 0 && steps > 0)
            seconds = m_backend->device_seconds() - device0;  // timed on the device
    }
    m_perf.record_frame(wall_now, m_backend->size(), m_backend->work() - before, seconds);
    const auto t_samplers = std::chrono::steady_clock::now();
    after_steps(steps, seconds, wall_now);
    m_sampler_seconds_last_frame =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t_samplers).count();
    return steps;
}

void Simulation::after_steps(int steps, double seconds, double wall_now) {
    if (steps > 0) {
        const double per = seconds / steps;
        m_sec_per_step = m_sec_per_step > 0 ? 0.8 * m_sec_per_step + 0.2 * per : per;
        check_finite(wall_now);
    }
    m_steps_last_frame = steps;
    m_step_seconds_last_frame = steps > 0 ? seconds : 0.0;
    if (!m_blew_up) m_diag.poll(*m_backend, wall_now);
    if (!method_info(m_current.method).approximate)
        m_force_error.invalidate();  // nothing to show; a later switch back starts afresh
    else if (!m_blew_up)
        m_force_error.poll(*m_backend, wall_now);
    refresh_facts();
    refresh_tree_cells(wall_now);
    refresh_block_levels(wall_now);
}

void Simulation::refresh_block_levels(double wall_now) {
    if (!integrator_info(m_current.integrator).block_steps) {
        m_levels.reset();
        return;
    }
    // A new integrator, eta or dt restarts the steps: not worth a stale quarter second.
    const bool new_run =
        !m_levels || m_levels_generation != m_generation || !same_params(m_levels_params, m_current);
    const bool due = interval_due(wall_now, m_levels_wall, kBlockLevelsInterval);
    if (!new_run && (!due || m_levels_time == m_facts.time)) return;
    m_levels = m_backend->readouts(ReadoutAsk::levels()).block_levels;
    m_levels_generation = m_generation;
    m_levels_params = m_current;
    m_levels_time = m_facts.time;
    m_levels_wall = wall_now;
}

void Simulation::refresh_tree_cells(double wall_now) {
    const bool asked = m_cells_depth >= 0 && method_info(m_current.method).has_cells;
    if (!asked) {
        if (!m_cells.empty()) m_cells.clear(), ++m_cells_version;
        m_cells_made_depth = -1;
        return;
    }
    const bool same = m_cells_made_depth == m_cells_depth && m_cells_generation == m_generation &&
                      m_cells_time == m_facts.time;
    const bool due = interval_due(wall_now, m_cells_wall, kTreeCellsInterval);
    const bool new_ask = m_cells_made_depth != m_cells_depth || m_cells_generation != m_generation;
    if (same || (!due && !new_ask)) return;
    m_cells = m_backend->readouts(ReadoutAsk::cells(m_cells_depth)).tree_cells;
    ++m_cells_version;
    m_cells_made_depth = m_cells_depth;
    m_cells_generation = m_generation;
    m_cells_time = m_facts.time;
    m_cells_wall = wall_now;
}

}  // namespace nbody
