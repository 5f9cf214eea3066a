// nbody-bench --race scene.toml: the kernel race (race.hpp) on the scene's state, on the CUDA backend (every
// variant in every precision) or the CPU one (--cpu, or no GPU: its precisions), or on each backend --backend
// names (cuda, gl, cpu) in turn, the same variant in CUDA and in GLSL side by side; as a table, a text bar
// chart and optional CSV / JSON files.
#include <chrono>
#include <cstdio>
#include <memory>

#include "bench/bench_cli.hpp"
#include "bench/bench_output.hpp"
#include "bench/race_output.hpp"
#include "core/errors.hpp"
#include "core/perf_history.hpp"  // format_si
#include "cpu/cpu_backend.hpp"
#include "gl_backend/gl_backend.hpp"
#include "gl_backend/gl_backend_factory.hpp"
#include "scene/scene.hpp"
#include "scene/scene_file.hpp"
#ifdef NBODY_HAVE_CUDA
#include "cuda_backend.hpp"
#endif

namespace nbody {

namespace {

// One backend the race runs on, the timer that goes with it, and the label its entries get in a mixed race.
struct RaceLane {
    std::unique_ptr<Backend> backend;
    StepTimer timer = host_clock_ms;
    std::string label;
};

void cuda_lane(const SimParams& p, std::vector<RaceLane>& lanes) {
#ifdef NBODY_HAVE_CUDA
    std::string why, note;
    if (auto gpu = try_make_cuda_backend(p, &why, &note)) {
        if (!note.empty()) std::fprintf(stderr, "nbody-bench: %s\n", note.c_str());
        lanes.push_back({std::move(gpu), cuda_event_ms, "cuda"});
        return;
    }
    std::fprintf(stderr, "nbody-bench: no CUDA backend (%s)\n", why.c_str());
#else
    (void)p, (void)lanes;
    std::fprintf(stderr, "nbody-bench: built without CUDA\n");
#endif
}

void gl_lane(std::vector<RaceLane>& lanes) {
    std::string why;
    std::unique_ptr<GlBackend> gl;
    try {
        gl = try_make_gl_backend({GlContextSource::OwnHeadless, {}}, &why);
    } catch (const Error& e) {
        why = e.what();
    }
    if (!gl) {
        std::fprintf(stderr, "nbody-bench: no GL compute backend (%s)\n", why.c_str());
        return;
    }
    GlBackend* g = gl.get();
    lanes.push_back({std::move(gl), [g](Backend&, int k) { return g->timed_steps(k); }, "gl"});
}

// The named backends (--backend), else CUDA unless --cpu or there is none; the CPU where nothing else runs.
std::vector<RaceLane> race_lanes(const BenchOptions& o, const SimParams& p) {
    std::vector<RaceLane> lanes;
    if (o.gpu && !(o.cpu && !o.backends_given)) cuda_lane(p, lanes);
    if (o.gl) gl_lane(lanes);
    if (o.cpu || lanes.empty()) {
        if (!o.cpu) std::fprintf(stderr, "nbody-bench: racing the CPU backend\n");
        lanes.push_back({std::make_unique<CpuBackend>(p.cpu_threads), host_clock_ms, "cpu"});
    }
    return lanes;
}

}  // namespace

void run_race_mode(const BenchOptions& o, const std::string& command) {
    SceneSpec scene = load_scene_file(o.race);
    if (o.bodies > 0) rescale_bodies(scene, static_cast<std::size_t>(o.bodies));
    std::fprintf(stderr, "nbody-bench: building %s...\n", o.race.c_str());
    const State state = build_scene(scene);
    const SimParams params = scene.apply_to({});
    std::vector<RaceLane> lanes = race_lanes(o, params);
    RaceReport report{"", utc_now(), command, "", state.size(), o.race_seconds, {}};
    for (RaceLane& lane : lanes) {
        lane.backend->reset(state, params);
        RaceOptions ro;
        ro.seconds = o.race_seconds;
        ro.timer = lane.timer;
        const std::vector<RaceEntry> entries = race_entries(lane.backend->caps(), params.tree);
        // How long: each entry races for --seconds after a warm-up step and a force-error measurement; the
        // float64 reference comes first. Said up front, then as the measured time per slice so far predicts.
        std::fprintf(stderr,
                     "nbody-bench: racing %zu entries on %s at N = %zu, %.2g s each plus set-up: at least %.2g s\n",
                     entries.size(), lane.label.c_str(), state.size(), ro.seconds,
                     double(entries.size()) * ro.seconds);
        const auto t0 = std::chrono::steady_clock::now();
        std::vector<RaceResult> results = run_race(
            *lane.backend, entries, ro,
            [&lane, t0](const RaceProgress& p) {
                const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
                // After the first slice: the time so far and what the slices done predict for the rest.
                std::string when;
                if (p.done > 0)
                    when = " (" + format_si(spent, "s") + " so far, about " +
                           format_si(spent / double(p.done) * double(p.total - p.done), "s") + " left)";
                std::fprintf(stderr, "[%s %zu/%zu] %s%s\n", lane.label.c_str(), p.done + 1, p.total,
                             p.doing.c_str(), when.c_str());
                return true;
            },
            &report.note);
        for (RaceResult& r : results) {
            if (lanes.size() > 1 &&
                r.entry.name.rfind(lane.label + " ", 0) != 0)  // "cpu fp32" says it already
                r.entry.name = lane.label + " " + r.entry.name;
            report.results.push_back(std::move(r));
        }
        report.device += (report.device.empty() ? "" : "; ") + lane.backend->name();
    }
    print_race(stdout, report);
    if (!o.csv.empty()) write_race_csv(o.csv, report);
    if (!o.json.empty()) write_race_json(o.json, report);
}

}  // namespace nbody
