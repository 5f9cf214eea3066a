// nbody-bench: measures every kernel variant (and the CPU backend on request) over a list of N.
// Interactions/s first; Gflop/s at 20 and 38 flops per interaction; force error against float64.
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "bench/bench_cli.hpp"
#include "bench/bench_output.hpp"
#include "bench/paper_mode.hpp"
#include "core/errors.hpp"
#include "cpu/cpu_backend.hpp"
#include "multi/distributed_backend.hpp"
#include "multi/mpi_exchange.hpp"
#include "scene/scene.hpp"
#include "scene/scene_file.hpp"
#ifdef NBODY_HAVE_CUDA
#include "cuda_backend.hpp"
#include "hermite_forces.hpp"
#endif

namespace nbody {
namespace {

std::vector<int> or_default(const std::vector<int>& given, const std::vector<int>& all, int def, bool sweep) {
    if (!given.empty()) return given;
    return sweep ? all : std::vector<int>{def};
}

// Every (precision, integrator, GPU count) the options name, applied to `base`; the GPU counts only
// `with_gpus` (the CPU backend has none).
std::vector<SimParams> axes(const BenchOptions& o, const SimParams& base, bool with_gpus) {
    std::vector<TreeParams> trees;  // the tree's axes; direct summation takes one (unused) entry
    for (double theta : o.thetas)
        for (int group : o.tree_groups)
            for (int leaf : o.tree_leaves) {
                TreeParams t;
                t.theta = float(theta), t.group = group, t.leaf = leaf;
                trees.push_back(t);
            }
    std::vector<SimParams> out;
    for (const std::string& me : o.methods)
    for (const std::string& pr : o.precisions)
        for (const std::string& in : o.integrators)
            for (int g : with_gpus ? o.gpus : std::vector<int>{1})
                for (const TreeParams& t : *parse_method(me) == ForceMethod::Tree ? trees : std::vector<TreeParams>{{}}) {
                    SimParams p = base;
                    p.method = *parse_method(me);
                    p.precision = *parse_precision(pr);
                    p.integrator = *parse_integrator(in);
                    p.eta = o.eta;
                    p.gpus = g;
                    p.tree = t;
                    out.push_back(p);
                }
    return out;
}

// The variant column of a tree row: "tree 0.5", with the group and leaf sizes where not the defaults
// ("tree 0.5 g64 l8").
std::string tree_variant(const TreeParams& t) {
    std::string v = "tree " + theta_text(t.theta);
    if (t.group != TreeParams{}.group) v += " g" + std::to_string(t.group);
    if (t.leaf != TreeParams{}.leaf) v += " l" + std::to_string(t.leaf);
    return v;
}

// One measured row, or a line on stderr saying why the configuration was skipped (a combination the backend
// does not run, a block too large for the registers).
void try_row(std::vector<BenchRow>& rows, Backend& b, const StepTimer& timer, const State& state, const SimParams& p,
             const std::vector<Double3>& ref, const BenchOptions& o, const std::string& backend,
             const std::string& variant) {
    try {
        BenchRow r = measure(b, timer, state, p, ref, o.timing);
        r.backend = backend, r.variant = variant;
#ifdef NBODY_HAVE_CUDA
        if (auto* gpu = dynamic_cast<CudaBackend*>(&b)) {
            const LaunchPlan plan = gpu->plan();
            r.k = plan.k, r.u = plan.u, r.block = plan.block, r.q = plan.q, r.s = plan.splits;
            r.gpus = static_cast<int>(gpu->parts());
            r.registers = gpu->kernel_resources().registers;
        }
#endif
        print_row(r);
        rows.push_back(r);
    } catch (const ParamError& e) {
        std::fprintf(stderr, "skipped %s %s %s %s: %s\n", backend.c_str(), variant.c_str(),
                     std::string(precision_name(p.precision)).c_str(), std::string(integrator_name(p.integrator)).c_str(),
                     e.what());
    }
}

// The shapes to run for one variant: the cartesian product of the k, u, block and q lists, keeping
// those valid for the variant.
[[maybe_unused]] std::vector<KernelShape> shapes_for(KernelVariant v, const BenchOptions& o) {
    const VariantInfo& info = variant_info(v);
    std::vector<int> all_k, all_u;
    for (int k : info.rules.allowed_k) if (k) all_k.push_back(k);
    for (int u : info.rules.allowed_u) if (u) all_u.push_back(u);
    std::vector<KernelShape> out;
    for (int k : or_default(o.ks, all_k, info.default_shape.k, o.sweep))
        for (int u : or_default(o.us, all_u, info.default_shape.u, o.sweep))
            for (int b : or_default(o.blocks, {}, info.default_shape.block, false))
                for (int q : or_default(o.qs, {}, 0, false))
                for (int sp : or_default(o.ss, {}, info.default_shape.s, false)) {
                    const KernelShape s{k, u, b, q, sp};
                    try {
                        validate_shape(v, s);
                        out.push_back(s);
                    } catch (const ParamError&) {
                        // combinations the variant does not allow are skipped (k = 2 for 'none', ...)
                    }
                }
    return out;
}

#ifdef NBODY_HAVE_CUDA
// One CUDA backend per GPU count asked for, made on first use (each holds its own buffers and streams).
class GpuBackends {
public:
    CudaBackend* get(int gpus) {
        auto& slot = by_count_[gpus];
        if (!slot) {
            SimParams p;
            p.gpus = gpus;
            std::string why, note;
            slot = try_make_cuda_backend(p, &why, &note);
            if (!slot) std::fprintf(stderr, "nbody-bench: no CUDA backend for %d GPU(s): %s\n", gpus, why.c_str());
            if (!note.empty()) std::fprintf(stderr, "nbody-bench: %s\n", note.c_str());
        }
        return slot.get();
    }

private:
    std::map<int, std::unique_ptr<CudaBackend>> by_count_;
};
#endif

// Under mpirun with several ranks: one simulation distributed over them, each rank on its GPU (the launcher
// gives each rank one: CUDA_VISIBLE_DEVICES = local rank) or, without one, on its share of the CPU cores;
// else nullptr. Only rank 0 prints: the others' stdout goes nowhere.
std::unique_ptr<DistributedBackend> rank_backend() {
    if (launched_ranks() <= 1) return nullptr;
    std::unique_ptr<Backend> inner;
#ifdef NBODY_HAVE_CUDA
    pin_local_gpu();
    std::string why;
    inner = try_make_cuda_backend(SimParams{}, &why);
#endif
    if (!inner) inner = std::make_unique<CpuBackend>(threads_per_rank(0));
    auto d = std::make_unique<DistributedBackend>(std::move(inner), exchange_from_environment());
    if (d->exchange().rank() != 0 && !std::freopen("/dev/null", "w", stdout))
        throw Error("rank " + std::to_string(d->exchange().rank()) + ": cannot silence stdout");
    std::fprintf(stderr, "nbody-bench: rank %d: %s\n", d->exchange().rank(), d->name().c_str());
    return d;
}

// Every rank must take the same number of steps per repeat, so each uses the slowest rank's time.
double ranks_clock_ms(Backend& b, int k) {
    return static_cast<DistributedBackend&>(b).exchange().max_over_ranks(host_clock_ms(b, k));
}

void run_table(const BenchOptions& o, const std::string& command) {
    std::vector<BenchRow> rows;
    BenchMeta meta{"", utc_now(), command};
    CpuBackend single;
    const std::unique_ptr<DistributedBackend> ranks = rank_backend();
    Backend& cpu = ranks ? static_cast<Backend&>(*ranks) : single;
    const StepTimer cpu_clock = ranks ? StepTimer(ranks_clock_ms) : StepTimer(host_clock_ms);
#ifdef NBODY_HAVE_CUDA
    GpuBackends gpus;
    CudaBackend* gpu = ranks ? nullptr : gpus.get(o.gpus.front());
    if (!gpu) std::fprintf(stderr, "nbody-bench: CPU rows only\n");
    if (gpu) meta.device = gpu->name();
#else
    std::fprintf(stderr, "nbody-bench: built without CUDA; CPU rows only\n");
#endif
    if (meta.device.empty()) meta.device = cpu.name();
    std::printf("# %s, %s\n", meta.device.c_str(), meta.date.c_str());
    print_table_header();
    for (long long n : o.sizes) {
        const State state = bench_state(static_cast<std::size_t>(n), o.scene);
        const double eps = o.scene.empty() ? o.eps : load_scene_file(o.scene).eps;
        std::fprintf(stderr, "N = %lld: %s\n", n, o.accuracy ? "float64 reference force..." : "");
        const std::vector<Double3> ref = o.accuracy ? reference_accelerations(state, eps, 1.0) : std::vector<Double3>{};
        SimParams p;
        p.eps = eps;
        p.dt = 1e-4;  // small: the state barely moves while being timed, so every repeat does the same work
#ifdef NBODY_HAVE_CUDA
        const bool want_cpu = o.cpu || !gpu;
#else
        const bool want_cpu = true;
#endif
        if (want_cpu)
            for (const SimParams& c : axes(o, p, false))
                try_row(rows, cpu, cpu_clock, state, c, ref, o, ranks ? "ranks" : "cpu",
                        c.method == ForceMethod::Tree ? tree_variant(c.tree)
                                                      : (ranks ? "auto" : "cpu"));
#ifdef NBODY_HAVE_CUDA
        if (!gpu) continue;
        for (SimParams a : axes(o, p, true)) {
            CudaBackend* g = gpus.get(a.gpus);
            if (!g) continue;
            if (a.method == ForceMethod::Tree) {  // no kernel families: one row per opening angle
                try_row(rows, *g, cuda_event_ms, state, a, ref, o, "cuda", tree_variant(a.tree));
                continue;
            }
            for (const std::string& vname : o.variants) {
                if (vname == "auto") {
                    a.kernel_auto = true;
                    try_row(rows, *g, cuda_event_ms, state, a, ref, o, "cuda", "auto");
                    continue;
                }
                a.kernel_auto = false;
                a.variant = *parse_variant(vname);
                if (variant_info(a.variant).method != a.method) continue;  // another method's family
                for (const KernelShape& s : shapes_for(a.variant, o)) {
                    a.shape = s;
                    try_row(rows, *g, cuda_event_ms, state, a, ref, o, "cuda", std::string(variant_name(a.variant)));
                }
            }
        }
        // Block-step evaluations on a fixed active set: does a small set still use the GPU (Sapporo2)?
        for (int act : o.active)
            for (const std::string& pr : o.precisions) {
                SimParams h = p;
                h.precision = *parse_precision(pr);
                try {
                    const double ms = cuda_hermite_force_ms(state, act, h, 200);
                    const double pairs = static_cast<double>(std::min<long long>(act, n)) * static_cast<double>(n);
                    std::printf("# hermite evaluation N %lld active %d %s: %.4f ms, %.3e interactions/s, %.0f "
                                "Gflop/s (60)\n",
                                n, act, pr.c_str(), ms, pairs / (ms * 1e-3), pairs * 60 / (ms * 1e-3) * 1e-9);
                } catch (const Error& e) {
                    std::fprintf(stderr, "skipped hermite evaluation N %lld active %d %s: %s\n", n, act, pr.c_str(),
                                 e.what());
                }
            }
#endif
    }
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
