#pragma once
// The tree on several GPUs (cuda/tree/tree_engine.cuh): every GPU holds every body and builds the same tree,
// and each walks a share of its groups, the groups whose first body lies in its share of the key order
// (GpuTree's WalkShare). This is the shares' arithmetic: where the bounds lie, how they move toward equal
// walk times, and what the exchange of the walked accelerations moves. No CUDA: unit-tested here.
#include <cstddef>
#include <vector>

namespace nbody::tree {

// parts + 1 bounds in key order, 0 = bounds[0] <= ... <= bounds[parts] = n; share p is [bounds[p], bounds[p+1]).
struct WalkShares {
    std::vector<std::size_t> bounds;

    // Equal shares of n bodies; parts >= 1.
    static WalkShares even(std::size_t n, std::size_t parts);
    std::size_t parts() const { return bounds.empty() ? 0 : bounds.size() - 1; }

    // After a walk in which part p walked the bodies [runs[p], runs[p + 1]) of the key order (the runs its
    // groups covered: GpuTree::walked_run) in seconds[p]: the bounds that would have given every part the same
    // time were each body of a run as costly as its run's mean, moved `gain` (0..1] of the way there. A run
    // with no time or no bodies leaves the bounds as they are. Deterministic: the same inputs, the same bounds.
    void rebalance(const std::vector<std::size_t>& runs, const std::vector<double>& seconds, double gain = 0.5);
};

// Bytes the exchange moves in one evaluation: each part's run of accelerations (16 bytes a body) to each of
// the other parts, so n bodies cost 16 n (parts - 1) bytes in all whatever the shares.
double exchange_bytes(std::size_t n, std::size_t parts);

}  // namespace nbody::tree
