#pragma once
#include <string>

#include "bench/bench_runner.hpp"
#include "bench/bench_table.hpp"  // bench_state

namespace nbody {

// The RV770 paper's Table II (time of one step) and Table III (time of 100 steps) for cpu-only,
// no-unrolling, i-unrolling and i+j unrolling at N = 7500, 10000, 18000, 100000, each from the scene the
// paper's runs used where this repository ships it (figure-eight galaxies, Cartwheel, random sphere).
void run_paper_mode(const std::string& json_path, const std::string& command, const BenchTiming& timing);

}  // namespace nbody
