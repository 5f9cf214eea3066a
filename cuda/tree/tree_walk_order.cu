// The order the walk takes its groups in: costliest first. The walk's warps take groups from a counter, so the
// walk ends when the last group taken ends; where a costly group comes late (3x the mean list, one warp walking
// it alone) the other warps idle meanwhile. Longest first is the classic cure: the late groups are the cheap
// ones. A group's cost is not known before its walk, so it is estimated from the last walk: each body's
// acceleration carries its last group's cost in w (walk_cost; the walk writes it with the acceleration, where a
// pass over the groups after the walk took 0.5 ms of a 10M-body step on an H200), and a new group's estimate
// is its first body's. The order changes which warp
// walks a group, never what the walk computes. Measured on an H100 (A/B in one call): Plummer 1,048,576 207
// against 199 steps/s, the 1M Cartwheel 183 against 174, a Milky Way-Andromeda block step's walk 5.81 against
// 5.96 ms; at 131,072 it was 8% slower, so the walk asks for it only with several groups a warp.
// NBODY_TREE_WALK_ORDER=index keeps the index order (for an A/B of the two in one build).
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "tree/gpu_tree_impl.cuh"

namespace nbody {

namespace {

// Sort keys: the estimate inverted (so an ascending sort puts the costliest first), the group as the value.
__global__ void group_estimates_kernel(const tree::TreeGroup* groups, const uint32_t* candidates, uint32_t count,
                                       const uint32_t* order, const float4* acc, uint32_t* keys, uint32_t* values) {
    const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= count) return;
    const uint32_t g = candidates ? candidates[k] : k;
    keys[k] = ~uint32_t(acc[order[groups[g].begin]].w);
    values[k] = g;
}

}  // namespace

const uint32_t* GpuTree::Impl::costliest_first(const uint32_t* candidates, uint32_t count, const float4* acc) {
    static const bool index_order = [] {
        const char* v = std::getenv("NBODY_TREE_WALK_ORDER");
        return v && std::strcmp(v, "index") == 0;
    }();
    if (index_order || !costs_known || count == 0) return candidates;
    if (group_sort_capacity < count) {
        group_sort_capacity = std::max<std::size_t>(count, group_sort_capacity * 2);
        group_sort.reserve(device, group_sort_capacity, 32, "tree group cost keys", "tree group order",
                           "tree group sort scratch");
    }
    group_estimates_kernel<<<grid_for(count, 256), 256, 0, stream>>>(
        group_list.as<const tree::TreeGroup>(), candidates, count, sorted.order(), acc, group_sort.keys_in(),
        group_sort.index_in());
    NBODY_CUDA_CHECK_LAUNCH("group_estimates_kernel");
    group_sort.enqueue(int(count), 32, stream);
    return group_sort.order();
}

}  // namespace nbody
