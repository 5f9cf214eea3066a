// nbody-bench: measures every kernel variant (and the CPU backend on request) over a list of N.
// Interactions/s first; Gflop/s at 20 and 38 flops per interaction; force error against float64.
#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "bench/bench_cli.hpp"
#include "bench/bench_output.hpp"
#include "bench/bench_table.hpp"
#include "bench/paper_mode.hpp"
#include "core/errors.hpp"
#include "core/rows/integrator.hpp"
#include "engine/backend_factory.hpp"
#include "gl_backend/gl_backend_factory.hpp"
#include "multi/distributed_backend.hpp"
#include "multi/mpi_exchange.hpp"
#include "scene/scene.hpp"
#include "scene/scene_file.hpp"

namespace nbody {
namespace {

// Under mpirun with several ranks: one simulation distributed over them, each rank on its GPU (the launcher
// gives each rank one: CUDA_VISIBLE_DEVICES = local rank) or, without one, on its share of the CPU cores;
// else nullptr. Only rank 0 prints: the others' stdout goes nowhere.
std::unique_ptr<DistributedBackend> rank_backend() {
    if (launched_ranks() <= 1) return nullptr;
    pin_local_gpu();
    std::string why;
    std::unique_ptr<Backend> inner = try_make_backend(backend_rows(), BackendKind::Cuda, SimParams{}, &why);
    SimParams cpu;
    cpu.cpu_threads = threads_per_rank(0);
    if (!inner) inner = try_make_backend(backend_rows(), BackendKind::Cpu, cpu, &why);
    auto d = std::make_unique<DistributedBackend>(std::move(inner), exchange_from_environment());
    if (d->exchange().rank() != 0 && !std::freopen("/dev/null", "w", stdout))
        throw Error("rank " + std::to_string(d->exchange().rank()) + ": cannot silence stdout");
    std::fprintf(stderr, "nbody-bench: rank %d: %s\n", d->exchange().rank(), d->name().c_str());
    return d;
}

void run_table(const BenchOptions& o, const std::string& command) {
    BenchMeta meta{"", utc_now(), command};
    const std::unique_ptr<DistributedBackend> ranks = rank_backend();
    BenchTableHooks h;
    if (ranks) {
        h.cpu = ranks.get();  // timed by the slowest rank (DistributedBackend::timed_steps)
        h.cpu_label = "ranks";
        h.cpu_variant = "auto";
    }
    h.start = [&](const std::string& device) {
        meta.device = device;
        std::printf("# %s, %s\n", meta.device.c_str(), meta.date.c_str());
        print_table_header();
    };
    h.row = print_row;
    h.note = [](const std::string& s) { std::fprintf(stderr, "nbody-bench: %s\n", s.c_str()); };
    // Block-step evaluations on a fixed active set: does a small set still use the GPU (Sapporo2)? For each
    // Hermite integrator asked for (4th order where none is), its order's engine.
    std::vector<Integrator> hermites;
    for (const std::string& in : o.integrators)
        if (const auto i = parse_integrator(in); i) {
            const Scheme s = integrator_info(*i).scheme;  // leapfrog-block has no GPU engine to measure yet
            if (s == Scheme::Hermite4 || s == Scheme::Hermite6) hermites.push_back(*i);
        }
    if (hermites.empty()) hermites.push_back(Integrator::HermiteBlock);
    if (!o.active.empty() && !ranks && cuda_built())
        h.after_size = [&](long long n, const State& state, const SimParams& p) {
            for (Integrator in : hermites)
                for (int act : o.active)
                    for (const std::string& pr : o.precisions) {
                        SimParams hp = p;
                        hp.integrator = in;
                        hp.precision = *parse_precision(pr);
                        const char* name = integrator_name(in).data();
                        const double flops = integrator_info(in).flops_per_pair;
                        try {
                            const double ms = block_step_evaluation_ms(state, act, hp, 200);
                            const double pairs =
                                static_cast<double>(std::min<long long>(act, n)) * static_cast<double>(n);
                            std::printf(
                                "# %s evaluation N %lld active %d %s: %.4f ms, %.3e interactions/s, %.0f "
                                "Gflop/s (%.0f)\n",
                                name, n, act, pr.c_str(), ms, pairs / (ms * 1e-3),
                                pairs * flops / (ms * 1e-3) * 1e-9, flops);
                        } catch (const Error& e) {
                            std::fprintf(stderr, "skipped %s evaluation N %lld active %d %s: %s\n", name, n,
                                         act, pr.c_str(), e.what());
                        }
                    }
        };
    BenchTable t = o;
    t.gpu = o.gpu && !ranks;  // under mpirun every rank's backend is the distributed one
    std::unique_ptr<Backend> gl;
    if (o.gl && !ranks) {
        std::string why;
        gl = try_make_backend(backend_rows_with_gl({GlContextSource::OwnHeadless, {}}), BackendKind::Gl, {},
                              &why);
        if (!gl) std::fprintf(stderr, "nbody-bench: no gl rows: %s\n", why.c_str());
    }
    h.gl = gl.get();
    const std::vector<BenchRow> rows = run_bench_table(t, h);
    if (!o.json.empty() && (!ranks || ranks->exchange().rank() == 0)) write_bench_json(o.json, meta, rows);
}

}  // namespace
}  // namespace nbody

int main(int argc, char** argv) {
    using namespace nbody;
    auto parsed = parse_bench_command_line(argc, argv);
    if (const int* code = std::get_if<int>(&parsed)) return *code;
    const BenchOptions& o = std::get<BenchOptions>(parsed);
    std::string command = "nbody-bench";
    for (int i = 1; i < argc; ++i) command += std::string(" ") + argv[i];
    try {
        check_outputs(o);  // before the timed runs, not after
        if (!o.race.empty())
            run_race_mode(o, command);
        else if (o.paper)
            run_paper_mode(o.json, command, o.timing);
        else if (o.tune)
            run_tune_mode(o, command);
        else
            run_table(o, command);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nbody-bench: error: %s\n", e.what());
        return 1;
    }
    return 0;
}
