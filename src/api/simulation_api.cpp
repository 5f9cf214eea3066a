// nbody::api::Simulation: a thin facade over a Backend (made by engine/backend_factory), the scene reader and
// the snapshot writers. The host copy of the state stands in for the backend until one is needed.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

#include "api/api_params.hpp"
#include "api/simulation_access.hpp"
#include "core/backend/backend.hpp"
#include "core/physics/diagnostics.hpp"
#include "core/errors.hpp"
#include "core/limits.hpp"
#include "core/session/run_driver.hpp"
#include "core/session/simulation.hpp"
#include "engine/backend_factory.hpp"
#include "io/snapshot_file.hpp"
#include "nbody/nbody.hpp"
#include "scene/scene_file.hpp"

namespace nbody::api {

struct Simulation::Impl {
    Params params;
    SimParams sim;
    std::string name;  // the scene's, for snapshots
    // The start state until a backend exists; after that the last state read back (fresh unless stepped
    // since).
    State state;
    bool state_fresh = true;
    std::unique_ptr<Backend> backend;
    BackendFactory factory = [](const SimParams& p, BackendChoice* c) { return make_backend(p, c); };
    BackendChoice choice;
    // The energy baseline: the state it is measured at (kept from the first step until measured), and the
    // measurement. Neither: the baseline is the current state.
    std::optional<State> start;
    std::optional<nbody::Diagnostics> d0;

    Impl(State s, const Params& p, std::string scene_name)
        : params(p), sim(to_sim_params(p)), name(std::move(scene_name)), state(std::move(s)) {}

    Backend& ensure_backend() {
        if (!backend) {
            auto b = factory(sim, &choice);
            b->reset(state, sim);
            backend = std::move(b);
        }
        return *backend;
    }
    const State& current() {
        if (!state_fresh) backend->read_state(state);
        state_fresh = true;
        return state;
    }
    void keep_baseline_state() {
        if (!d0 && !start) start = current();
    }
    // Runs the backend to `goal` (core/run_driver): throws Error naming the step and body of a blow-up.
    void run(const RunGoal& goal) {
        Backend& b = ensure_backend();
        state_fresh = false;
        RunDriver(b, goal).run();
    }
    void copy3(const std::vector<Double4>& from, double* out) const {
        for (std::size_t i = 0; i < from.size(); ++i) {
            out[3 * i] = from[i].x, out[3 * i + 1] = from[i].y, out[3 * i + 2] = from[i].z;
        }
    }
};

namespace {
// Every value finite (and, for masses, >= 0): ParamError "positions[3]: y is nan; every value must be
// finite", the field naming the array and the body as numpy would index it.
void check_array(const char* name, const double* a, std::size_t n, std::size_t columns, bool mass) {
    if (!a) throw ParamError(name, "is a null pointer");
    for (std::size_t i = 0; i < n * columns; ++i) {
        const std::string field = std::string(name) + "[" + std::to_string(i / columns) + "]";
        const std::string what = columns == 3 ? std::string(1, "xyz"[i % 3]) + " is " : "is ";
        if (!std::isfinite(a[i]))
            throw ParamError(field, what + limits::format_number(a[i]) + "; every value must be finite");
        if (mass && a[i] < 0)
            throw ParamError(field, what + limits::format_number(a[i]) + "; masses must be >= 0");
    }
}

std::array<double, 3> arr(const Double3& v) {
    return {v.x, v.y, v.z};
}
}  // namespace

Simulation::Simulation(std::unique_ptr<Impl> impl) : m(std::move(impl)) {}
Simulation::Simulation(Simulation&&) noexcept = default;
Simulation& Simulation::operator=(Simulation&&) noexcept = default;
Simulation::~Simulation() = default;

Simulation Simulation::from_scene(const std::string& path, std::size_t bodies,
                                  std::optional<std::uint64_t> seed) {
    SceneSpec scene = load_scene_file(path);
    if (bodies > 0) rescale_bodies(scene, bodies);
    if (seed) scene.seed = *seed;
    const Params p = from_sim_params(scene.apply_to({}));
    return Simulation(std::make_unique<Impl>(build_scene(scene), p, scene.name));
}

Simulation Simulation::from_arrays(std::size_t n, const double* positions, const double* velocities,
                                   const double* masses, const Params& params) {
    if (n == 0) throw ParamError("n", "must be at least 1 body");
    check_array("positions", positions, n, 3, false);
    check_array("velocities", velocities, n, 3, false);
    check_array("masses", masses, n, 1, true);
    State s;
    s.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        s.pos_mass[i] = {positions[3 * i], positions[3 * i + 1], positions[3 * i + 2], masses[i]};
        s.vel[i] = {velocities[3 * i], velocities[3 * i + 1], velocities[3 * i + 2], 0.0};
    }
    return Simulation(std::make_unique<Impl>(std::move(s), params, "arrays"));
}

