#include "bench/bench_cli.hpp"

#include <algorithm>

#include <CLI/CLI.hpp>

#include "cli/cli_checks.hpp"
#include "core/errors.hpp"
#include "core/kernels/kernel_family.hpp"
#include "core/rows/force_method.hpp"
#include "core/rows/integrator.hpp"
#include "core/rows/param_registry.hpp"
#include "gl_backend/gl_backend_factory.hpp"
#include "io/output_path.hpp"

namespace nbody {

namespace {
// A list flag over one parameter of the registry (core/rows/param_registry.cpp): its help, range and default from
// the parameter's row, so the bench and the sandbox say the same.
template <class T>
void add_param_list(CLI::App& app, const std::string& flags, std::string_view name, std::vector<T>& out,
                    const std::string& rows) {
    const ParamSpec& spec = *find_param(name);
    app.add_option(flags, out, "List: " + param_help_text(spec) + "; " + rows)
        ->delimiter(',')
        ->check(CLI::Range(spec.lo, spec.hi));
}
}  // namespace

std::variant<BenchOptions, int> parse_bench_command_line(int argc, char** argv) {
    BenchOptions o;
    CLI::App app{
        "nbody-bench: interactions/s and Gflop/s of every kernel variant, with force error vs float64"};
    auto* sizes = app.add_option("--sizes", o.sizes, "Comma-separated N list")
                      ->delimiter(',')
                      ->check(CLI::Range(1LL, 1LL << 24));
    auto* variants =
        app.add_option(
               "--variants", o.variants,
               "auto (the backend's choice per N), " + families_help())
            ->delimiter(',')
            ->check(CLI::IsMember(variant_choices()));
    auto* methods = app.add_option("--methods,--method", o.methods, "Force method list: " + joined_names(method_table()))
                        ->delimiter(',')
                        ->check(CLI::IsMember(names_of(method_table())));
    auto* precisions = app.add_option("--precisions", o.precisions,
                                      "Force arithmetic list: " + joined_names(precision_table()))
                           ->delimiter(',')
                           ->check(CLI::IsMember(names_of(precision_table())));
    auto* integrators =
        app.add_option("--integrators", o.integrators, "Integrator list: " + joined_names(integrator_table()))
            ->delimiter(',')
            ->check(CLI::IsMember(names_of(integrator_table())));
    add_param_list(app, "--thetas,--theta", "theta", o.thetas, "a row each, with its force error");
    add_param_list(app, "--alphas,--alpha", "alpha", o.alphas, "a row each");
    add_param_list(app, "--tree-groups", "group", o.tree_groups, "a row each");
    add_param_list(app, "--tree-leaves", "leaf", o.tree_leaves, "a row each");
    const ParamSpec& eta = *find_param("eta");
    app.add_option("--eta", o.eta, param_help_text(eta))->check(CLI::Range(eta.lo, eta.hi));
    auto* active =
        app.add_option("--active", o.active,
                       "Also time Hermite block-step evaluations of this many active bodies (list)")
            ->delimiter(',')
            ->check(CLI::Range(1, 1 << 24));
    auto* gpus = app.add_option("--gpus", o.gpus, "GPU count list (CUDA rows)")
                     ->delimiter(',')
                     ->check(CLI::Range(1, kMaxGpus));
    auto* parts = app.add_option("--parts-per-gpu", o.parts_per_gpu,
                                 "Run each GPU as this many parts: the several-GPU path (split, reduction, copies) "
                                 "measured on one GPU")
                      ->check(CLI::Range(1, 12));
    app.add_option("--k", o.ks, "i-bodies per thread list (default: each variant's)")->delimiter(',');
    app.add_option("--u", o.us, "j-unroll list (ij-unrolled, pairs)")->delimiter(',');
    app.add_option("--block", o.blocks, "block size list")->delimiter(',');
    auto* qs = app.add_option("--q", o.qs, "threads per body list (0 = automatic; pairs: warps per i-set)")->delimiter(',');
    auto* ss =
        app.add_option("--s", o.ss, "j-splits over blocks list (0 = automatic, 1 = none)")->delimiter(',');
    auto* sweep = app.add_flag("--sweep", o.sweep, "Every allowed k and u of each variant");
    auto* cpu = app.add_flag("--cpu", o.cpu, "Also measure the CPU backend");
    std::vector<std::string> backends;
    const BackendRows rows = backend_rows_with_gl();  // gl: through a headless EGL context of its own
    auto* backend = app.add_option("--backend,--backends", backends,
                                   "Backends to measure, list: " + backend_list_text(rows) +
                                       "; default cuda where a device is usable, else cpu")
                        ->delimiter(',')
                        ->check(CLI::IsMember(backend_names(rows)));
    auto* paper =
        app.add_flag("--paper", o.paper, "Reproduce the RV770 paper's Tables II and III on this machine");
    app.add_flag("!--no-accuracy", o.accuracy,
                 "Skip the float64 reference force (every body up to N = 131,072, an evenly spaced sample "
                 "of 131,072^2 / N bodies above: seconds on a workstation at 10M)");
    app.add_option("--scene", o.scene, "Initial state from this scene (default: Plummer, Henon units)")
        ->check(CLI::ExistingFile);
    app.add_option("--eps", o.eps, "Softening for the default Plummer state")->check(kNonNegative);
    auto* seconds = app.add_option("--seconds", o.timing.seconds_per_repeat,
                                   "Seconds per timed repeat (--race: per entry, default 1)")
                        ->check(CLI::Range(0.001, 60.0));
    auto* repeats = app.add_option("--repeats", o.timing.repeats, "Timed repeats (median reported)")
                        ->check(CLI::Range(1, 1000));
    app.add_option("--json", o.json, "Write the rows as JSON");
    auto* tune =
        app.add_flag("--tune", o.tune,
                     "Measure kernel shapes at N from 1,000 to 262,144 (or --sizes) in each precision (or "
                     "--precisions) on this GPU and write the table the automatic kernel choice reads, into "
                     "the user's cache directory");
    app.add_option("--tune-out", o.tune_out, "With --tune: also write the table to this file")->needs(tune);
    for (CLI::Option* other : {variants, integrators, active, gpus, parts, qs, ss, sweep, cpu, paper})
        tune->excludes(other);
    auto* race = app.add_option("--race", o.race,
                                "Race every kernel variant in every precision on this scene's state, about "
                                "--seconds (default 1) each; a table and a bar chart")
                     ->check(CLI::ExistingFile);
    app.add_option("--bodies", o.bodies, "With --race: rescale the scene to this many bodies")
        ->check(CLI::Range(2LL, 1LL << 24))
        ->needs(race);
    app.add_option("--csv", o.csv, "With --race: write one row per entry as CSV")->needs(race);
    for (CLI::Option* other :
         {sizes, variants, methods, precisions, integrators, active, gpus, parts, qs, ss, sweep, paper, tune})
        race->excludes(other);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }
    if (!o.race.empty() && seconds->count()) o.race_seconds = o.timing.seconds_per_repeat;
    if (backend->count()) {
        auto has = [&](const char* b) {
            return std::find(backends.begin(), backends.end(), b) != backends.end();
        };
        o.gpu = has("cuda"), o.gl = has("gl"), o.cpu = o.cpu || has("cpu");
        o.backends_given = true;
    }
    for (auto& v : o.variants)
        if (v != "auto") v = std::string(variant_name(*parse_variant(v)));
    if (o.tune) {
        const TunePlan defaults;
        if (!sizes->count()) {
            const std::vector<std::size_t> def = default_tune_sizes();
            o.sizes.assign(def.begin(), def.end());
        }
        if (!precisions->count()) o.precisions = names_of(precision_table());
        if (!seconds->count()) o.timing.seconds_per_repeat = defaults.seconds_per_repeat;
        if (!repeats->count()) o.timing.repeats = defaults.repeats;
        o.timing.warmup_seconds = std::min(o.timing.warmup_seconds, 0.5 * o.timing.seconds_per_repeat);
    }
    return o;
}

