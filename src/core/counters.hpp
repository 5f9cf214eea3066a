#pragma once
// Turns timed work into interactions/s and Gflop/s. An interaction is one (i, j) pair; a step of N bodies
// counts N^2 interactions, the self term included (softening makes it zero), as everyone counts.
#include <cstddef>

namespace nbody {

// Flops per interaction: NVIDIA's convention (GPU Gems 3, the CUDA sample) and Warren et al. 1997 (the
// GRAPE papers, Chamomile, the RV770 paper).
inline constexpr double kFlopsPerInteractionNvidia = 20.0;
inline constexpr double kFlopsPerInteractionWarren = 38.0;
// A Hermite interaction (acceleration, jerk and potential): Belleman et al. 2008's count.
inline constexpr double kFlopsPerInteractionHermite = 60.0;

// Work done: force evaluations (steps, or block steps) and the i-j pairs they evaluated (N^2 per shared step,
// active x N per block step), with the flop count of one pair for the integrator's force.
struct WorkCount {
    long long evaluations = 0;
    double pairs = 0;
    double flops_per_pair = kFlopsPerInteractionNvidia;
};
inline WorkCount operator-(const WorkCount& a, const WorkCount& b) {
    return {a.evaluations - b.evaluations, a.pairs - b.pairs, a.flops_per_pair};
}

struct Throughput {
    double interactions_per_s = 0;
    double gflops20 = 0;  // at 20 flops per interaction
    double gflops38 = 0;  // at 38 flops per interaction
    double gflops = 0;    // at the integrator's own count (20 leap-frog, 60 Hermite)
    double flops_per_pair = kFlopsPerInteractionNvidia;
    double steps_per_s = 0;  // force evaluations per second (block steps under hermite-block)
};

inline double interactions_per_step(std::size_t n) { return static_cast<double>(n) * static_cast<double>(n); }

inline Throughput throughput(const WorkCount& w, double seconds) {
    Throughput t;
    t.flops_per_pair = w.flops_per_pair;
    if (seconds <= 0 || w.evaluations <= 0) return t;
    t.steps_per_s = static_cast<double>(w.evaluations) / seconds;
    t.interactions_per_s = w.pairs / seconds;
    t.gflops20 = t.interactions_per_s * kFlopsPerInteractionNvidia * 1e-9;
    t.gflops38 = t.interactions_per_s * kFlopsPerInteractionWarren * 1e-9;
    t.gflops = t.interactions_per_s * w.flops_per_pair * 1e-9;
    return t;
}

// `steps` shared steps of N bodies with the leap-frog force.
inline Throughput throughput(std::size_t n, long long steps, double seconds) {
    return throughput(WorkCount{steps, interactions_per_step(n) * static_cast<double>(steps)}, seconds);
}

}  // namespace nbody
