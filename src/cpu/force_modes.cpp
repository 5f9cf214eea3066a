#include "cpu/force_modes.hpp"

#include <cmath>

#include "core/parallel.hpp"

namespace nbody {

namespace {

// One body i against every j. R: the pair arithmetic (float or double); S: the sums' type; kDiffInDouble:
// x_j - x_i formed in double before rounding to R (ds), else the positions are rounded first (fp32).
// Zero separation (the self term) gives rinv = 0 through a select, so the loop has no branch to vectorise
// around; the select is taken before 1/sqrt(0) = inf can reach a product.
template <class R, class S, bool kJerk, bool kDiffInDouble>
hermite::Force row(const SourcesF64& s, std::size_t i, double eps2) {
    const double xi = s.x[i], yi = s.y[i], zi = s.z[i];
    const R rxi = R(xi), ryi = R(yi), rzi = R(zi), e2 = R(eps2);
    double vxi = 0, vyi = 0, vzi = 0;
    if constexpr (kJerk) vxi = s.vx[i], vyi = s.vy[i], vzi = s.vz[i];
    const R rvxi = R(vxi), rvyi = R(vyi), rvzi = R(vzi);
    S ax = 0, ay = 0, az = 0, jx = 0, jy = 0, jz = 0, pot = 0;
#pragma omp simd reduction(+ : ax, ay, az, jx, jy, jz, pot)
    for (std::size_t j = 0; j < s.n; ++j) {
        const R dx = kDiffInDouble ? R(s.x[j] - xi) : R(s.x[j]) - rxi;
        const R dy = kDiffInDouble ? R(s.y[j] - yi) : R(s.y[j]) - ryi;
        const R dz = kDiffInDouble ? R(s.z[j] - zi) : R(s.z[j]) - rzi;
        const R d2 = dx * dx + dy * dy + dz * dz;
        const R rinv = d2 > R(0) ? R(1) / std::sqrt(d2 + e2) : R(0);
        const R rinv2 = rinv * rinv, m = R(s.m[j]);
        const R mr3 = m * rinv * rinv2;
        ax += S(mr3 * dx), ay += S(mr3 * dy), az += S(mr3 * dz);
        if constexpr (kJerk) {
            const R dvx = kDiffInDouble ? R(s.vx[j] - vxi) : R(s.vx[j]) - rvxi;
            const R dvy = kDiffInDouble ? R(s.vy[j] - vyi) : R(s.vy[j]) - rvyi;
            const R dvz = kDiffInDouble ? R(s.vz[j] - vzi) : R(s.vz[j]) - rvzi;
            const R alpha = R(3) * (dx * dvx + dy * dvy + dz * dvz) * rinv2;
            jx += S(mr3 * (dvx - alpha * dx)), jy += S(mr3 * (dvy - alpha * dy)),
                jz += S(mr3 * (dvz - alpha * dz));
            pot -= S(m * rinv);
        }
    }
    return {{double(ax), double(ay), double(az)}, {double(jx), double(jy), double(jz)}, double(pot)};
}

using RowFn = hermite::Force (*)(const SourcesF64&, std::size_t, double);

template <bool kJerk>
RowFn row_for(Precision p) {
    switch (p) {
        case Precision::Fp32:
            return row<float, float, kJerk, false>;
        case Precision::DS:
            return row<float, double, kJerk, true>;
        case Precision::Fp64:
            break;
    }
    return row<double, double, kJerk, true>;
}

}  // namespace

void accelerations(const SourcesF64& src, Precision p, double eps2, int threads, double* ax, double* ay,
                   double* az) {
    const RowFn fn = row_for<false>(p);
    parallel_for(
        src.n, threads,
        [&](std::size_t b, std::size_t e) {
            for (std::size_t i = b; i < e; ++i) {
                const hermite::Force f = fn(src, i, eps2);
                ax[i] = f.acc.x, ay[i] = f.acc.y, az[i] = f.acc.z;
            }
        },
        16);
}

void hermite_forces(const SourcesF64& src, const std::size_t* rows, std::size_t count, Precision p,
                    double eps2, int threads, hermite::Force* out) {
    const RowFn fn = row_for<true>(p);
    parallel_for(
        count, threads,
        [&](std::size_t b, std::size_t e) {
            for (std::size_t k = b; k < e; ++k) out[k] = fn(src, rows[k], eps2);
        },
        8);
}

}  // namespace nbody
