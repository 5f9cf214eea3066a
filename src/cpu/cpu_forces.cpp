#include "cpu/cpu_forces.hpp"

#include "core/parallel.hpp"
#include "core/rows/force_method.hpp"
#include "core/tree/sub_step_rule.hpp"
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

void CpuForces::evaluate_rows(Bodies& b, const SimParams& p, const std::vector<std::size_t>& rows,
                              int threads) {
    switch (p.method) {
        case ForceMethod::Tree:
            if (tree::sums_directly(rows.size(), b.size())) {
                tree_rows_directly(b, p, rows, threads);
                break;
            }
            m_row_mask.assign(b.size(), 0);
            for (std::size_t i : rows) m_row_mask[i] = 1;
            tree(b, p, threads, &m_row_mask, rows.size());
            break;
        case ForceMethod::Direct:
            m_tree_acc_current = false;
            if (p.precision == Precision::Fp32)
                direct_f32_rows(b, p, rows, threads);
            else
                accelerations(b.sources(), rows.data(), rows.size(), p.precision, p.eps * p.eps, threads,
                              b.ax.data(), b.ay.data(), b.az.data());
            break;
    }
    if (p.G != 1.0)
        for (std::size_t i : rows) b.ax[i] *= p.G, b.ay[i] *= p.G, b.az[i] *= p.G;
}

SourcesF32 CpuForces::float_sources(const Bodies& b) {
    const std::size_t n = b.size();
    for (auto* v : {&m_fx, &m_fy, &m_fz, &m_fm, &m_fax, &m_fay, &m_faz}) v->resize(n);
    for (std::size_t i = 0; i < n; ++i)
        m_fx[i] = float(b.x[i]), m_fy[i] = float(b.y[i]), m_fz[i] = float(b.z[i]), m_fm[i] = float(b.m[i]);
    return {m_fx.data(), m_fy.data(), m_fz.data(), m_fm.data(), n};
}

void CpuForces::direct_f32_rows(Bodies& b, const SimParams& p, const std::vector<std::size_t>& rows,
                                int threads) {
    const SourcesF32 src = float_sources(b);
    const float eps2 = static_cast<float>(p.eps * p.eps);
    // One row at a time: each row's sum is the one direct_f32 makes for it (the j loop ignores i0 and i1)
    parallel_for(
        rows.size(), threads,
        [&](std::size_t lo, std::size_t hi) {
            for (std::size_t k = lo; k < hi; ++k)
                accelerations_f32(src, rows[k], rows[k] + 1, eps2, m_fax.data(), m_fay.data(), m_faz.data());
        },
        16);
    for (std::size_t i : rows) b.ax[i] = m_fax[i], b.ay[i] = m_fay[i], b.az[i] = m_faz[i];
}

void CpuForces::direct_f32(Bodies& b, const SimParams& p, std::size_t begin, std::size_t end, int threads) {
    const SourcesF32 src = float_sources(b);
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

void CpuForces::tree(Bodies& b, const SimParams& p, int threads, const std::vector<uint8_t>* rows,
                     std::size_t due) {
    const std::size_t n = b.size();
    if (!m_tree) m_tree = std::make_unique<CpuTree>(threads);
    m_tree_pos.resize(n);
    m_tree_acc.resize(n);
    for (std::size_t i = 0; i < n; ++i) m_tree_pos[i] = {float(b.x[i]), float(b.y[i]), float(b.z[i]), float(b.m[i])};
    if (rows) {  // the others keep their last accelerations in m_tree_acc, for the acceleration criterion
        m_tree->evaluate_active(m_tree_pos.data(), n, rows->data(), p.tree, p.eps, m_tree_acc.data(),
                                &m_tree_stats, m_tree_acc_current, m_tree_refittable && tree::refits(due, n));
    } else
        m_tree->evaluate(m_tree_pos.data(), n, p.tree, p.eps, m_tree_acc.data(), &m_tree_stats,
                         m_tree_acc_current);
    m_tree_acc_current = true;
    m_tree_refittable = true;
    for (std::size_t i = 0; i < n; ++i) {
        if (rows && !(*rows)[i]) continue;
        b.ax[i] = m_tree_acc[i].x, b.ay[i] = m_tree_acc[i].y, b.az[i] = m_tree_acc[i].z;
    }
}

// core/tree/sub_step_rule.hpp: few due bodies sum every body directly, in float32 as the direct method (the
// accelerations without G here: evaluate_rows applies it). The tree's last accelerations take theirs, as a
// walk would leave them for the acceleration criterion; the tree itself stays as it was (still refittable).
void CpuForces::tree_rows_directly(Bodies& b, const SimParams& p, const std::vector<std::size_t>& rows,
                                   int threads) {
    direct_f32_rows(b, p, rows, threads);
    const std::size_t n = b.size();
    m_tree_acc.resize(n);
    for (std::size_t i : rows) m_tree_acc[i] = {float(b.ax[i]), float(b.ay[i]), float(b.az[i]), 0.f};
    m_tree_stats = {};
    m_tree_stats.bodies = n;
    m_tree_stats.body_body = uint64_t(rows.size()) * uint64_t(n);
    m_tree_stats.walked_bodies = rows.size();
}

StepWork CpuForces::rows_work(const SimParams& p, std::size_t rows, std::size_t n) const {
    const double equivalent = double(rows) * double(n);  // what direct summation of the same rows takes
    switch (p.method) {
        case ForceMethod::Tree:
            return {double(m_tree_stats.body_body), double(m_tree_stats.body_cell), equivalent};
        case ForceMethod::Direct: break;
    }
    return {equivalent, 0.0, equivalent};
}

void CpuForces::resume(const Bodies& b, const SimParams& p) {
    m_tree_refittable = false;  // the tree is not of these bodies' last build: the next step builds
    m_tree_acc_current = p.method == ForceMethod::Tree;
    if (!m_tree_acc_current) return;
    // the tree wrote float32 values, scaled by G in float64: dividing by G rounds back to the same floats
    m_tree_acc.resize(b.size());
    for (std::size_t i = 0; i < b.size(); ++i)
        m_tree_acc[i] = {float(b.ax[i] / p.G), float(b.ay[i] / p.G), float(b.az[i] / p.G), 0.f};
}

std::vector<TreeCellBox> CpuForces::cells(const SimParams& p, int depth) const {
    if (!method_info(p.method).has_cells || !m_tree) return {};
    return cell_boxes(m_tree->cells().data(), m_tree->cells().size(), m_tree->key_box(), depth);
}

}  // namespace nbody