Simulation Simulation::from_snapshot(const std::string& path) {
    Snapshot snap = read_snapshot(path);
    SimParams sim;
    sim.G = snap.info.G.value_or(sim.G);
    sim.eps = snap.info.eps.value_or(sim.eps);
    sim.dt = snap.info.dt.value_or(sim.dt);
    const std::string name = snap.info.scene.empty() ? path : snap.info.scene;
    check_state_finite(snap.state);
    if (snap.state.size() == 0) throw Error(path + ": no bodies");
    return Simulation(std::make_unique<Impl>(std::move(snap.state), from_sim_params(sim), name));
}

const Params& Simulation::params() const {
    return m->params;
}

void Simulation::set_params(const Params& p) {
    const SimParams next = to_sim_params(p);
    const SimParams now = m->sim;
    if (m->backend && needs_new_backend(next, now)) {
        BackendChoice choice;
        auto fresh = m->factory(next, &choice);
        fresh->reset(m->current(), next);  // the bodies carry over; on a throw the running backend stays
        fresh->set_steps_taken(m->backend->steps_taken());
        m->backend = std::move(fresh);
        m->choice = choice;
    } else if (m->backend) {
        m->backend->set_params(next);
    }
    m->sim = next;
    m->params = p;
    if (next.eps != now.eps || next.G != now.G) m->start.reset(), m->d0.reset();
}

void Simulation::step(long long k) {
    if (k < 0) throw ParamError("k", "must be >= 0 (got " + std::to_string(k) + ")");
    if (k == 0) return;
    m->keep_baseline_state();
    m->run({k, std::nullopt});
}

double Simulation::evolve(double t_end) {
    if (!std::isfinite(t_end))
        throw ParamError("t_end", "must be finite (got " + std::to_string(t_end) + ")");
    if (reached_time(time(), t_end)) return time();
    m->keep_baseline_state();
    m->run({std::numeric_limits<long long>::max(), t_end});
    return time();
}

std::size_t Simulation::size() const {
    return m->state.size();
}
double Simulation::time() const {
    return m->backend ? m->backend->time() : m->state.time;
}
long long Simulation::steps() const {
    return m->backend ? m->backend->steps_taken() : 0;
}

void Simulation::get_positions(double* out) const {
    m->copy3(m->current().pos_mass, out);
}
void Simulation::get_velocities(double* out) const {
    m->copy3(m->current().vel, out);
}
void Simulation::get_masses(double* out) const {
    const State& s = m->current();
    for (std::size_t i = 0; i < s.size(); ++i) out[i] = s.pos_mass[i].w;
}
void Simulation::get_groups(std::uint32_t* out) const {
    const State& s = m->current();
    std::copy(s.group.begin(), s.group.end(), out);
}
void Simulation::get_accelerations(double* out) const {
    std::vector<Double4> acc;
    m->ensure_backend().read_accelerations(acc);
    m->copy3(acc, out);
}

void Simulation::get_potentials(double* out) const {
    const std::vector<double> phi = body_potentials(m->current(), m->sim.eps, m->sim.G, m->sim.cpu_threads);
    std::copy(phi.begin(), phi.end(), out);
}

Diagnostics Simulation::diagnostics() const {
    const State& s = m->current();
    const SimParams& p = m->sim;
    if (!m->d0) {
        m->d0 = compute_diagnostics(m->start ? *m->start : s, p.eps, p.G, p.cpu_threads);
        m->start.reset();
    }
    const nbody::Diagnostics d = compute_diagnostics(s, p.eps, p.G, p.cpu_threads);
    Diagnostics out;
    out.time = time();
    out.mass = d.mass, out.kinetic = d.kinetic, out.potential = d.potential, out.total = d.total;
    out.virial_ratio = d.virial_ratio;
    out.momentum = arr(d.momentum), out.angular_momentum = arr(d.angular_momentum);
    out.com_position = arr(d.com_position), out.com_velocity = arr(d.com_velocity);
    out.energy_error = relative_energy_error(*m->d0, d);
    out.momentum_drift = momentum_drift(*m->d0, d);
    return out;
}

std::optional<BlockLevels> Simulation::block_levels() const {
    const Readouts r = m->ensure_backend().readouts(ReadoutAsk::levels());
    if (!r.block_levels) return std::nullopt;
    const nbody::BlockLevels& l = *r.block_levels;
    return BlockLevels{l.dt_max, l.count, l.last_active};
}

void Simulation::save(const std::string& path) const {
    write_snapshot(m->current(), {m->sim.G, m->sim.eps, m->sim.dt, m->name}, path);
}

std::string Simulation::backend_name() const {
    return m->ensure_backend().name();
}
std::string Simulation::backend_note() const {
    m->ensure_backend();
    return m->choice.note;
}
std::string Simulation::kernel() const {
    return m->ensure_backend().kernel_label();
}

void SimulationAccess::set_backend_factory(Simulation& s, BackendFactory f) {
    s.m->factory = std::move(f);
}

}  // namespace nbody::api
