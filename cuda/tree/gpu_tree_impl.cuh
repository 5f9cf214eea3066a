#pragma once
// The GPU tree's device state, shared by its stage files (tree_build.cu, tree_multipoles.cu).
#include <cuda_runtime.h>

#include "device_set.cuh"
#include "tree/gpu_tree.hpp"

namespace nbody {

struct GpuTree::Impl {
    int device = 0;
    cudaStream_t stream = nullptr;
    std::size_t n = 0, capacity = 0, cells = 0, cell_capacity = 0;
    std::vector<uint32_t> level_start;  // host copy: first cell of each level, then one past the last
    kernels::DeviceBuffer input;        // float4 in input order
    kernels::DeviceBuffer box;          // tree::KeyBox
    kernels::DeviceBuffer keys[2], order[2];
    kernels::DeviceBuffer x, y, z, m;  // key order, float32
    kernels::DeviceBuffer sort_temp, scan_temp;
    std::size_t sort_temp_bytes = 0, scan_temp_bytes = 0;
    kernels::DeviceBuffer tree_cells, child_counts, child_offsets, moments_d, moments;
    // The walk: one traversal stack per resident warp, its counters (next group, interactions, overflow),
    // the per-group list lengths, and the accelerations of evaluate() from the host.
    kernels::DeviceBuffer stacks, walk_counters, group_counts, host_acc;
    kernels::DeviceBuffer group_made, group_offsets, group_list;  // the groups (tree_groups.cu)
    std::size_t groups = 0;

    void build_from_input(const TreeParams& p, TreeStats& s);
    void make_groups(uint32_t group);
    void walk(const TreeParams& p, float soft2, float4* acc, TreeStats& s);

    void start(std::size_t count, const TreeParams& p);
    void reserve_bodies(std::size_t count);
    void reserve_cells(std::size_t count);
    void bounding_box_and_keys();
    void sort();
    void build_levels(int leaf);
    void compute_moments(double inv_theta);
};

inline int grid_for(std::size_t n, int block) {
    return static_cast<int>((n + std::size_t(block) - 1) / std::size_t(block));
}

}  // namespace nbody
