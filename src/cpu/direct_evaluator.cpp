#include "cpu/direct_evaluator.hpp"

#include "core/parallel.hpp"
#include "cpu/force_modes.hpp"

namespace nbody {

SourcesF32 DirectF32Sum::float_sources(const Bodies& b) {
    const std::size_t n = b.size();
    for (auto* v : {&m_fx, &m_fy, &m_fz, &m_fm, &m_fax, &m_fay, &m_faz}) v->resize(n);
    for (std::size_t i = 0; i < n; ++i)
        m_fx[i] = float(b.x[i]), m_fy[i] = float(b.y[i]), m_fz[i] = float(b.z[i]), m_fm[i] = float(b.m[i]);
    return {m_fx.data(), m_fy.data(), m_fz.data(), m_fm.data(), n};
}

void DirectF32Sum::evaluate(Bodies& b, double eps, std::size_t begin, std::size_t end, int threads) {
    const SourcesF32 src = float_sources(b);
    const float eps2 = static_cast<float>(eps * eps);
    // Rows are cheap to hand out in chunks of 16 or more.
    parallel_for(
        end - begin, threads,
        [&](std::size_t lo, std::size_t hi) {
            accelerations_f32(src, begin + lo, begin + hi, eps2, m_fax.data(), m_fay.data(), m_faz.data());
        },
        16);
    for (std::size_t i = begin; i < end; ++i) b.ax[i] = m_fax[i], b.ay[i] = m_fay[i], b.az[i] = m_faz[i];
}

void DirectF32Sum::evaluate_rows(Bodies& b, double eps, const std::vector<std::size_t>& rows, int threads) {
    const SourcesF32 src = float_sources(b);
    const float eps2 = static_cast<float>(eps * eps);
    // One row at a time: each row's sum is the one evaluate() makes for it (the j loop ignores i0 and i1)
    parallel_for(
        rows.size(), threads,
        [&](std::size_t lo, std::size_t hi) {
            for (std::size_t k = lo; k < hi; ++k)
                accelerations_f32(src, rows[k], rows[k] + 1, eps2, m_fax.data(), m_fay.data(), m_faz.data());
        },
        16);
    for (std::size_t i : rows) b.ax[i] = m_fax[i], b.ay[i] = m_fay[i], b.az[i] = m_faz[i];
}

// ds and fp64 sum every row: the float64 loops have no row range (a distributed run takes fp32 only).
void DirectEvaluator::evaluate(Bodies& b, const SimParams& p, std::size_t begin, std::size_t end, int threads) {
    if (p.precision == Precision::Fp32)
        m_f32.evaluate(b, p.eps, begin, end, threads);
    else
        accelerations(b.sources(), p.precision, p.eps * p.eps, threads, b.ax.data(), b.ay.data(), b.az.data());
}

void DirectEvaluator::evaluate_rows(Bodies& b, const SimParams& p, const std::vector<std::size_t>& rows,
                                    int threads) {
    if (p.precision == Precision::Fp32)
        m_f32.evaluate_rows(b, p.eps, rows, threads);
    else
        accelerations(b.sources(), rows.data(), rows.size(), p.precision, p.eps * p.eps, threads, b.ax.data(),
                      b.ay.data(), b.az.data());
}

}  // namespace nbody
