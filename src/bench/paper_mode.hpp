#pragma once
#include <string>

#include "bench/bench_runner.hpp"

namespace nbody {

// The initial state for a benchmark of n bodies: the scene file rescaled to n, or (no scene) a Plummer
// sphere in Henon units.
State bench_state(std::size_t n, const std::string& scene_path);

// The RV770 paper's Table II (time of one step) and Table III (time of 100 steps) for cpu-only,
// no-unrolling, i-unrolling and i+j unrolling at N = 7500, 10000, 18000, 100000, each from the scene the
// paper's runs used where this repository ships it (figure-eight galaxies, Cartwheel, random sphere).
void run_paper_mode(const std::string& json_path, const std::string& command, const BenchTiming& timing);

}  // namespace nbody
