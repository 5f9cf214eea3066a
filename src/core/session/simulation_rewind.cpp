// Simulation's rewind timeline: recording while stepping, restoring, and editing a group's mass
// before running on. The states live in the backend's snapshot slots (device memory on a GPU); the ring in
// core/session/rewind.hpp says which slot holds which step.
#include <algorithm>
#include <cmath>
#include <string>

#include "core/errors.hpp"
#include "core/session/simulation.hpp"

namespace nbody {

void Simulation::set_rewind(const RewindSettings& r) {
    finish_background_step();
    m_rewind_settings = r;
    m_rewind_settings.capacity = std::clamp(r.capacity, 0, 100000);
    setup_rewind();
}

void Simulation::setup_rewind() {
    m_rewind_note.clear();
    m_rewind.reset(0);
    if (!m_backend) return;  // set_rewind before the first load: applied by it
    const int want = m_rewind_settings.enabled ? m_rewind_settings.capacity : 0;
    try {
        m_rewind.reset(m_backend->reserve_snapshots(want, &m_rewind_note));
        record();
    } catch (const Error& e) {  // out of memory, say: the simulation runs on without a timeline
        m_rewind.reset(0);
        m_rewind_note = std::string("rewind is off: ") + e.what();
        m_backend->reserve_snapshots(0);
    }
}

void Simulation::record() {
    const int slot = m_rewind.push(m_backend->steps_taken(), m_backend->time());
    if (slot >= 0) m_backend->save_snapshot(slot);
}

void Simulation::step_recording(int k) {
    if (m_rewind.capacity() == 0) {
        m_backend->step(k);
        return;
    }
    // Stepping on from a restored state: what was saved after it belongs to the abandoned future.
    m_rewind.drop_after(m_backend->steps_taken());
    // Whole steps of dt (block steps: of the largest block step, so saves come at least as often).
    const long long stride = rewind_stride(m_rewind_settings.interval, m_current.dt);
    while (k > 0) {
        const long long now = m_backend->steps_taken();
        const long long last = m_rewind.empty() ? now : m_rewind.at(m_rewind.size() - 1).step;
        const int n = int(std::clamp<long long>(last + stride - now, 1, k));
        m_backend->step(n);
        k -= n;
        if (m_backend->steps_taken() - last >= stride) record();
    }
}

void Simulation::restore(int i) {
    finish_background_step();
    if (i < 0 || i >= m_rewind.size())
        throw Error("rewind: state " + std::to_string(i) + " outside the " + std::to_string(m_rewind.size()) +
                    " saved");
    m_backend->restore_snapshot(m_rewind.at(i).slot);
    m_force_error.invalidate();  // measured on a state no longer shown
    m_paused = true;
    m_blew_up = false;  // back before a blow-up: a way out of it
    m_error.clear();
    m_sec_per_step = 0;
}

bool Simulation::scrub_to(double t) {
    finish_background_step();
    const int i = m_rewind.nearest(t);
    if (i < 0) return false;
    const RewindRing::Entry& e = m_rewind.at(i);
    if (e.step == m_backend->steps_taken() && e.time == m_backend->time()) return false;
    restore(i);
    return true;
}

void Simulation::scale_group_mass(uint32_t group, double factor) {
    finish_background_step();
    if (!(factor > 0) || !std::isfinite(factor))
        throw Error("mass factor: must be > 0 and finite (got " + std::to_string(factor) + ")");
    State s;
    m_backend->read_state(s);
    std::size_t changed = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (i >= s.group.size() || s.group[i] != group) continue;
        s.pos_mass[i].w *= factor;
        ++changed;
    }
    if (changed == 0) throw Error("mass factor: group " + std::to_string(group) + " has no bodies");
    const long long steps = m_backend->steps_taken();
    m_backend->reset(s, m_current);  // throws keeping the state (validation, out of memory)
    m_backend->set_steps_taken(steps);
    m_diag.rebaseline();  // the energy itself changed
    m_force_error.invalidate();  // and the forces (same step count: the sampler would keep its result)
    // The state saved at this step (if any) has the old masses: it and everything after go.
    m_rewind.drop_after(steps - 1);
    try {
        record();
    } catch (const Error& e) {
        m_error = std::string("rewind: ") + e.what();
    }
}

}  // namespace nbody
