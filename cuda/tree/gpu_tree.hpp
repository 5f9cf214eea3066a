#pragma once
// The GPU tree's build stages (bounding box, keys, radix sort, the octree's levels all at once, multipoles bottom-up)
// with the per-element math of src/core/tree/, so it builds the tree the CPU tree (src/cpu/tree/) builds.
// and the group walk (tree_walk.cu): one warp a group, the opening test and both interactions of
// src/core/tree/interactions.hpp. Plain C++ header: no CUDA types.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/float4.hpp"
#include "core/tree/tree_defs.hpp"
#include "core/tree/tree_params.hpp"

namespace nbody {

// One GPU's share of the walk where several GPUs each hold every body and build the same tree (the tree engine
// on several parts): the groups whose first body, in key order, lies in [begin, end). Groups cut the key order
// into runs, so the bodies a share walks are one run of the key order (GpuTree::walked_run).
// mirrors: the other GPUs' acceleration buffers, in input order as this walk's own (device pointers this GPU
// can write: peer memory, or another process's through CUDA IPC): each walked acceleration is also stored there
// at its body's index, so the exchange happens during the walk, over NVLink, and nothing is left after it. The
// caller sees that no other GPU reads those buffers while the walk runs (their kicks have ended).
struct WalkShare {
    static constexpr int kMaxMirrors = 7;
    std::size_t begin = 0, end = 0;
    void* mirrors[kMaxMirrors] = {};
    int mirror_count = 0;
};
struct KeyRun {
    std::size_t begin = 0, end = 0;  // bodies [begin, end) of the key order
};

class GpuTree {
  public:
    // Throws BackendError when the device cannot be used.
    explicit GpuTree(int device = 0);
    // The same on the caller's stream (a cudaStream_t), which it keeps: the tree's work then follows the
    // caller's on the GPU, with no wait on the host between them (an engine's drift, then the build).
    GpuTree(int device, void* stream);
    ~GpuTree();
    GpuTree(const GpuTree&) = delete;
    GpuTree& operator=(const GpuTree&) = delete;

    // Copies n bodies (float32, w = mass) to the device and builds the tree with multipoles. Bodies must be
    // finite (the caller checks, as CpuTree::evaluate does). Fills the stage times and the cell counts of st.
    void build(const Float4* pos_mass, std::size_t n, const TreeParams& p, TreeStats* st = nullptr);

    // Builds the tree of the n bodies and walks it: acc[i] (input order, w = 0) is body i's acceleration
    // without G at Plummer softening eps. Fills st as build() does, plus the interactions evaluated and the
    // walk's time. Throws BackendError if a group's traversal stack overflowed (it cannot: see tree_walk.cu).
    // With the acceleration criterion (p.alpha > 0), acc_holds_last says acc holds each body's last
    // acceleration on entry (CpuTree::evaluate's contract); without it a first walk under Barnes's test alone
    // finds them.
    void evaluate(const Float4* pos_mass, std::size_t n, const TreeParams& p, double eps, Float4* acc,
                  TreeStats* st = nullptr, bool acc_holds_last = false);
    // The same over device arrays of n float4 (an engine's state), on this tree's stream, which it
    // synchronises before returning. d_acc must not alias d_pos_mass. d_active (device, n flags in input
    // order; null: every body): block steps, where only the groups holding an active body are walked and
    // only the active bodies' accelerations written (CpuTree::evaluate_active's contract).
    // may_refit (with d_active; tree::refits' decision, which the caller takes from its active count): the
    // last tree is refitted (core/tree/sub_step_rule.hpp) where it was built and walked for these n bodies under
    // the same leaf and group sizes, as CpuTree::evaluate_active does. Each written d_acc's w is its group's
    // walk cost, which the next walk (acc_holds_last) orders its groups by; callers read x, y and z.
    void evaluate_device(const void* d_pos_mass, std::size_t n, const TreeParams& p, double eps, void* d_acc,
                         TreeStats* st = nullptr, bool acc_holds_last = false,
                         const uint8_t* d_active = nullptr, bool may_refit = false,
                         const WalkShare* share = nullptr);
    // The bodies the last evaluation's walk covered, in key order: its share's run, or every body.
    KeyRun walked_run() const;
    // The last tree's key order: order[k] is the input index of the k-th body in key order (device memory).
    const uint32_t* device_order() const;

    // Per group of the last walk (tree::emit_groups, in CpuTree::groups()'s order): its interaction list's
    // lengths, as CpuTree reports them.
    std::vector<uint32_t> group_cell_counts() const;
    std::vector<uint32_t> group_body_counts() const;

    // The last tree, copied back (for tests and drawing).
    std::vector<tree::TreeCell> cells() const;
    // Only the cells at levels 0 .. depth (the prefix of the breadth-first array that holds them), so drawing
    // the top of a million-body tree copies a few thousand cells, not all of them. Empty before a build.
    std::vector<tree::TreeCell> cells_to_depth(int depth) const;
    std::vector<tree::CellMoments> moments() const;
    std::vector<uint64_t> keys() const;
    std::vector<uint32_t> order() const;
    tree::KeyBox key_box() const;
    // Device bytes held per body at the last build (the budget is 200: 10M bodies in 2 GB).
    double bytes_per_body() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> m;
};

}  // namespace nbody
