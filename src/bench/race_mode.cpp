// nbody-bench --race scene.toml: the kernel race (race.hpp) on the scene's state, on the CUDA backend (every
// variant in every precision) or the CPU one (--cpu, or no GPU: its precisions), as a table, a text bar chart
// and optional CSV / JSON files.
#include <chrono>
#include <cstdio>
#include <memory>

#include "bench/bench_cli.hpp"
#include "bench/bench_output.hpp"
#include "bench/race_output.hpp"
#include "core/perf_history.hpp"  // format_si
#include "cpu/cpu_backend.hpp"
#include "scene/scene.hpp"
#include "scene/scene_file.hpp"
#ifdef NBODY_HAVE_CUDA
#include "cuda_backend.hpp"
#endif

namespace nbody {

namespace {

// The CUDA backend unless --cpu or there is none (then the reason on stderr); the timer that goes with it.
std::unique_ptr<Backend> race_backend(const BenchOptions& o, const SimParams& p, StepTimer& timer) {
    timer = host_clock_ms;
#ifdef NBODY_HAVE_CUDA
    if (!o.cpu) {
        std::string why, note;
        if (auto gpu = try_make_cuda_backend(p, &why, &note)) {
            if (!note.empty()) std::fprintf(stderr, "nbody-bench: %s\n", note.c_str());
            timer = cuda_event_ms;
            return gpu;
        }
        std::fprintf(stderr, "nbody-bench: no CUDA backend (%s): racing the CPU backend\n", why.c_str());
    }
#else
    if (!o.cpu) std::fprintf(stderr, "nbody-bench: built without CUDA: racing the CPU backend\n");
#endif
    return std::make_unique<CpuBackend>(p.cpu_threads);
}

}  // namespace

void run_race_mode(const BenchOptions& o, const std::string& command) {
    SceneSpec scene = load_scene_file(o.race);
    if (o.bodies > 0) rescale_bodies(scene, static_cast<std::size_t>(o.bodies));
    std::fprintf(stderr, "nbody-bench: building %s...\n", o.race.c_str());
    const State state = build_scene(scene);
    const SimParams params = scene.apply_to({});
    StepTimer timer;
    const std::unique_ptr<Backend> backend = race_backend(o, params, timer);
    backend->reset(state, params);

    RaceOptions ro;
    ro.seconds = o.race_seconds;
    ro.timer = timer;
    RaceReport report{backend->name(), utc_now(), command, "", state.size(), ro.seconds, {}};
    const std::vector<RaceEntry> entries = race_entries(backend->caps(), params.tree);
    // How long: each entry races for --seconds after a warm-up step and a force-error measurement; the
    // float64 reference comes first. Said up front, then as the measured time per slice so far predicts.
    std::fprintf(stderr,
                 "nbody-bench: racing %zu entries at N = %zu, %.2g s each plus set-up: at least %.2g s\n",
                 entries.size(), state.size(), ro.seconds, double(entries.size()) * ro.seconds);
    const auto t0 = std::chrono::steady_clock::now();
    report.results = run_race(
        *backend, entries, ro,
        [t0](const RaceProgress& p) {
            const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            // After the first slice: the time so far and what the slices done predict for the rest.
            std::string when;
            if (p.done > 0)
                when = " (" + format_si(spent, "s") + " so far, about " +
                       format_si(spent / double(p.done) * double(p.total - p.done), "s") + " left)";
            std::fprintf(stderr, "[%zu/%zu] %s%s\n", p.done + 1, p.total, p.doing.c_str(), when.c_str());
            return true;
        },
        &report.note);
    print_race(stdout, report);
    if (!o.csv.empty()) write_race_csv(o.csv, report);
    if (!o.json.empty()) write_race_json(o.json, report);
}

}  // namespace nbody
