#pragma once
// The GPU tree's device state, shared by its stage files (tree_build.cu, tree_build_levels.cu,
// tree_multipoles.cu, tree_groups.cu, tree_walk.cu).
#include <cuda_runtime.h>

#include <array>

#include "common/device_set.cuh"
#include "common/pinned.cuh"
#include "spatial/key_sort.cuh"
#include "tree/gpu_tree.hpp"

namespace nbody {

struct GpuTree::Impl {
    int device = 0;
    cudaStream_t stream = nullptr;
    bool owns_stream = true;  // false: the caller's (GpuTree(device, stream))
    std::size_t n = 0, capacity = 0, cells = 0, cell_capacity = 0;
    std::vector<uint32_t> level_start;  // host copy: first cell of each level, then one past the last
    bool short_keys = true;  // what the last build settled on (tree_defs.hpp): the next one tries it first
    kernels::DeviceBuffer input;        // float4 in input order
    kernels::DeviceBuffer box;          // tree::KeyBox
    kernels::DeviceBuffer box_partials;  // the bounding box's first pass: (lo, hi) float4 pairs
    kernels::KeyIndexSort<uint64_t, uint32_t> sorted;  // the bodies' keys and indices, sorted by key
    kernels::DeviceBuffer bodies;  // key order, float4 x, y, z (length units), m
    kernels::DeviceBuffer scan_temp;
    std::size_t scan_temp_bytes = 0;
    kernels::DeviceBuffer tree_cells, moments_d, moments;
    // Each cell's parent (the link pass writes them; the root's is unset) and the multipoles' arrival counts.
    kernels::DeviceBuffer cell_parent, cell_arrivals;
    // The octree's count table (tree_build_levels.cu): cells of each level starting in each block of bodies,
    // and its scan; about 0.1 entries a body.
    kernels::DeviceBuffer level_counts, level_offsets;
    // The walk: one traversal stack per resident warp, its counters (next group, interactions, overflow),
    // the per-group list lengths, and the accelerations of evaluate() from the host.
    kernels::DeviceBuffer stacks, walk_counters, group_counts, host_acc;
    kernels::DeviceBuffer group_made, group_offsets, group_list;  // the groups (tree_groups.cu)
    // The groups to walk (those holding an active body, those of a share), then their count and the share's run.
    kernels::DeviceBuffer walk_list;
    // A walk cut over several warps a group (tree_walk.cu): the arrivals, each part's counts and sums.
    kernels::DeviceBuffer split_scratch;
    // What sizes the walk's persistent launch, asked of the driver once, not every walk (a walk follows the
    // selection's wait, so host time there is the step's): the multiprocessors, and the blocks a multiprocessor
    // of each walk instance (bodies a lane 1, 2, 4; whole or cut), 0 until first launched.
    int sms = 0;
    std::array<int, 6> walk_blocks_per_sm{};  // tree_walk.cu's kWalkKernels order
    KeyRun run;  // the last walk's bodies in key order
    // Page-locked words for what an evaluation reads back and waits for (the octree's level starts, the group
    // count, the selection's scalars; the walk's counters): a copy into pageable memory is staged through the
    // driver's buffer on the host, several times a block step. Each user waits for its copy before it returns,
    // so they share the words.
    static constexpr std::size_t kHostWords = 64;
    kernels::Pinned<uint32_t> host_words;
    kernels::Pinned<unsigned long long> host_counters;
    // The walk's order, costliest group first (tree_walk_order.cu): whether each body's acceleration carries
    // its last group's cost (walk_cost, in w), and the sort of the groups by those estimates.
    bool costs_known = false;
    kernels::KeyIndexSort<uint32_t, uint32_t> group_sort;
    std::size_t group_sort_capacity = 0;
    std::size_t groups = 0;
    // Stage boundaries of the last build (before the keys, after the keys, the sort, the octree, the
    // multipoles), recorded on the stream so timing them costs no synchronisation; made on first use.
    struct StageEvents {
        cudaEvent_t at[5] = {};
        StageEvents() = default;
        StageEvents(const StageEvents&) = delete;
        StageEvents& operator=(const StageEvents&) = delete;
        ~StageEvents() {
            for (cudaEvent_t e : at)
                if (e) cudaEventDestroy(e);
        }
        void create() {
            for (cudaEvent_t& e : at)
                if (!e) NBODY_CUDA_CHECK(cudaEventCreate(&e));
        }
    } stage_events;

    // Records the stages' events and returns without waiting; read_stage_times fills s once the stream has
    // passed them (after a walk it has: the walk waits for its counters).
    void build_from_input(const TreeParams& p, TreeStats& s);
    // The last tree refitted to the bodies at pos (input order, device): gathered into its key order, the
    // multipoles made anew (core/tree/sub_step_rule.hpp); the same events, keys, sort and build taking none.
    void refit(const float4* pos, const TreeParams& p, TreeStats& s);
    // The leaf and group sizes of the last tree built and grouped (0: none since start(); a refit needs both).
    int grouped_leaf = 0, grouped_size = 0;
    bool can_refit(std::size_t count, const TreeParams& p) const {
        return count == n && cells > 0 && grouped_leaf == p.leaf && grouped_size == p.group;
    }
    void read_stage_times(TreeStats& s);
    void make_groups(uint32_t group);
    // out = exclusive prefix sums of in (CUB, on the stream; grows scan_temp as needed)
    void exclusive_sum(const uint32_t* in, uint32_t* out, std::size_t count);
    // Over the groups make_groups made. use_last: each group's smallest acceleration from acc (as it holds on
    // entry) for the acceleration criterion. active (input order, device; null: every body): only the groups
    // holding an active body are walked, a group of at most 32 for its active bodies alone
    // (tree::walks_active_members), and only the active bodies' accelerations are written.
    // share (null: every group): only the groups whose first body lies in it, and run becomes their bodies.
    void walk(const TreeParams& p, float soft2, float4* acc, TreeStats& s, bool use_last,
              const uint8_t* active = nullptr, const WalkShare* share = nullptr);
    // Fills walk_list with the groups holding an active body (active null: any) in the share (null: any) and
    // sets run; returns how many, and how many hold an active body in every share.
    struct Selection {
        uint32_t walked, holding;
    };
    Selection select_groups(const uint8_t* active, const WalkShare* share);
    // The candidates (null: every group) ordered by the last walk's costs (acc's w), costliest first, on the
    // stream; the candidates as they were before any whole walk has run.
    const uint32_t* costliest_first(const uint32_t* candidates, uint32_t count, const float4* acc);

    void start(std::size_t count, const TreeParams& p);
    void reserve_bodies(std::size_t count);
    void reserve_cells(std::size_t count);
    void bounding_box();
    void keys(bool short_keys);  // tree_defs.hpp's short keys, or all 63 bits
    void sort(bool short_keys);
    void build_levels(int leaf);
    void compute_moments(double inv_theta, double alpha);
};

// A group's walk cost, which the walk stores in each member's acceleration's w for the next walk's order
// (tree_walk_order.cu): cells count 3, bodies 1 (a body-cell term takes about three times a body-body term's
// instructions). Exact in float below 2^24.
__host__ __device__ inline float walk_cost(uint32_t cells, uint32_t bodies) { return float(3u * cells + bodies); }

inline int grid_for(std::size_t n, int block) {
    return static_cast<int>((n + std::size_t(block) - 1) / std::size_t(block));
}

}  // namespace nbody
