#pragma once
// The GPU tree's build stages (bounding box, keys, radix sort, level-by-level octree, multipoles bottom-up)
// with the per-element math of src/core/tree/, so it builds the tree the CPU tree (src/cpu/tree/) builds.
// Plain C++ header: no CUDA types. The walk is not here yet; nor is the engine's use of it.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/float4.hpp"
#include "core/tree/tree_defs.hpp"
#include "core/tree/tree_params.hpp"

namespace nbody {

class GpuTree {
  public:
    // Throws BackendError when the device cannot be used.
    explicit GpuTree(int device = 0);
    ~GpuTree();
    GpuTree(const GpuTree&) = delete;
    GpuTree& operator=(const GpuTree&) = delete;

    // Copies n bodies (float32, w = mass) to the device and builds the tree with multipoles. Bodies must be
    // finite (the caller checks, as CpuTree::evaluate does). Fills the stage times and the cell counts of st.
    void build(const Float4* pos_mass, std::size_t n, const TreeParams& p, TreeStats* st = nullptr);

    // The last tree, copied back (for tests and drawing).
    std::vector<tree::TreeCell> cells() const;
    std::vector<tree::CellMoments> moments() const;
    std::vector<uint64_t> keys() const;
    std::vector<uint32_t> order() const;
    tree::KeyBox key_box() const;
    // Device bytes held per body at the last build (the budget is 200).
    double bytes_per_body() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> m;
};

}  // namespace nbody
