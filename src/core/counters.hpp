#pragma once
// Turns timed work into interactions/s and Gflop/s. An interaction is one (i, j) pair; a direct step of N bodies
// counts N^2 interactions, the self term included (softening makes it zero), as everyone counts.
#include <cstddef>

namespace nbody {

// The work of one force evaluation over n bodies, as the method does it. `body_body` and `body_cell` are the
// interactions actually evaluated (a tree: body-body in the leaves, body-cell for the accepted cells; direct:
// N^2 and 0); `equivalent_direct` is what direct summation would have evaluated (N^2), kept apart so a method's
// rate is never N^2 / time in disguise.
struct StepWork {
    double body_body = 0;
    double body_cell = 0;
    double equivalent_direct = 0;
    double evaluated() const { return body_body + body_cell; }
};

// Direct summation: N^2 body-body interactions (the self term included; softening makes it zero).
inline StepWork direct_work(std::size_t n) {
    const double n2 = static_cast<double>(n) * static_cast<double>(n);
    return {n2, 0.0, n2};
}

// Flops per interaction: NVIDIA's convention (GPU Gems 3, the CUDA sample) and Warren et al. 1997 (the
// GRAPE papers, Chamomile, the RV770 paper).
inline constexpr double kFlopsPerInteractionNvidia = 20.0;
inline constexpr double kFlopsPerInteractionWarren = 38.0;
// A Hermite interaction (acceleration, jerk and potential): Belleman et al. 2008's count.
inline constexpr double kFlopsPerInteractionHermite = 60.0;
// A 6th-order Hermite interaction (acceleration, jerk, snap and potential): Nitadori & Makino 2008's count of
// their force loop. Sapporo2 credits 60 for it as for 4th order: its rates read 97 / 60 times lower.
inline constexpr double kFlopsPerInteractionHermite6 = 97.0;

// Work done: force evaluations (steps, or block steps) and the interactions they evaluated, body-body (`pairs`:
// N^2 per shared direct step, active x N per block step) and body-cell (a tree's accepted cells; 0 for direct),
// with the flop count of one body-body pair for the integrator's force. `equivalent_direct` is what direct
// summation of the same evaluations takes (N^2 a shared step), kept apart so a method that evaluates fewer
// interactions shows its true rate and its equivalent one side by side (StepWork above).
struct WorkCount {
    long long evaluations = 0;
    double pairs = 0;
    double flops_per_pair = kFlopsPerInteractionNvidia;
    double body_cell = 0;
    double equivalent_direct = 0;

    // `count` evaluations of `w` each.
    void add(const StepWork& w, double count) {
        pairs += w.body_body * count;
        body_cell += w.body_cell * count;
        equivalent_direct += w.equivalent_direct * count;
    }
    // `count` direct evaluations of `pairs_each` body-body interactions (a block step: active x N).
    void add_direct(double pairs_each, double count = 1) {
        pairs += pairs_each * count;
        equivalent_direct += pairs_each * count;
    }
};
inline WorkCount operator-(const WorkCount& a, const WorkCount& b) {
    return {a.evaluations - b.evaluations, a.pairs - b.pairs, a.flops_per_pair, a.body_cell - b.body_cell,
            a.equivalent_direct - b.equivalent_direct};
}

// No work, in the same flop convention as `w` (a frame that drew while a step ran elsewhere).
inline WorkCount idle_work(const WorkCount& w) {
    WorkCount none;
    none.flops_per_pair = w.flops_per_pair;
    return none;
}

struct Throughput {
    double interactions_per_s = 0;  // evaluated: body-body + body-cell
    double gflops20 = 0;  // at 20 flops per interaction
    double gflops38 = 0;  // at 38 flops per interaction
    double gflops = 0;    // at the integrator's own count (20 leap-frog, 60 Hermite)
    double flops_per_pair = kFlopsPerInteractionNvidia;
    double steps_per_s = 0;  // force evaluations per second (block steps under hermite-block)
    double body_body_per_s = 0;
    double body_cell_per_s = 0;
    double equivalent_direct_per_s = 0;  // N^2 per shared step / time: equals interactions_per_s for direct
};

inline double interactions_per_step(std::size_t n) { return static_cast<double>(n) * static_cast<double>(n); }

inline Throughput throughput(const WorkCount& w, double seconds) {
    Throughput t;
    t.flops_per_pair = w.flops_per_pair;
    if (seconds <= 0 || w.evaluations <= 0) return t;
    t.steps_per_s = static_cast<double>(w.evaluations) / seconds;
    t.interactions_per_s = (w.pairs + w.body_cell) / seconds;
    t.body_body_per_s = w.pairs / seconds;
    t.body_cell_per_s = w.body_cell / seconds;
    t.equivalent_direct_per_s = w.equivalent_direct / seconds;
    t.gflops20 = t.interactions_per_s * kFlopsPerInteractionNvidia * 1e-9;
    t.gflops38 = t.interactions_per_s * kFlopsPerInteractionWarren * 1e-9;
    t.gflops = t.interactions_per_s * w.flops_per_pair * 1e-9;
    return t;
}

// `steps` shared steps of N bodies with the leap-frog force.
inline Throughput throughput(std::size_t n, long long steps, double seconds) {
    WorkCount w;
    w.evaluations = steps;
    w.add(direct_work(n), static_cast<double>(steps));
    return throughput(w, seconds);
}

}  // namespace nbody
