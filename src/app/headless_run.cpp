#include "app/headless_run.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "core/diagnostics.hpp"
#include "core/errors.hpp"
#include "io/snapshot.hpp"
#include "multi/distributed_backend.hpp"

namespace nbody {

namespace {
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }


class Progress {
public:
    Progress(long long total, bool enabled) : m_total(total), m_enabled(enabled), m_tty(isatty(STDERR_FILENO)) {}
    void update(long long done, double t, double elapsed, double rate) {
        if (!m_enabled) return;
        const double since = elapsed - m_last;
        if (done < m_total && since < (m_tty ? 0.25 : 5.0)) return;
        m_last = elapsed;
        const double eta = done > 0 ? elapsed * double(m_total - done) / double(done) : 0;
        std::fprintf(stderr, "%sstep %lld/%lld (%3.0f%%)  t = %-10.5g %.3g interactions/s  ETA %.1f s%s",
                     m_tty ? "\r" : "", done, m_total, 100.0 * double(done) / double(m_total), t, rate, eta,
                     m_tty ? "   " : "\n");
        if (m_tty && done == m_total) std::fprintf(stderr, "\n");
        std::fflush(stderr);
    }

private:
    long long m_total;
    bool m_enabled, m_tty;
    double m_last = -1e9;
};
}  // namespace

RunSummary run_headless(Backend& backend, const RunSetup& setup, const AppOptions& o) {
    const SimParams& p = backend.params();
    RunSummary s;
    s.scene = setup.scene.name;
    s.backend = backend.name();
    s.variant = backend.kernel_label();
    s.precision = std::string(precision_name(p.precision));
    s.integrator = std::string(integrator_name(p.integrator));
    s.n = backend.size();
    s.dt = p.dt, s.eps = p.eps, s.G = p.G;

    State state;
    Diagnostics d0;
    if (o.diagnostics) {
        backend.read_state(state);
        d0 = compute_diagnostics(state, p.eps, p.G, p.cpu_threads);
    }

    // Step in chunks sized to about 0.2 s so progress updates without costing throughput.
    Progress progress(o.steps, !o.quiet);
    long long done = 0, chunk = 1;
    double stepping = 0;
    const WorkCount work0 = backend.work();
    while (done < o.steps) {
        const long long k = std::min(chunk, o.steps - done);
        const auto t0 = Clock::now();
        backend.step(static_cast<int>(k));
        backend.read_state(state);  // synchronises, and lets us catch a blow-up early
        double dt_chunk = seconds_since(t0);
        if (auto* d = dynamic_cast<DistributedBackend*>(&backend))  // every rank must pick the same next chunk
            dt_chunk = d->exchange().max_over_ranks(dt_chunk);
        stepping += dt_chunk;
        done += k;
        if (long i = first_non_finite(state); i >= 0)
            throw Error("the state became NaN or infinite at step " + std::to_string(backend.steps_taken()) +
                        " (body " + std::to_string(i) + "): dt " + std::to_string(p.dt) +
                        " is too large for eps " + std::to_string(p.eps) + "; try a smaller --dt or larger --eps");
        progress.update(done, backend.time(), stepping, throughput(backend.work() - work0, stepping).interactions_per_s);
        if (dt_chunk < 0.1) chunk = std::min<long long>(chunk * 2, 1 << 20);
    }
    if (!o.save_path.empty())
        write_snapshot_csv(state, {p.G, p.eps, p.dt, setup.scene.name}, o.save_path);
    s.steps = done;
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
