#include "cpu/cpu_forces.hpp"

#include "core/rows/force_method.hpp"

namespace nbody {

CpuForceEvaluator& CpuForces::evaluator_for(ForceMethod m) {
    const auto k = static_cast<std::size_t>(m);
    if (m_evaluators.size() <= k) m_evaluators.resize(k + 1);
    if (!m_evaluators[k]) {
        check_cpu_evaluates(m);
        m_evaluators[k] = make_cpu_force_evaluator(m);
    }
    for (std::size_t other = 0; other < m_evaluators.size(); ++other)
        if (other != k && m_evaluators[other]) m_evaluators[other]->bodies_moved_on();
    return *m_evaluators[k];
}

const CpuForceEvaluator* CpuForces::made(ForceMethod m) const {
    const auto k = static_cast<std::size_t>(m);
    return k < m_evaluators.size() ? m_evaluators[k].get() : nullptr;
}

void CpuForces::evaluate(Bodies& b, const SimParams& p, std::size_t begin, std::size_t end, int threads) {
    evaluator_for(p.method).evaluate(b, p, begin, end, threads);
    if (p.G != 1.0)
        for (std::size_t i = begin; i < end; ++i) b.ax[i] *= p.G, b.ay[i] *= p.G, b.az[i] *= p.G;
}

void CpuForces::evaluate_rows(Bodies& b, const SimParams& p, const std::vector<std::size_t>& rows,
                              int threads) {
    evaluator_for(p.method).evaluate_rows(b, p, rows, threads);
    if (p.G != 1.0)
        for (std::size_t i : rows) b.ax[i] *= p.G, b.ay[i] *= p.G, b.az[i] *= p.G;
}

StepWork CpuForces::rows_work(const SimParams& p, std::size_t rows, std::size_t n) const {
    if (const CpuForceEvaluator* e = made(p.method)) return e->rows_work(rows, n);
    return CpuForceEvaluator::direct_rows_work(rows, n);
}

std::vector<TreeCellBox> CpuForces::cells(const SimParams& p, int depth) const {
    const CpuForceEvaluator* e = made(p.method);
    if (!method_info(p.method).has_cells || !e) return {};
    return e->cells(depth);
}

void CpuForces::forget() {
    for (auto& e : m_evaluators)
        if (e) e->forget();
}

void CpuForces::build_next_tree() {
    for (auto& e : m_evaluators)
        if (e) e->build_next_afresh();
}

void CpuForces::resume(const Bodies& b, const SimParams& p) {
    forget();  // only p.method's evaluator made these accelerations
    evaluator_for(p.method).resume(b, p);
}

}  // namespace nbody
