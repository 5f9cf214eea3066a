#pragma once
// One Hermite interaction, in float or double, as the policy of hermite_force_kernel (hermite_kernels.cu):
// how a predicted i-body sits in registers (I), the accumulators (Acc), and the pair term
//     a_i   += m_j x_ij / r^3
//     j_i   += m_j [v_ij / r^3 - 3 (x_ij . v_ij) x_ij / r^5]
//     phi_i -= m_j / r                       (skipped for coincident bodies: the self pair, at any eps)
// with x_ij = x_j - x_i, v_ij = v_j - v_i, r^2 = |x_ij|^2 + eps^2 (PHYSICS.md).
//
// Instruction mix per interaction (counted in the PTX of hermite_force_kernel, sm_90, -ftz=true):
//   fp32: 13 FFMA + 9 FADD + 7 FMUL + MUFU.RSQ + FSETP + FSEL (phi's self test) = 32 issued, plus 2
//         LDS.128 (broadcast) for the j-body; 43 flops counting an FFMA as two and the rsqrt as one.
//         Without phi (PHI = false, the stepping kernel; hermite_pair): 14 FFMA + 6 FADD + 6 FMUL +
//         MUFU.RSQ = 27, and with k i-bodies per thread (force_plan; fp32 k = 4) the 2 LDS.128 serve
//         4 interactions. PTX per interaction of the unrolled full-tile loop, loads and loop included
//         (nvcc -ptx; no cuobjdump on the build machine): before (phi, k = 1) fp32 33.62, ds 45.88, fp64
//         42.00; without phi 29.62 / 41.88 / 38.00; with k (4 / 2 / 2) 27.81 / 39.81 / 35.50. Registers
//         56 / 72 / 72 -> 95 / 96 / 126, no spills; with __launch_bounds__(128, 1) and 32 interactions a
//         trip 121 / 123 / 150 (hermite_kernels.cu). Limit at 27.8: 132 x 1.98e9 x 128 / 27.8 = 1.2e12/s.
//         Belleman et al. (2008) count 60 per interaction (the GRAPE convention weights rsqrt and
//         division); work() and nbody-bench report Gflop/s at their 60, as Sapporo2 does. With 128 issues
//         per clock per SM (MUFU at 16 is not the limit), an H200 (132 SMs, 1.98 GHz) tops out near
//         132 x 1.98e9 x 128 / 34 = 0.98e12 interactions/s.
//   fp64: the same in double with inv_sqrt below: 16 DFMA + 9 DMUL + 9 DADD + MUFU.RSQ64H = 35 FP64
//         instructions; at 64 FP64 results per clock per SM the limit is 132 x 1.98e9 x 64 / 35 =
//         0.48e12 interactions/s.
#include <cuda_runtime.h>

#include <type_traits>

#include "common/precision.cuh"
#include "hermite/hermite_kernel.cuh"
#include "hermite/hermite_math.cuh"

