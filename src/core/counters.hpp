#pragma once
// Turns timed work into interactions/s and Gflop/s. An interaction is one (i, j) pair; a step of N bodies
// counts N^2 interactions, the self term included (softening makes it zero), as everyone counts.
#include <cstddef>

namespace nbody {

// Flops per interaction: NVIDIA's convention (GPU Gems 3, the CUDA sample) and Warren et al. 1997 (the
// GRAPE papers, Chamomile, the RV770 paper).
inline constexpr double kFlopsPerInteractionNvidia = 20.0;
inline constexpr double kFlopsPerInteractionWarren = 38.0;

struct Throughput {
    double interactions_per_s = 0;
    double gflops20 = 0;  // at 20 flops per interaction
    double gflops38 = 0;  // at 38 flops per interaction
    double steps_per_s = 0;
};

inline double interactions_per_step(std::size_t n) { return static_cast<double>(n) * static_cast<double>(n); }

inline Throughput throughput(std::size_t n, long long steps, double seconds) {
    Throughput t;
    if (seconds <= 0 || steps <= 0) return t;
    t.steps_per_s = static_cast<double>(steps) / seconds;
    t.interactions_per_s = interactions_per_step(n) * t.steps_per_s;
    t.gflops20 = t.interactions_per_s * kFlopsPerInteractionNvidia * 1e-9;
    t.gflops38 = t.interactions_per_s * kFlopsPerInteractionWarren * 1e-9;
    return t;
}

}  // namespace nbody
