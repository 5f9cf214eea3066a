// The GPU tree's multipoles in one launch, bottom-up, with the CPU tree's double-precision accumulation
// (src/core/tree/multipoles.hpp, compiled here without FMA contraction so the bits are the CPU tree's): one
// thread a leaf computes it from its bodies, then counts itself in at its parent; the child that arrives last
// computes the parent from all its children (in child order, so the bits do not depend on which child came
// last) and climbs on. A launch a level, each waiting on the last, took 0.14 ms for 131,072 Plummer bodies'
// 11 levels on an H100, mostly the launches' latency; one launch takes 0.07 ms. Against a launch a level the
// steps are 8% faster at 262,144 bodies, 4.6% at 524,288, 3.6% at 1M and the same at 10M
// (docs/bench/performance-log.md). A parent reads its children twice through L2 rather than copying them: a
// copy of eight in local memory made the one launch slower than the levels at 1M.
#include "core/tree/multipoles.hpp"
#include "tree/gpu_tree_impl.cuh"

namespace nbody {

namespace {

struct MomentsArgs {
    const tree::TreeCell* cells;
    const tree::KeyBox* box;
    const float *x, *y, *z, *m;  // key order
    tree::MomentsD* md;
    tree::CellMoments* mf;
    double inv_theta, alpha;
};

__device__ tree::MomentsD leaf_of(const MomentsArgs& a, const tree::TreeCell& cell) {
    const uint32_t b = cell.body_begin;
    return tree::leaf_moments(a.x + b, a.y + b, a.z + b, a.m + b, cell.body_count,
                              tree::cell_box(cell.key, cell.level, *a.box));
}

__device__ void store(const MomentsArgs& a, uint32_t c, const tree::TreeCell& cell, const tree::MomentsD& q) {
    a.md[c] = q;
    a.mf[c] = tree::walk_moments(q, cell, a.inv_theta, a.alpha);
}

// A child's moments as another multiprocessor wrote them: loaded through L2 (this one's L1 may hold the line
// from before the write), after the fence that follows the arrival count.
__device__ tree::MomentsD load_written(const tree::MomentsD* md) {
    static_assert(sizeof(tree::MomentsD) % sizeof(double2) == 0, "MomentsD loads as whole double2s");
    tree::MomentsD q;
    auto* to = reinterpret_cast<double2*>(&q);
    const auto* from = reinterpret_cast<const double2*>(md);
    for (std::size_t k = 0; k < sizeof(tree::MomentsD) / sizeof(double2); ++k) to[k] = __ldcg(from + k);
    return q;
}

__global__ void tree_moments_kernel(MomentsArgs a, uint32_t count, const uint32_t* parent,
                                    uint32_t* arrived) {
    uint32_t c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= count) return;
    tree::TreeCell cell = a.cells[c];
    if (cell.n_children != 0) return;  // computed by its last child's thread
    tree::MomentsD q = leaf_of(a, cell);
    for (;;) {
        store(a, c, cell, q);
        if (c == 0) return;
        __threadfence();  // this cell's moments are visible before its arrival is
        c = parent[c];
        cell = a.cells[c];
        if (atomicAdd(arrived + c, 1u) != cell.n_children - 1u) return;
        __threadfence();
        const tree::MomentsD* kids = a.md + cell.first_child;
        q = tree::parent_moments_of([kids](int k) { return load_written(kids + k); }, cell.n_children,
                                    tree::cell_box(cell.key, cell.level, *a.box));
    }
}

}  // namespace

void GpuTree::Impl::compute_moments(double inv_theta, double alpha) {
    if (cells == 0) return;
    // the key box is read on the device: no wait for the box kernel
    const MomentsArgs a{tree_cells.as<const tree::TreeCell>(), box.as<const tree::KeyBox>(),
                        x.as<const float>(), y.as<const float>(), z.as<const float>(), m.as<const float>(),
                        moments_d.as<tree::MomentsD>(), moments.as<tree::CellMoments>(), inv_theta, alpha};
    // cell_parent and the cleared cell_arrivals come from the link pass (tree_build_levels.cu)
    tree_moments_kernel<<<grid_for(cells, 128), 128, 0, stream>>>(
        a, uint32_t(cells), cell_parent.as<const uint32_t>(), cell_arrivals.as<uint32_t>());
    NBODY_CUDA_CHECK_LAUNCH("tree_moments_kernel");
}

}  // namespace nbody
