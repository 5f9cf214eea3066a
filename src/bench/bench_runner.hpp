#pragma once
// Measures one backend configuration: throughput (median of repeats after a warm-up) and the force error
// of its first evaluation against the float64 reference.
#include <functional>
#include <string>
#include <vector>

#include "core/backend/backend.hpp"
#include "core/counters.hpp"
#include "core/float4.hpp"
#include "cpu/reference_force.hpp"

namespace nbody {

struct BenchRow {
    std::size_t n = 0;
    std::string backend;  // the backend's row name: "cuda", "gl", "cpu" ("ranks" under mpirun)
    std::string variant;  // variant name ("auto" when the backend chose), "cpu" for the CPU backend
    std::string kernel;   // what ran (Backend::kernel_label)
    std::string method = "direct";  // the force method (SimParams::method)
    std::string precision = "fp32";
    std::string integrator = "leapfrog";
    int gpus = 1;
    int k = 0, u = 0, block = 0, q = 0, s = 0;  // s: j-splits over blocks
    int registers = 0;
    long long steps_per_repeat = 0;
    int repeats = 0;
    double ms_per_step = 0;  // median over repeats (a step: a block step under hermite-block)
    double ms_spread = 0;    // (max - min) / median of the repeats
    Throughput rate;
    ForceError error;  // against the float64 reference; max_rel < 0 when not measured
    std::string stages;  // where a step's time went (Readouts::stage_times: the GPU tree's stages); or empty
};

struct BenchTiming {
    double seconds_per_repeat = 0.25;
    int repeats = 5;
    double warmup_seconds = 0.1;
};

// Now, UTC, ISO 8601: "2026-11-22T03:46:06Z" (the date of a result file).
std::string utc_now();

// Times k steps of `backend` and returns milliseconds.
using StepTimer = std::function<double(Backend&, int)>;

// Steps k and returns the host steady-clock milliseconds: exact for the CPU backend, and for the CUDA one
// too since its step() synchronises (launch gaps included).
double host_clock_ms(Backend& b, int k);
// Backend::timed_steps: measured where the steps run (CUDA events, GL timer queries; the host clock on the
// CPU).
double backend_clock_ms(Backend& b, int k);

// Warm-up, then `timing.repeats` timed repeats of the backend as it is (no reset): fills the row's timing
// fields (n, median ms per step, spread, rate, kernel, launch shape, params) and returns each repeat's
// interactions/s.
std::vector<double> time_repeats(Backend& backend, const StepTimer& timer, const BenchTiming& timing, BenchRow& row);

// The bench's reference budget in float64 pair evaluations: every body up to 131,072 (as before), a sample
// above (16,384 bodies at 1,048,576, 1,638 at 10,485,760): seconds on a workstation's cores, where the full
// O(N^2) reference would take hours at 10M.
inline constexpr double kBenchReferencePairs = 131072.0 * 131072.0;
inline constexpr std::size_t kBenchMinReferenceRows = 1024;

// Resets `backend` to `state` with the config's params, measures, and fills a row; its first evaluation is
// compared with `reference` (empty: no accuracy column).
BenchRow measure(Backend& backend, const StepTimer& timer, const State& state, const SimParams& params,
                 const ForceReference& reference, const BenchTiming& timing);

}  // namespace nbody
