// Cell multipoles bottom-up, one level at a time (the deepest first), cells of a level in parallel: a leaf
// from its bodies, an internal cell from its children, which sit one level deeper and are already done.
#include "core/parallel.hpp"
#include "cpu/tree/cpu_tree.hpp"

namespace nbody {

void CpuTree::compute_moments(double inv_theta, double alpha) {
    m_moments_d.resize(m_cells.size());
    m_moments.resize(m_cells.size());
    for (std::size_t level = m_level_start.size() - 1; level-- > 0;) {
        const uint32_t begin = m_level_start[level], end = m_level_start[level + 1];
        parallel_for(
            end - begin, m_threads,
            [&](std::size_t b, std::size_t e) {
                for (std::size_t c = begin + b; c < begin + e; ++c) {
                    const tree::TreeCell& cell = m_cells[c];
                    const tree::CellBox box = cell_box(c);
                    const tree::MomentsD q =
                        cell.n_children == 0
                            ? tree::leaf_moments(&m_x[cell.body_begin], &m_y[cell.body_begin],
                                                 &m_z[cell.body_begin], &m_m[cell.body_begin],
                                                 cell.body_count, box)
                            : tree::parent_moments(&m_moments_d[cell.first_child], cell.n_children, box);
                    m_moments_d[c] = q;
                    m_moments[c] = tree::walk_moments(q, cell, inv_theta, alpha);
                }
            },
            256);
    }
}

}  // namespace nbody
