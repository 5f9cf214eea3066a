#include "bench/paper_mode.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "engine/backend_rows.hpp"
#include "scene/scene.hpp"
#include "scene/scene_file.hpp"

namespace nbody {

namespace {

struct PaperCase {
    std::size_t n;
    const char* scene;  // file under scenes/, used when present
};
constexpr PaperCase kCases[] = {
    {7500, "figure8-3.toml"}, {10000, "figure8-4.toml"}, {18000, "cartwheel.toml"}, {100000, "random-100k.toml"}};

struct PaperRow {
    std::size_t n;
    std::string scene, variant;
    double one_step_ms = 0, hundred_steps_ms = 0;
    bool extrapolated = false;  // 100-step time from fewer measured steps (the CPU at large N)
};

}  // namespace

void run_paper_mode(const std::string& json_path, const std::string& command, const BenchTiming& timing) {
    std::vector<PaperRow> rows;
    std::string why;
    const std::unique_ptr<Backend> cpu_backend = try_make_backend(backend_rows(), BackendKind::Cpu, {}, &why);
    Backend& cpu = *cpu_backend;
    const std::unique_ptr<Backend> gpu = try_make_backend(backend_rows(), BackendKind::Cuda, {}, &why);
    if (!gpu)
        std::fprintf(stderr, "nbody-bench --paper: no CUDA backend (%s); cpu-only column only\n",
                     why.c_str());
    for (const PaperCase& c : kCases) {
        const std::filesystem::path path = std::filesystem::path(NBODY_SOURCE_DIR) / "scenes" / c.scene;
        const bool have_scene = std::filesystem::exists(path);
        const State state = bench_state(c.n, have_scene ? path.string() : "");
        SimParams p = have_scene ? load_scene_file(path.string()).apply_to({}) : SimParams{};
        const std::string scene = have_scene ? c.scene : "plummer (scene file not shipped yet)";
        std::fprintf(stderr, "N = %zu (%s): cpu...\n", c.n, scene.c_str());

        PaperRow cr{c.n, scene, "cpu-only"};
        cpu.reset(state, p);
        cr.one_step_ms = host_clock_ms(cpu, 1);
        const int cpu_steps = c.n <= 20000 ? 100 : 3;
        cpu.reset(state, p);
        cr.hundred_steps_ms = host_clock_ms(cpu, cpu_steps) * 100.0 / cpu_steps;
        cr.extrapolated = cpu_steps != 100;
        rows.push_back(cr);
        if (!gpu) continue;
        for (const VariantInfo& v : variant_table()) {
            if (!v.paper) continue;  // the paper's three loops only
            p.kernel_auto = false;
            p.variant = v.variant;
            p.shape = v.default_shape;
            const BenchRow one = measure(*gpu, backend_clock_ms, state, p, {}, timing);
            std::vector<double> hundred;
            for (int r = 0; r < timing.repeats; ++r) {
                gpu->reset(state, p);
                hundred.push_back(gpu->timed_steps(100));
            }
            std::sort(hundred.begin(), hundred.end());
            rows.push_back({c.n, scene, std::string(v.name), one.ms_per_step, hundred[hundred.size() / 2], false});
        }
    }

    std::printf("\nTable II: time of one step (ms)            Table III: time of 100 steps (s)\n");
    std::printf("%8s %-14s %12s %12s\n", "N", "code", "1 step ms", "100 steps s");
    for (const PaperRow& r : rows)
        std::printf("%8zu %-14s %12.4f %12.5f%s   [%s]\n", r.n, r.variant.c_str(), r.one_step_ms,
                    r.hundred_steps_ms * 1e-3, r.extrapolated ? " (extrapolated from 3 steps)" : "", r.scene.c_str());
    if (json_path.empty()) return;
    nlohmann::json j;
    j["command"] = command;
    j["device"] = gpu ? gpu->name() : cpu.name();
    for (const PaperRow& r : rows)
        j["rows"].push_back({{"n", r.n}, {"code", r.variant}, {"scene", r.scene}, {"one_step_ms", r.one_step_ms},
                             {"hundred_steps_s", r.hundred_steps_ms * 1e-3}, {"extrapolated", r.extrapolated}});
    std::ofstream out(json_path);
    if (!out) throw Error("--json " + json_path + ": cannot open for writing");
    out << j.dump(2) << "\n";
}

}  // namespace nbody