namespace nbody::kernels {

// 1/sqrt(r2): MUFU.RSQ in float; in double (no such instruction on Hopper) MUFU.RSQ64H refined by one
// third-order step, e = 1 - r2 y^2, 1/r = y (1 + e/2 + 3/8 e^2).
__device__ __forceinline__ float inv_sqrt(float r2) {
    return rsqrtf(r2);
}
__device__ __forceinline__ double inv_sqrt(double r2) {
    const double y = rsqrt_approx_f64(r2);
    const double e = fma(-r2, y * y, 1.0);
    return y * fma(e, fma(e, 0.375, 0.5), 1.0);
}

// A record or body of four components in float4 or Dbl4.
template <class B>
__host__ __device__ inline B make_body(double x, double y, double z, double w) {
    if constexpr (std::is_same_v<B, float4>)
        return make_float4(static_cast<float>(x), static_cast<float>(y), static_cast<float>(z),
                           static_cast<float>(w));
    else
        return B{x, y, z, w};
}

// The seven sums of one i-body.
template <class R>
struct HermiteSums {
    R ax, ay, az, jx, jy, jz, phi;
};

// The sums of the q neighbouring threads (a j-split inside the warp) added, a butterfly of shuffles.
template <class R>
__device__ inline void butterfly(HermiteSums<R>& r, int q) {
    for (int off = 1; off < q; off <<= 1) {
        r.ax += __shfl_xor_sync(0xffffffffu, r.ax, off);
        r.ay += __shfl_xor_sync(0xffffffffu, r.ay, off);
        r.az += __shfl_xor_sync(0xffffffffu, r.az, off);
        r.jx += __shfl_xor_sync(0xffffffffu, r.jx, off);
        r.jy += __shfl_xor_sync(0xffffffffu, r.jy, off);
        r.jz += __shfl_xor_sync(0xffffffffu, r.jz, off);
        r.phi += __shfl_xor_sync(0xffffffffu, r.phi, off);
    }
}

// The two partial-sum records of one i-body and j-split: (a, phi), (jerk, 0).
template <class Rec, class R>
__device__ inline void put_records(Rec* out, const HermiteSums<R>& r) {
    out[0] = make_body<Rec>(r.ax, r.ay, r.az, r.phi);
    out[1] = make_body<Rec>(r.jx, r.jy, r.jz, 0.0);
}

// 1 / r with r^2 = |x_ij|^2 + eps^2 (both orders' pair terms; r2 gets r^2). REFINE (ds): one Newton step on
// the float rsqrt. PHI: d2 = |x_ij|^2 as well, for the potential's self test; else 0, and eps^2 seeds the
// first FFMA.
template <class R, bool REFINE, bool PHI>
__device__ __forceinline__ R pair_rinv(R dx, R dy, R dz, R soft2, R& d2, R& r2) {
    d2 = R(0);
    if constexpr (PHI) {
        d2 = fma(dz, dz, fma(dy, dy, dx * dx));
        r2 = d2 + soft2;
    } else {
        r2 = fma(dz, dz, fma(dy, dy, fma(dx, dx, soft2)));
    }
    R rinv = inv_sqrt(r2);
    if constexpr (REFINE) rinv = fma(R(0.5) * rinv, fma(-r2 * rinv, rinv, R(1)), rinv);
    return rinv;
}

// The pair term for x_ij = (dx, dy, dz), v_ij = (dvx, dvy, dvz) and m_j. REFINE (ds): one Newton step on
// the float rsqrt (4 more instructions), so the float arithmetic after the difference errs by ~1 ulp.
// PHI: also the potential. Only cuda_hermite_forces reads it (the stepping engine never does, and
// potential_energy() has its own kernel); it costs FSETP + FSEL + FADD and the separate r^2 = d^2 + eps^2
// FADD (the self test needs d^2). Without it eps^2 seeds the first FFMA: 4 fewer instructions.
template <class R, bool REFINE = false, bool PHI = true>
__device__ __forceinline__ void hermite_pair(R dx, R dy, R dz, R dvx, R dvy, R dvz, R m, R soft2,
                                             HermiteSums<R>& s) {
    R d2, r2;
    const R rinv = pair_rinv<R, REFINE, PHI>(dx, dy, dz, soft2, d2, r2);
    const R mrinv = m * rinv;
    const R rinv2 = rinv * rinv;
    const R mrinv3 = mrinv * rinv2;
    const R rv = fma(dz, dvz, fma(dy, dvy, dx * dvx));
    const R alpha = R(3) * (rv * rinv2);
    if constexpr (PHI) s.phi -= d2 > R(0) ? mrinv : R(0);
    s.ax = fma(mrinv3, dx, s.ax);
    s.ay = fma(mrinv3, dy, s.ay);
    s.az = fma(mrinv3, dz, s.az);
    s.jx = fma(mrinv3, fma(-alpha, dx, dvx), s.jx);
    s.jy = fma(mrinv3, fma(-alpha, dy, dvy), s.jy);
    s.jz = fma(mrinv3, fma(-alpha, dz, dvz), s.jz);
}

// fp32 (R = float, B = float4) and fp64 (double, Dbl4): bodies stored in the arithmetic's precision.
template <class R, class B>
struct HermitePlain {
    using Rec = B;  // a partial-sum record (two per i-body: a + phi, jerk)
    static constexpr int kRecords = 2;
    static constexpr int kMaxK = sizeof(R) == 4 ? 4 : 2;  // i-bodies per thread (registers: 12 per body)
    struct J {
        B p, v;
    };
    struct I {
        R x, y, z, vx, vy, vz;
    };
    using Acc = HermiteSums<R>;
    using Total = HermiteSums<R>;
    __device__ static J load(const Predicted& q, int j) {
        return {static_cast<const B*>(q.pos)[j], static_cast<const B*>(q.vel)[j]};
    }
    __device__ static I to_i(const J& b) { return {b.p.x, b.p.y, b.p.z, b.v.x, b.v.y, b.v.z}; }
    __device__ static void store(const Predicted& q, int i, const DVec& x, const DVec& v, double m) {
        static_cast<B*>(q.pos)[i] = {R(x.x), R(x.y), R(x.z), R(m)};
        static_cast<B*>(q.vel)[i] = {R(v.x), R(v.y), R(v.z), R(0)};
    }
    template <bool PHI>
    __device__ __forceinline__ static void interact(const I& i, const J& b, float soft2f, double soft2d,
                                                    Acc& s) {
        const R soft2 = sizeof(R) == 8 ? R(soft2d) : R(soft2f);
        hermite_pair<R, false, PHI>(b.p.x - i.x, b.p.y - i.y, b.p.z - i.z, b.v.x - i.vx, b.v.y - i.vy,
                                    b.v.z - i.vz, b.p.w, soft2, s);
    }
    __device__ static void flush(Acc&) {}
    __device__ static Total total(const Acc& s) { return s; }
};
using HermiteFp32 = HermitePlain<float, float4>;
using HermiteFp64 = HermitePlain<double, Dbl4>;

// ds (Sapporo2): x_j - x_i formed from float hi + lo parts ((xj_hi - xi_hi) + (xj_lo - xi_lo), good to the
// float rounding of the difference far from the origin), the rest in float; the float sums are flushed into
// double after every tile (at most blockDim / q terms each), so long sums do not lose float's accuracy;
// rsqrt gets a Newton step. 6 FADD + 3 (Newton) more than fp32 per interaction (41 issued, 3 LDS.128 for
// the 48-byte j-body): about 0.75e12 interactions/s at most on an H200.
struct HermiteDS {
    using Rec = Dbl4;
    static constexpr int kRecords = 2;
    static constexpr int kMaxK = 2;  // 29 registers per i-body (9 + 6 float + 7 double sums)
    struct J {
        float4 h, l, v;
    };
    struct I {
        float xh, yh, zh, xl, yl, zl, vx, vy, vz;
    };
    struct Acc {
        HermiteSums<float> f;
        HermiteSums<double> d;
    };
    using Total = HermiteSums<double>;
    __device__ static J load(const Predicted& q, int j) {
        return {static_cast<const float4*>(q.pos)[j], q.lo[j], static_cast<const float4*>(q.vel)[j]};
    }
    __device__ static I to_i(const J& b) {
        return {b.h.x, b.h.y, b.h.z, b.l.x, b.l.y, b.l.z, b.v.x, b.v.y, b.v.z};
    }
    __device__ static void store(const Predicted& q, int i, const DVec& x, const DVec& v, double m) {
        const float xh = float(x.x), yh = float(x.y), zh = float(x.z);
        static_cast<float4*>(q.pos)[i] = make_float4(xh, yh, zh, float(m));
        q.lo[i] = make_float4(float(x.x - xh), float(x.y - yh), float(x.z - zh), 0.f);
        static_cast<float4*>(q.vel)[i] = make_float4(float(v.x), float(v.y), float(v.z), 0.f);
    }
    template <bool PHI>
    __device__ __forceinline__ static void interact(const I& i, const J& b, float soft2, double, Acc& s) {
        hermite_pair<float, true, PHI>((b.h.x - i.xh) + (b.l.x - i.xl), (b.h.y - i.yh) + (b.l.y - i.yl),
                                       (b.h.z - i.zh) + (b.l.z - i.zl), b.v.x - i.vx, b.v.y - i.vy,
                                       b.v.z - i.vz, b.h.w, soft2, s.f);
    }
    __device__ static void flush(Acc& s) {
        s.d.ax += s.f.ax, s.d.ay += s.f.ay, s.d.az += s.f.az, s.d.phi += s.f.phi;
        s.d.jx += s.f.jx, s.d.jy += s.f.jy, s.d.jz += s.f.jz;
        s.f = HermiteSums<float>{};
    }
    __device__ static Total total(Acc& s) {
        flush(s);
        return s.d;
    }
};

}  // namespace nbody::kernels
