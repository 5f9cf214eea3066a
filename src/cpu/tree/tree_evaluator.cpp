#include "cpu/tree/tree_evaluator.hpp"

#include "core/tree/sub_step_rule.hpp"

namespace nbody {

// The tree walks every body: rows beyond [begin, end) are evaluated too (the tree runs on one rank only).
void TreeEvaluator::evaluate(Bodies& b, const SimParams& p, std::size_t, std::size_t, int threads) {
    walk(b, p, threads);
}

void TreeEvaluator::evaluate_rows(Bodies& b, const SimParams& p, const std::vector<std::size_t>& rows,
                                  int threads) {
    if (tree::sums_directly(rows.size(), b.size())) return rows_directly(b, p, rows, threads);
    m_row_mask.assign(b.size(), 0);
    for (std::size_t i : rows) m_row_mask[i] = 1;
    walk(b, p, threads, &m_row_mask, rows.size());
}

void TreeEvaluator::walk(Bodies& b, const SimParams& p, int threads, const std::vector<uint8_t>* rows,
                         std::size_t due) {
    const std::size_t n = b.size();
    if (!m_tree) m_tree = std::make_unique<CpuTree>(threads);
    m_pos.resize(n);
    m_acc.resize(n);
    for (std::size_t i = 0; i < n; ++i) m_pos[i] = {float(b.x[i]), float(b.y[i]), float(b.z[i]), float(b.m[i])};
    if (rows) {  // the others keep their last accelerations in m_acc, for the acceleration criterion
        m_tree->evaluate_active(m_pos.data(), n, rows->data(), p.tree, p.eps, m_acc.data(), &m_stats,
                                m_acc_current, m_refittable && tree::refits(due, n));
    } else
        m_tree->evaluate(m_pos.data(), n, p.tree, p.eps, m_acc.data(), &m_stats, m_acc_current);
    m_acc_current = true;
    m_refittable = true;
    for (std::size_t i = 0; i < n; ++i) {
        if (rows && !(*rows)[i]) continue;
        b.ax[i] = m_acc[i].x, b.ay[i] = m_acc[i].y, b.az[i] = m_acc[i].z;
    }
}

// core/tree/sub_step_rule.hpp: few due bodies sum every body directly, in float32 as the direct method. The
// tree's last accelerations take theirs, as a walk would leave them for the acceleration criterion; the tree
// itself stays as it was (still refittable).
void TreeEvaluator::rows_directly(Bodies& b, const SimParams& p, const std::vector<std::size_t>& rows,
                                  int threads) {
    m_direct.evaluate_rows(b, p.eps, rows, threads);
    const std::size_t n = b.size();
    m_acc.resize(n);
    for (std::size_t i : rows) m_acc[i] = {float(b.ax[i]), float(b.ay[i]), float(b.az[i]), 0.f};
    m_stats = {};
    m_stats.bodies = n;
    m_stats.body_body = uint64_t(rows.size()) * uint64_t(n);
    m_stats.walked_bodies = rows.size();
}

StepWork TreeEvaluator::rows_work(std::size_t rows, std::size_t n) const {
    const double equivalent = double(rows) * double(n);  // what direct summation of the same rows takes
    return {double(m_stats.body_body), double(m_stats.body_cell), equivalent};
}

std::vector<TreeCellBox> TreeEvaluator::cells(int depth) const {
    if (!m_tree) return {};
    return cell_boxes(m_tree->cells().data(), m_tree->cells().size(), m_tree->key_box(), depth);
}

void TreeEvaluator::resume(const Bodies& b, const SimParams& p) {
    m_refittable = false;  // the tree is not of these bodies' last build: the next step builds
    m_acc_current = true;
    // the tree wrote float32 values, scaled by G in float64: dividing by G rounds back to the same floats
    m_acc.resize(b.size());
    for (std::size_t i = 0; i < b.size(); ++i)
        m_acc[i] = {float(b.ax[i] / p.G), float(b.ay[i] / p.G), float(b.az[i] / p.G), 0.f};
}

}  // namespace nbody
