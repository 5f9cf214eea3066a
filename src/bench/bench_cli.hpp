#pragma once
// nbody-bench's command line, parsed into options (a function of its own so the unit tests run the real
// parser).
#include <string>
#include <variant>
#include <vector>

#include "bench/bench_runner.hpp"
#include "bench/tune.hpp"

#include "core/tree/tree_params.hpp"

namespace nbody {

struct BenchOptions {
    std::vector<long long> sizes{7500, 10000, 18000, 100000, 131072};
    std::vector<std::string> variants{"auto", "none", "i-unrolled", "ij-unrolled"};
    std::vector<std::string> methods{"direct"};  // force methods (--methods, or --method for one)
    std::vector<double> thetas{0.5};              // method tree: opening angles (--thetas, or --theta for one)
    std::vector<int> tree_groups{TreeParams{}.group};  // method tree: bodies a group (--tree-groups)
    std::vector<int> tree_leaves{TreeParams{}.leaf};   // method tree: bodies a leaf (--tree-leaves)
    std::vector<std::string> precisions{"fp32"};
    std::vector<std::string> integrators{"leapfrog"};
    std::vector<int> gpus{1};
    double eta = 0.01;
    std::vector<int> active;  // hermite evaluations on fixed active sets of these sizes (--active)
    std::vector<int> ks, us, blocks, qs, ss;
    bool sweep = false, cpu = false, paper = false, accuracy = true;
    std::string scene, json;
    double eps = 0.01;
    BenchTiming timing;
    // --tune: sizes default to default_tune_sizes(), precisions to all three, timing to TunePlan's;
    // --k/--u/--block replace the grid.
    bool tune = false;
    std::string tune_out;  // a copy of the table written here as well as into the cache
    // --race scene.toml: every kernel variant in every precision on the scene's state (race_mode.cpp);
    // --seconds is then per entry (default 1), --bodies rescales the scene, --cpu races the CPU backend.
    std::string race, csv;
    long long bodies = 0;  // 0: the scene's own count
    double race_seconds = 1.0;
};

// The options, or the exit code main() should return (0 after --help, non-zero after an error, which
// CLI11 has printed).
std::variant<BenchOptions, int> parse_bench_command_line(int argc, char** argv);

// --tune's plan and shape grids from the options. Throws ParamError naming --k, --u or --block for a
// value ij-unrolled does not have.
TunePlan tune_plan(const BenchOptions& o);
// Throws Error naming the flag (--json, --csv, --tune-out) whose output file cannot be written: checked
// before any timing, so a typo fails in a second rather than after the run.
void check_outputs(const BenchOptions& o);
// nbody-bench --race (race_mode.cpp). Throws SceneError for a bad scene, Error for an unwritable output.
void run_race_mode(const BenchOptions& o, const std::string& command);
TuneGrids tune_grids(const BenchOptions& o);

}  // namespace nbody
