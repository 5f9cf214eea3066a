#include "cpu/force_modes.hpp"

#include <cmath>
#include <vector>

#include "core/parallel.hpp"
#include "cpu/target_clones.hpp"

namespace nbody {

namespace {

// One body i against every j. R: the pair arithmetic (float or double); S: the sums' type; kDiffInDouble:
// x_j - x_i formed in double before rounding to R (ds), else the positions are rounded first (fp32).
// Zero separation (the self term) gives rinv = 0 through a select, so the loop has no branch to vectorise
// around; the select is taken before 1/sqrt(0) = inf can reach a product.
template <class R, class S, bool kJerk, bool kDiffInDouble>
__attribute__((always_inline)) inline hermite::Force row(const SourcesF64& s, std::size_t i, double eps2) {
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

// NBODY_CLONES (cpu/target_clones.hpp) builds each loop for AVX-512, AVX2+FMA and baseline x86-64, picked when
// the program starts; row() is inlined into each clone and vectorised for its instruction set (8, 4 or 2
// doubles a vector). Rows [first, first + count), or rows[first..] where a row list is given.
using RowsFn = void (*)(const SourcesF64&, const std::size_t*, std::size_t, std::size_t, double,
                        hermite::Force*);
#define NBODY_ROWS(name, R, S, kJerk, kDiff)                                                \
    NBODY_CLONES void name(const SourcesF64& s, const std::size_t* rows, std::size_t first, \
                           std::size_t count, double eps2, hermite::Force* out) {           \
        for (std::size_t k = first; k < first + count; ++k)                                 \
            out[k] = row<R, S, kJerk, kDiff>(s, rows ? rows[k] : k, eps2);                  \
    }
NBODY_ROWS(acc_fp32, float, float, false, false)
NBODY_ROWS(acc_ds, float, double, false, true)
NBODY_ROWS(acc_fp64, double, double, false, true)
NBODY_ROWS(jerk_fp32, float, float, true, false)
NBODY_ROWS(jerk_ds, float, double, true, true)
NBODY_ROWS(jerk_fp64, double, double, true, true)
#undef NBODY_ROWS

// One body i against every j in float64: core/physics/hermite6.hpp's pair6 written out over the structure of arrays,
// the self term (j == i) and a zero r^2 selected away before 1/sqrt can reach a product.
__attribute__((always_inline)) inline hermite6::Force6 row6(const Sources6& s, std::size_t i, double eps2) {
    const SourcesF64& b = s.xv;
    const double xi = b.x[i], yi = b.y[i], zi = b.z[i], vxi = b.vx[i], vyi = b.vy[i], vzi = b.vz[i];
    const double axi = s.ax[i], ayi = s.ay[i], azi = s.az[i];
    double ax = 0, ay = 0, az = 0, jx = 0, jy = 0, jz = 0, sx = 0, sy = 0, sz = 0, pot = 0;
#pragma omp simd reduction(+ : ax, ay, az, jx, jy, jz, sx, sy, sz, pot)
    for (std::size_t j = 0; j < b.n; ++j) {
        const double dx = b.x[j] - xi, dy = b.y[j] - yi, dz = b.z[j] - zi;
        const double dvx = b.vx[j] - vxi, dvy = b.vy[j] - vyi, dvz = b.vz[j] - vzi;
        const double dax = s.ax[j] - axi, day = s.ay[j] - ayi, daz = s.az[j] - azi;
        const double r2 = dx * dx + dy * dy + dz * dz + eps2;
        const double rinv = j != i && r2 > 0 ? 1.0 / std::sqrt(r2) : 0.0;
        const double rinv2 = rinv * rinv, m = b.m[j];
        const double mr3 = m * rinv * rinv2;
        const double alpha = (dx * dvx + dy * dvy + dz * dvz) * rinv2;
        const double v2_ra = dvx * dvx + dvy * dvy + dvz * dvz + dx * dax + dy * day + dz * daz;  // |dv|^2 + dr.da
        const double beta = v2_ra * rinv2 + alpha * alpha;
        const double pax = mr3 * dx, pay = mr3 * dy, paz = mr3 * dz;
        const double pjx = mr3 * dvx - 3 * alpha * pax, pjy = mr3 * dvy - 3 * alpha * pay,
                     pjz = mr3 * dvz - 3 * alpha * paz;
        ax += pax, ay += pay, az += paz, jx += pjx, jy += pjy, jz += pjz;
        sx += mr3 * dax - 6 * alpha * pjx - 3 * beta * pax;
        sy += mr3 * day - 6 * alpha * pjy - 3 * beta * pay;
        sz += mr3 * daz - 6 * alpha * pjz - 3 * beta * paz;
        pot -= m * rinv;
    }
    return {{ax, ay, az}, {jx, jy, jz}, {sx, sy, sz}, pot};
}

NBODY_CLONES void snap_fp64(const Sources6& s, const std::size_t* rows, std::size_t first, std::size_t count,
                            double eps2, hermite6::Force6* out) {
    for (std::size_t k = first; k < first + count; ++k) out[k] = row6(s, rows ? rows[k] : k, eps2);
}

RowsFn rows_for(Precision p, bool jerk) {
    switch (p) {
        case Precision::Fp32:
            return jerk ? jerk_fp32 : acc_fp32;
        case Precision::DS:
            return jerk ? jerk_ds : acc_ds;
        case Precision::Fp64:
            break;
    }
    return jerk ? jerk_fp64 : acc_fp64;
}

}  // namespace

void accelerations(const SourcesF64& src, Precision p, double eps2, int threads, double* ax, double* ay,
                   double* az) {
    accelerations(src, nullptr, src.n, p, eps2, threads, ax, ay, az);
}

void accelerations(const SourcesF64& src, const std::size_t* rows, std::size_t count, Precision p,
                   double eps2, int threads, double* ax, double* ay, double* az) {
    const RowsFn fn = rows_for(p, false);
    std::vector<hermite::Force> f(count);
    parallel_for(
        count, threads, [&](std::size_t b, std::size_t e) { fn(src, rows, b, e - b, eps2, f.data()); }, 16);
    for (std::size_t k = 0; k < count; ++k) {
        const std::size_t i = rows ? rows[k] : k;
        ax[i] = f[k].acc.x, ay[i] = f[k].acc.y, az[i] = f[k].acc.z;
    }
}

void hermite_forces(const SourcesF64& src, const std::size_t* rows, std::size_t count, Precision p,
                    double eps2, int threads, hermite::Force* out) {
    const RowsFn fn = rows_for(p, true);
    parallel_for(
        count, threads, [&](std::size_t b, std::size_t e) { fn(src, rows, b, e - b, eps2, out); }, 8);
}

void hermite6_forces(const Sources6& src, const std::size_t* rows, std::size_t count, double eps2, int threads,
                     hermite6::Force6* out) {
    parallel_for(
        count, threads, [&](std::size_t b, std::size_t e) { snap_fp64(src, rows, b, e - b, eps2, out); }, 8);
}

}  // namespace nbody
