// Built with -O3 -ffast-math -fopenmp-simd (see src/CMakeLists.txt): each i-body's sums over a list are
// reassociated across vector lanes and 1/sqrtf becomes rsqrt14 + one Newton step, as the direct loop.
#include "cpu/tree/tree_eval.hpp"

#include "core/tree/interactions.hpp"
#include "cpu/target_clones.hpp"

namespace nbody {

NBODY_CLONES
void tree_group_forces(const CellListF32& cells, const SourcesF32& bodies, const float* xi, const float* yi,
                       const float* zi, std::size_t ni, float soft2, float* ax, float* ay, float* az) {
    const float* __restrict cx = cells.x, * __restrict cy = cells.y, * __restrict cz = cells.z;
    const float* __restrict cm = cells.m, * __restrict qxx = cells.qxx, * __restrict qyy = cells.qyy;
    const float* __restrict qzz = cells.qzz, * __restrict qxy = cells.qxy, * __restrict qxz = cells.qxz;
    const float* __restrict qyz = cells.qyz, * __restrict t = cells.t;
    const float* __restrict bx = bodies.x, * __restrict by = bodies.y, * __restrict bz = bodies.z;
    const float* __restrict bm = bodies.m;
    const std::size_t nc = cells.n, nb = bodies.n;
    for (std::size_t i = 0; i < ni; ++i) ax[i] = ay[i] = az[i] = 0.f;
    // The lists in blocks that stay in L1 (kBlock cells are 20 KB) while every i-body of the group sums over
    // them: a whole list is often 100 KB, and re-reading it from L2 per i-body cost more than the arithmetic.
    constexpr std::size_t kBlock = 512;
    for (std::size_t j0 = 0; j0 < nc; j0 += kBlock) {
        const std::size_t j1 = j0 + kBlock < nc ? j0 + kBlock : nc;
        for (std::size_t i = 0; i < ni; ++i) {
            const float x = xi[i], y = yi[i], z = zi[i];
            float fx = 0.f, fy = 0.f, fz = 0.f;
#pragma omp simd reduction(+ : fx, fy, fz)
            for (std::size_t j = j0; j < j1; ++j) {
                tree::CellMoments q{};
                q.m = cm[j], q.qxx = qxx[j], q.qyy = qyy[j], q.qzz = qzz[j], q.qxy = qxy[j], q.qxz = qxz[j];
                q.qyz = qyz[j];
                const tree::F3 a = tree::body_cell(cx[j] - x, cy[j] - y, cz[j] - z, q, t[j], soft2);
                fx += a.x;
                fy += a.y;
                fz += a.z;
            }
            ax[i] += fx, ay[i] += fy, az[i] += fz;
        }
    }
    for (std::size_t j0 = 0; j0 < nb; j0 += 2 * kBlock) {
        const std::size_t j1 = j0 + 2 * kBlock < nb ? j0 + 2 * kBlock : nb;
        for (std::size_t i = 0; i < ni; ++i) {
            const float x = xi[i], y = yi[i], z = zi[i];
            float fx = 0.f, fy = 0.f, fz = 0.f;
#pragma omp simd reduction(+ : fx, fy, fz)
            for (std::size_t j = j0; j < j1; ++j) {
                const tree::F3 a = tree::body_body(bx[j] - x, by[j] - y, bz[j] - z, bm[j], soft2);
                fx += a.x;
                fy += a.y;
                fz += a.z;
            }
            ax[i] += fx, ay[i] += fy, az[i] += fz;
        }
    }
}

NBODY_CLONES
void tree_group_potentials(const CellListF32& cells, const SourcesF32& bodies, const uint32_t* body_keys,
                           const float* xi, const float* yi, const float* zi, const uint32_t* self_keys,
                           std::size_t ni, float soft2, double* phi) {
    // The lists through __restrict locals, as tree_group_forces: read through the structs instead, the walk
    // ran 3 times slower (131,072 Plummer bodies), the loops no longer vectorised.
    const float* __restrict cx = cells.x, * __restrict cy = cells.y, * __restrict cz = cells.z;
    const float* __restrict cm = cells.m, * __restrict qxx = cells.qxx, * __restrict qyy = cells.qyy;
    const float* __restrict qzz = cells.qzz, * __restrict qxy = cells.qxy, * __restrict qxz = cells.qxz;
    const float* __restrict qyz = cells.qyz, * __restrict t = cells.t;
    const float* __restrict bx = bodies.x, * __restrict by = bodies.y, * __restrict bz = bodies.z;
    const float* __restrict bm = bodies.m;
    const uint32_t* __restrict bk = body_keys;
    const std::size_t nc = cells.n, nb = bodies.n;
    const bool softened = soft2 > tree::kSelfFloor;  // else a body at zero distance adds nothing
    for (std::size_t i = 0; i < ni; ++i) phi[i] = 0.0;
    constexpr std::size_t kBlock = 512;  // as tree_group_forces: a block of the lists stays in L1
    for (std::size_t j0 = 0; j0 < nc; j0 += kBlock) {
        const std::size_t j1 = j0 + kBlock < nc ? j0 + kBlock : nc;
        for (std::size_t i = 0; i < ni; ++i) {
            const float x = xi[i], y = yi[i], z = zi[i];
            double sum = 0.0;
#pragma omp simd reduction(+ : sum)
            for (std::size_t j = j0; j < j1; ++j) {
                tree::CellMoments q{};
                q.m = cm[j], q.qxx = qxx[j], q.qyy = qyy[j], q.qzz = qzz[j], q.qxy = qxy[j], q.qxz = qxz[j];
                q.qyz = qyz[j];
                sum += double(tree::body_cell_potential(cx[j] - x, cy[j] - y, cz[j] - z, q, t[j], soft2));
            }
            phi[i] += sum;
        }
    }
    for (std::size_t j0 = 0; j0 < nb; j0 += 2 * kBlock) {
        const std::size_t j1 = j0 + 2 * kBlock < nb ? j0 + 2 * kBlock : nb;
        for (std::size_t i = 0; i < ni; ++i) {
            const float x = xi[i], y = yi[i], z = zi[i];
            const uint32_t self = self_keys[i];
            double sum = 0.0;
#pragma omp simd reduction(+ : sum)
            for (std::size_t j = j0; j < j1; ++j) {
                const float dx = bx[j] - x, dy = by[j] - y, dz = bz[j] - z;
                const bool counts = bk[j] != self && (softened || dx * dx + dy * dy + dz * dz > 0.f);
                const float term = tree::body_body_potential(dx, dy, dz, bm[j], soft2);
                sum += counts ? double(term) : 0.0;
            }
            phi[i] += sum;
        }
    }
}

}  // namespace nbody
