#pragma once
// One Hermite interaction, in float or double, as the policy of hermite_force_kernel (hermite_kernels.cu):
// how a predicted i-body sits in registers (I), the accumulators (Acc), and the pair term
//     a_i   += m_j x_ij / r^3
//     j_i   += m_j [v_ij / r^3 - 3 (x_ij . v_ij) x_ij / r^5]
//     phi_i -= m_j / r                       (skipped for coincident bodies: the self pair, at any eps)
// with x_ij = x_j - x_i, v_ij = v_j - v_i, r^2 = |x_ij|^2 + eps^2 (PHYSICS.md).
//
// Instruction mix per interaction (from the source below; ptxas keeps it, see the report in the engine):
//   fp32: 6 FADD (differences) + FMUL + 2 FFMA (d^2) + FADD (+eps^2) + MUFU.RSQ + 3 FMUL (m/r, 1/r^2, m/r^3)
//         + FMUL + 2 FFMA (x.v) + 2 FMUL (3 x.v / r^2) + FSETP + FSEL + FADD (phi) + 3 FFMA (a)
//         + 6 FFMA (j) = 32 issued instructions, 45 flops counting an FFMA as two and the rsqrt as one.
//         Belleman et al. (2008) count 60 per interaction (rsqrt and division weighted as in the GRAPE
//         convention); the benchmark reports Gflop/s at their 60, as Sapporo2 does.
//         With MUFU at 16 per clock per SM and 128 other issues per clock, an H200 (132 SMs, 1.98 GHz)
//         tops out near 132 x 1.98e9 x 128 / 31 = 1.08e12 interactions/s.
//   fp64: the same in double, with 1/r from MUFU.RSQ64H (about 20 bits) refined by a third-order step:
//         e = 1 - r^2 y^2, 1/r = y (1 + e/2 + 3/8 e^2) (DMUL + 3 DFMA + DMUL); 34 FP64 instructions: at 64
//         FP64 results per clock per SM the limit is 132 x 1.98e9 x 64 / 34 = 0.49e12 interactions/s.
#include <cuda_runtime.h>

#include "precision.cuh"

namespace nbody::kernels {

// 1/sqrt(r2): MUFU.RSQ in float; in double (no such instruction on Hopper) MUFU.RSQ64H refined by one
// third-order step, e = 1 - r2 y^2, 1/r = y (1 + e/2 + 3/8 e^2).
__device__ __forceinline__ float inv_sqrt(float r2) { return rsqrtf(r2); }
__device__ __forceinline__ double inv_sqrt(double r2) {
    const double y = rsqrt_approx_f64(r2);
    const double e = fma(-r2, y * y, 1.0);
    return y * fma(e, fma(e, 0.375, 0.5), 1.0);
}

// R: the arithmetic (float or double); B: how a predicted body is stored (float4 or Dbl4, w = mass).
template <class R, class B>
struct HermitePolicy {
    using Body = B;
    using Real = R;
    struct I {
        R x, y, z, vx, vy, vz;
    };
    struct Acc {
        R ax, ay, az, jx, jy, jz, phi;
    };
    __device__ __forceinline__ static void interact(const I& i, const B& p, const B& v, R soft2, Acc& s) {
        const R dx = p.x - i.x, dy = p.y - i.y, dz = p.z - i.z;
        const R dvx = v.x - i.vx, dvy = v.y - i.vy, dvz = v.z - i.vz;
        const R d2 = fma(dz, dz, fma(dy, dy, dx * dx));
        const R rinv = inv_sqrt(d2 + soft2);
        const R mrinv = p.w * rinv;
        const R rinv2 = rinv * rinv;
        const R mrinv3 = mrinv * rinv2;
        const R rv = fma(dz, dvz, fma(dy, dvy, dx * dvx));
        const R alpha = R(3) * (rv * rinv2);
        s.phi -= d2 > R(0) ? mrinv : R(0);
        s.ax = fma(mrinv3, dx, s.ax);
        s.ay = fma(mrinv3, dy, s.ay);
        s.az = fma(mrinv3, dz, s.az);
        s.jx = fma(mrinv3, fma(-alpha, dx, dvx), s.jx);
        s.jy = fma(mrinv3, fma(-alpha, dy, dvy), s.jy);
        s.jz = fma(mrinv3, fma(-alpha, dz, dvz), s.jz);
    }
};
using HermiteFp32 = HermitePolicy<float, float4>;
using HermiteFp64 = HermitePolicy<double, Dbl4>;

}  // namespace nbody::kernels
