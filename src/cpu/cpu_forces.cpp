#include "cpu/cpu_forces.hpp"

#include "core/parallel.hpp"
#include "cpu/force_f32.hpp"

namespace nbody {

void CpuForces::evaluate(Bodies& b, const SimParams& p, std::size_t begin, std::size_t end, int threads) {
    switch (p.method) {  // every method, so the compiler names this place when one is added
        case ForceMethod::Tree: tree(b, p, threads); break;
        case ForceMethod::Direct:
            m_tree_acc_current = false;  // the bodies move on without the tree
            if (p.precision == Precision::Fp32)
                direct_f32(b, p, begin, end, threads);
            else
                accelerations(b.sources(), p.precision, p.eps * p.eps, threads, b.ax.data(), b.ay.data(),
                              b.az.data());
            break;
    }
    if (p.G != 1.0)
        for (std::size_t i = begin; i < end; ++i) b.ax[i] *= p.G, b.ay[i] *= p.G, b.az[i] *= p.G;
}

void CpuForces::direct_f32(Bodies& b, const SimParams& p, std::size_t begin, std::size_t end, int threads) {
    const std::size_t n = b.size();
    for (auto* v : {&m_fx, &m_fy, &m_fz, &m_fm, &m_fax, &m_fay, &m_faz}) v->resize(n);
    for (std::size_t i = 0; i < n; ++i)
        m_fx[i] = float(b.x[i]), m_fy[i] = float(b.y[i]), m_fz[i] = float(b.z[i]), m_fm[i] = float(b.m[i]);
    const SourcesF32 src{m_fx.data(), m_fy.data(), m_fz.data(), m_fm.data(), n};
    const float eps2 = static_cast<float>(p.eps * p.eps);
    // Each i row is summed by one thread in a fixed j order, so the result is bit-identical for any thread
    // count, and for any split of the rows over ranks (a distributed run equals one rank). Rows are cheap to
    // hand out in chunks of 16 or more.
    parallel_for(
        end - begin, threads,
        [&](std::size_t lo, std::size_t hi) {
            accelerations_f32(src, begin + lo, begin + hi, eps2, m_fax.data(), m_fay.data(), m_faz.data());
        },
        16);
    for (std::size_t i = begin; i < end; ++i) b.ax[i] = m_fax[i], b.ay[i] = m_fay[i], b.az[i] = m_faz[i];
}

void CpuForces::tree(Bodies& b, const SimParams& p, int threads) {
    const std::size_t n = b.size();
    if (!m_tree) m_tree = std::make_unique<CpuTree>(threads);
    m_tree_pos.resize(n);
    m_tree_acc.resize(n);
    for (std::size_t i = 0; i < n; ++i) m_tree_pos[i] = {float(b.x[i]), float(b.y[i]), float(b.z[i]), float(b.m[i])};
    m_tree->evaluate(m_tree_pos.data(), n, p.tree, p.eps, m_tree_acc.data(), &m_tree_stats, m_tree_acc_current);
    m_tree_acc_current = true;
    for (std::size_t i = 0; i < n; ++i) b.ax[i] = m_tree_acc[i].x, b.ay[i] = m_tree_acc[i].y, b.az[i] = m_tree_acc[i].z;
}

StepWork CpuForces::last_work(const SimParams& p, std::size_t n) const {
    switch (p.method) {
        case ForceMethod::Tree: {
            const double nd = double(n);
            return {double(m_tree_stats.body_body), double(m_tree_stats.body_cell), nd * nd};
        }
        case ForceMethod::Direct: break;
    }
    return direct_work(n);
}

std::vector<TreeCellBox> CpuForces::cells(const SimParams& p, int depth) const {
    if (!method_info(p.method).has_cells || !m_tree) return {};
    return cell_boxes(m_tree->cells().data(), m_tree->cells().size(), m_tree->key_box(), depth);
}

}  // namespace nbody
