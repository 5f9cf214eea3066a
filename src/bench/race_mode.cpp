// nbody-bench --race scene.toml: the kernel race (race.hpp) on the scene's state, on the CUDA backend (every
// variant in every precision) or the CPU one (--cpu, or no GPU: its precisions), or on each backend --backend
// names (cuda, gl, cpu: the factory's rows) in turn, the same variant in CUDA and in GLSL side by side; as a
// table, a text bar chart and optional CSV / JSON files. Each lane is timed where it runs
// (Backend::timed_steps).
#include <chrono>
#include <cstdio>
#include <memory>

#include "bench/bench_cli.hpp"
#include "bench/bench_output.hpp"
#include "bench/race_output.hpp"
#include "core/errors.hpp"
#include "core/session/perf_history.hpp"  // format_si
#include "gl_backend/gl_backend_factory.hpp"
#include "scene/scene.hpp"
#include "scene/scene_file.hpp"

namespace nbody {

namespace {

// One backend the race runs on, and the label its entries get in a mixed race (its row's name).
struct RaceLane {
    std::unique_ptr<Backend> backend;
    std::string label;
};

// The lane of row `k`, or a line on stderr saying why there is none.
void add_lane(const BackendRows& rows, BackendKind k, const SimParams& p, std::vector<RaceLane>& lanes) {
    std::string why, note;
    if (auto b = try_make_backend(rows, k, p, &why, &note)) {
        if (!note.empty()) std::fprintf(stderr, "nbody-bench: %s\n", note.c_str());
        lanes.push_back({std::move(b), std::string(backend_kind_name(k))});
        return;
    }
    const BackendRow* row = find_backend_row(rows, k);
    std::fprintf(stderr, "nbody-bench: no %s backend (%s)\n", row ? row->label.c_str() : "such", why.c_str());
}

// The named backends (--backend), else CUDA unless --cpu or there is none; the CPU where nothing else runs.
std::vector<RaceLane> race_lanes(const BenchOptions& o, const SimParams& p) {
    const BackendRows rows = backend_rows_with_gl({GlContextSource::OwnHeadless, {}});
    std::vector<RaceLane> lanes;
    if (o.gpu && !(o.cpu && !o.backends_given)) add_lane(rows, BackendKind::Cuda, p, lanes);
    if (o.gl) add_lane(rows, BackendKind::Gl, p, lanes);
    if (o.cpu || lanes.empty()) {
        if (!o.cpu) std::fprintf(stderr, "nbody-bench: racing the CPU backend\n");
        add_lane(rows, BackendKind::Cpu, p, lanes);
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
        ro.timer = backend_clock_ms;
        ro.backend = lane.label;
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
