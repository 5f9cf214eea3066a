#include "app/headless_run.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "app/checkpoint.hpp"
#include "core/session/auto_step.hpp"
#include "core/physics/diagnostics.hpp"
#include "core/errors.hpp"
#include "core/session/perf_history.hpp"  // format_si
#include "core/session/run_driver.hpp"
#include "io/snapshot_file.hpp"
#include "multi/distributed_backend.hpp"
#include "scene/group_labels.hpp"
#include "core/rows/integrator.hpp"
#include "core/rows/force_method.hpp"

namespace nbody {

namespace {
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }


class Progress {
public:
    explicit Progress(bool enabled) : m_enabled(enabled), m_tty(isatty(STDERR_FILENO)) {}
    // fraction: of the steps asked for, or of the time span to --t-end; `where`: "step 10/100" or "t-end 2".
    void update(double fraction, const std::string& where, double t, double elapsed, double rate) {
        if (!m_enabled) return;
        const double since = elapsed - m_last;
        const bool last = fraction >= 1.0;
        if (!last && since < (m_tty ? 0.25 : 5.0)) return;
        m_last = elapsed;
        const double eta = fraction > 0 ? elapsed * (1.0 - fraction) / fraction : 0;
        std::fprintf(stderr, "%s%s (%3.0f%%)  t = %-10.5g %s  ETA %.3g s%s", m_tty ? "\r" : "", where.c_str(),
                     100.0 * fraction, t, (format_si(rate) + " interactions/s").c_str(), eta,
                     m_tty ? "   " : "\n");
        if (m_tty && last) std::fprintf(stderr, "\n");
        std::fflush(stderr);
    }

private:
    bool m_enabled, m_tty;
    double m_last = -1e9;
};

}  // namespace

RunSummary run_headless(Backend& backend, const RunSetup& setup, const AppOptions& o) {
    RunSummary s;
    if (setup.scene.dt_auto) s.step_note = auto_step_words(settle_auto_step(backend));
    const SimParams& p = backend.params();
    s.scene = setup.scene.name;
    s.backend = backend.name();
    s.variant = backend.kernel_label();
    s.precision = std::string(precision_name(p.precision));
    s.method = std::string(method_name(p.method));
    s.integrator = std::string(integrator_name(p.integrator));
    s.n = backend.size();
    s.dt = p.dt, s.eps = p.eps, s.G = p.G;

    State state;
    Diagnostics d0;
    if (o.diagnostics) {
        backend.read_state(state);
        d0 = compute_diagnostics(state, p.eps, p.G, p.cpu_threads);
    }

    // Chunks grow to about 0.2 s (core/run_driver) so progress updates without costing throughput. With
    // --t-end the run ends at the first step boundary at or after t_end (block steps: the first block time
    // there).
    Progress progress(!o.quiet);
    RunDriver run(backend, {o.steps, o.t_end}, 1);
    double stepping = 0;
    const WorkCount work0 = backend.work();
    const double t_start = backend.time();
    std::optional<CheckpointWriter> checkpoints;
    if (!o.checkpoint_path.empty())
        checkpoints.emplace(o.checkpoint_path, o.checkpoint_every, t_start, setup.scene.name,
                            run_group_labels(setup));
    while (!run.finished()) {
        std::optional<double> land_on;  // the checkpoint times (the chunking is invisible)
        if (checkpoints && o.checkpoint_every > 0) land_on = checkpoints->next_due();
        const auto t0 = Clock::now();
        run.advance(run.next_chunk(land_on));  // the check after it synchronises with the device
        double dt_chunk = seconds_since(t0);
        if (auto* d = dynamic_cast<DistributedBackend*>(&backend))  // every rank must pick the same next chunk
            dt_chunk = d->exchange().max_over_ranks(dt_chunk);
        stepping += dt_chunk;
        const long long done = run.steps_done();
        const double rate = throughput(backend.work() - work0, stepping).interactions_per_s;
        if (o.t_end)
            progress.update(std::min(1.0, (backend.time() - t_start) / (*o.t_end - t_start)),
                            "step " + std::to_string(done) + ", t-end " + std::to_string(*o.t_end),
                            backend.time(), stepping, rate);
        else
            progress.update(double(done) / double(o.steps),
                            "step " + std::to_string(done) + "/" + std::to_string(o.steps), backend.time(),
                            stepping, rate);
        if (checkpoints) checkpoints->maybe_write(backend);
        run.adapt(dt_chunk);
    }
    if (o.t_end && !run.reached_end_time())
        std::fprintf(stderr, "note: stopped by --steps %lld at t = %.6g, before --t-end %.6g\n", o.steps,
                     backend.time(), *o.t_end);
    if (checkpoints) checkpoints->write(backend);
    backend.read_state(state);
    state.time = backend.time();
    if (!o.save_path.empty()) write_snapshot(state, {p.G, p.eps, p.dt, setup.scene.name}, o.save_path);
    s.steps = run.steps_done();
    s.sim_time = backend.time();
    s.wall_seconds = stepping;
    s.rate = throughput(backend.work() - work0, stepping);
    if (o.diagnostics) {
        const Diagnostics d1 = compute_diagnostics(state, p.eps, p.G, p.cpu_threads);
        s.diagnostics = true;
        s.energy_start = d0.total;
        s.energy_end = d1.total;
        s.rel_energy_error = relative_energy_error(d0, d1);
        s.momentum_drift = momentum_drift(d0, d1);
        s.virial_ratio_end = d1.virial_ratio;
    }
    return s;
}

}  // namespace nbody
