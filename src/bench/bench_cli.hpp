#pragma once
// nbody-bench's command line, parsed into options (a function of its own so the unit tests run the real
// parser).
#include <string>
#include <variant>
#include <vector>

#include "bench/bench_runner.hpp"
#include "bench/bench_table.hpp"
#include "bench/tune.hpp"

namespace nbody {

// The table's axes and timing (bench_table.hpp), and what the other modes take.
struct BenchOptions : BenchTable {
    std::vector<int> active;  // hermite evaluations on fixed active sets of these sizes (--active)
    bool backends_given = false;  // --backend named the backends (gpu, gl and cpu say which)
    bool paper = false;
    std::string json;
    // --tune: sizes default to default_tune_sizes(), precisions to all three, timing to TunePlan's;
    // --k/--u/--block replace the grid.
    bool tune = false;
    std::string tune_out;  // a copy of the table written here as well as into the cache
    // --race scene.toml: every kernel variant in every precision on the scene's state (race_mode.cpp);
    // --seconds is then per entry (default 1), --bodies rescales the scene, --cpu races the CPU backend;
    // --backend cuda,gl,cpu races each named backend in turn, their entries in one table.
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