void check_outputs(const BenchOptions& o) {
    if (!o.json.empty()) check_writable(o.json, "--json");
    if (!o.csv.empty()) check_writable(o.csv, "--csv");
    if (!o.tune_out.empty()) check_writable(o.tune_out, "--tune-out");
}

TunePlan tune_plan(const BenchOptions& o) {
    TunePlan p;
    for (long long n : o.sizes) p.sizes.push_back(static_cast<std::size_t>(n));
    std::sort(p.sizes.begin(), p.sizes.end());
    p.sizes.erase(std::unique(p.sizes.begin(), p.sizes.end()), p.sizes.end());
    p.precisions.clear();
    for (const std::string& name : o.precisions)
        if (std::find(p.precisions.begin(), p.precisions.end(), *parse_precision(name)) == p.precisions.end())
            p.precisions.push_back(*parse_precision(name));
    p.seconds_per_repeat = o.timing.seconds_per_repeat;
    p.warmup_seconds = o.timing.warmup_seconds;
    p.repeats = o.timing.repeats;
    return p;
}

TuneGrids tune_grids(const BenchOptions& o) {
    // Each value on its own, so the error names the flag: "--k: variant ij-unrolled allows k in {2, 4, 8}
    // (got 3)".
    const KernelShape d = variant_info(KernelVariant::IJUnrolled).default_shape;
    auto check = [](const KernelShape& s) {
        try {
            validate_shape(KernelVariant::IJUnrolled, s);
        } catch (const ParamError& e) {
            throw ParamError("--" + e.field, std::string(e.what()).substr(e.field.size() + 2));
        }
    };
    for (int k : o.ks) check({k, d.u, d.block, 0, 1});
    for (int u : o.us) check({d.k, u, d.block, 0, 1});
    for (int b : o.blocks) check({d.k, d.u, b, 0, 1});
    return [ks = o.ks, us = o.us, blocks = o.blocks](Precision p) { return tune_grid(p, ks, us, blocks); };
}

}  // namespace nbody
