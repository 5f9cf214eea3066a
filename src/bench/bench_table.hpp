#pragma once
// nbody-bench's table: every size x method x precision x integrator x GPU count x opening angle x kernel
// variant x shape, each measured by bench_runner's measure() into a BenchRow, and a row as the named fields
// of its JSON object. nbody-bench prints and writes them; the Python module's nbody.bench returns them.
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "bench/bench_runner.hpp"

#include "core/tree/tree_params.hpp"

namespace nbody {

// The initial state for a benchmark of n bodies: the scene file rescaled to n, or (no scene) a Plummer
// sphere in Henon units, rounded to float32.
State bench_state(std::size_t n, const std::string& scene_path);

// What one table measures (nbody-bench's flags of the same names).
struct BenchTable {
    std::vector<long long> sizes{7500, 10000, 18000, 100000, 131072};
    std::vector<std::string> variants{"auto", "none", "i-unrolled", "ij-unrolled"};
    std::vector<std::string> methods{"direct"};  // force methods (--methods, or --method for one)
    std::vector<double> thetas{TreeParams{}.theta};  // method tree: Barnes opening angles (--thetas, or --theta)
    std::vector<double> alphas{TreeParams{}.alpha};  // method tree: acceleration criteria, 0 = off (--alphas)
    std::vector<int> tree_groups{TreeParams{}.group};  // method tree: bodies a group (--tree-groups)
    std::vector<int> tree_leaves{TreeParams{}.leaf};   // method tree: bodies a leaf (--tree-leaves)
    std::vector<std::string> precisions{"fp32"};
    std::vector<std::string> integrators{"leapfrog"};
    std::vector<int> gpus{1};
    int parts_per_gpu = 1;  // each GPU as this many parts: the several-GPU path's overhead measured on one GPU
    double eta = 0.01;
    std::vector<int> ks, us, blocks, qs, ss;
    bool sweep = false;
    bool cpu = false;  // rows of the CPU backend as well (always where no CUDA device is usable)
    bool gpu = true;   // rows of the CUDA backend where a device is usable
    bool gl = false;   // rows of the GL compute backend (BenchTableHooks::gl): the same variants and shapes
    bool accuracy = true;
    std::string scene;
    double eps = 0.01;
    BenchTiming timing;
};

// What the caller does around the measurements. Every hook may be left empty.
struct BenchTableHooks {
    Backend* cpu = nullptr;  // the CPU rows' backend (a distributed one under mpirun); null: all cores here
    std::string cpu_label = "cpu";      // the CPU rows' backend column
    std::string cpu_variant = "cpu";    // and their variant column (direct summation)
    // The GL compute rows' backend (the factory's gl row: made by the caller, which has GL). Null: no gl
    // rows, with a note. Every row is timed by its backend's timed_steps (CUDA events, GL timer queries, the
    // host clock on the CPU, the slowest rank's under mpirun) and its shape columns come from launch_shape.
    Backend* gl = nullptr;
    std::function<void(const std::string& device)> start;  // once, before any row: what the rows run on
    std::function<void(const BenchRow&)> row;               // each row as it is measured
    std::function<void(const std::string&)> note;           // progress, skipped configurations
    // After the rows of size n (nbody-bench: the Hermite active-set evaluations), with the state and the
    // parameters every row of it started from.
    std::function<void(long long n, const State&, const SimParams&)> after_size;
};

// Measures the table; returns the rows in the order measured. A configuration a backend does not run is
// skipped with a note. Throws SceneError for a bad scene, ParamError for an unknown name in a list.
std::vector<BenchRow> run_bench_table(const BenchTable& t, const BenchTableHooks& h = {});

// A row as nbody-bench's JSON writes it: (name, value) for every field, the force errors only when measured.
using BenchValue = std::variant<long long, double, std::string>;
std::vector<std::pair<std::string, BenchValue>> bench_row_fields(const BenchRow& r);

}  // namespace nbody
