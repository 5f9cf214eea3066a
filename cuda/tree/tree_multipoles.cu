// The GPU tree's multipoles, level by level from the deepest (one thread a cell), with the CPU tree's
// double-precision accumulation (src/core/tree/multipoles.hpp): a leaf from its bodies, an internal cell from
// its children one level down, already done by the previous launch.
#include "core/tree/multipoles.hpp"
#include "tree/gpu_tree_impl.cuh"

namespace nbody {

namespace {

__global__ void tree_moments_kernel(const tree::TreeCell* cells, uint32_t begin, uint32_t count,
                                    const tree::KeyBox* box, const float* x, const float* y, const float* z,
                                    const float* m, tree::MomentsD* md, tree::CellMoments* mf,
                                    double inv_theta, double alpha) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    const uint32_t c = begin + i;
    const tree::TreeCell cell = cells[c];
    const tree::CellBox cb = tree::cell_box(cell.key, cell.level, *box);
    const uint32_t b = cell.body_begin;
    const tree::MomentsD q = cell.n_children == 0
                                 ? tree::leaf_moments(x + b, y + b, z + b, m + b, cell.body_count, cb)
                                 : tree::parent_moments(md + cell.first_child, cell.n_children, cb);
    md[c] = q;
    mf[c] = tree::walk_moments(q, cell, inv_theta, alpha);
}

}  // namespace

void GpuTree::Impl::compute_moments(double inv_theta, double alpha) {
    const auto* key_box = box.as<const tree::KeyBox>();  // read on the device: no wait for the box kernel
    for (std::size_t level = level_start.size() - 1; level-- > 0;) {
        const uint32_t begin = level_start[level], count = level_start[level + 1] - begin;
        if (count == 0) continue;
        tree_moments_kernel<<<grid_for(count, 128), 128, 0, stream>>>(
            tree_cells.as<const tree::TreeCell>(), begin, count, key_box, x.as<const float>(),
            y.as<const float>(), z.as<const float>(), m.as<const float>(), moments_d.as<tree::MomentsD>(),
            moments.as<tree::CellMoments>(), inv_theta, alpha);
        NBODY_CUDA_CHECK_LAUNCH("tree_moments_kernel");
    }
}

}  // namespace nbody
