#pragma once
// One 6th-order Hermite interaction (Nitadori & Makino 2008) in double (fp64) or double-single (ds), as the
// policy of hermite_force_kernel (hermite_force_items.cuh): acceleration, jerk and snap of a predicted i-body
// from the predicted x, v, a of the j-bodies, with x_ij = x_j - x_i, v_ij, a_ij alike, r^2 = |x_ij|^2 +
// eps^2:
//     alpha = x.v / r^2,   beta = (|v|^2 + x.a) / r^2 + alpha^2,   m3 = m_j / r^3
//     A = m3 x,   J = m3 (v - 3 alpha x),   S = m3 (a - 3 beta x) - 6 alpha J,   phi -= m_j / r
// (core/physics/hermite6.hpp's pair6, factored so that A, J and S each add straight into their sums: one FFMA a
// component for A and J, three for S).
//
// Instruction count per interaction without phi: 9 differences, r^2 3, rsqrt (fp64: 5 with the refinement;
// ds: 1 + 4 for the Newton step), r^-2 and m3 3, x.v 3 + 1, beta 6 + 2, 3 alpha, 6 alpha, 3 beta 3, the
// sums 18: 53 against 4th order's 35 (fp64), so sixth order's pair rate is about 0.66x of fourth order's.
// ds adds 6 FADD (positions from hi + lo parts) and reads 64 bytes a j-body (4 LDS.128), fp64 96 (6).
// Flops: kFlopsPerInteractionHermite6 (97, Nitadori's count for Sapporo2's sixth order).
#include <cuda_runtime.h>

#include "common/precision.cuh"
#include "hermite/hermite_force.cuh"
#include "hermite/hermite_kernel.cuh"
#include "hermite/hermite_math.cuh"

namespace nbody::kernels {

// The ten sums of one i-body.
template <class R>
struct Hermite6Sums {
    R ax, ay, az, jx, jy, jz, sx, sy, sz, phi;
};

// f(x, y) on each pair of corresponding sums (member by member: no pointer walks across a struct's fields).
template <class A, class B, class F>
__device__ __forceinline__ void each_sum(A& x, B& y, F&& f) {
    f(x.ax, y.ax), f(x.ay, y.ay), f(x.az, y.az), f(x.jx, y.jx), f(x.jy, y.jy), f(x.jz, y.jz);
    f(x.sx, y.sx), f(x.sy, y.sy), f(x.sz, y.sz), f(x.phi, y.phi);
}

template <class R>
__device__ inline void butterfly(Hermite6Sums<R>& r, int q) {
    for (int off = 1; off < q; off <<= 1)
        each_sum(r, r, [off](R& v, R&) { v += __shfl_xor_sync(0xffffffffu, v, off); });
}

// The three partial-sum records of one i-body and j-split: (a, phi), (jerk, 0), (snap, 0).
template <class Rec, class R>
__device__ inline void put_records(Rec* out, const Hermite6Sums<R>& r) {
    out[0] = make_body<Rec>(r.ax, r.ay, r.az, r.phi);
    out[1] = make_body<Rec>(r.jx, r.jy, r.jz, 0.0);
    out[2] = make_body<Rec>(r.sx, r.sy, r.sz, 0.0);
}

// The pair term for x_ij = (dx, dy, dz), v_ij = (dvx, ...), a_ij = (dax, ...) and m_j. REFINE (ds): one
// Newton step on the float rsqrt. The self pair adds nothing: x_ij = v_ij = a_ij = 0 (eps^2 carries the
// self-interaction floor, so r^2 > 0 even at eps = 0). Returns 1 / r, and r^2 in *r2_out where asked (the
// sixth-order library sums its own potential from the one, coincident bodies included, and ranks neighbours
// by the other). D2: |x_ij|^2 formed on its own and r^2 from it (one more instruction), returned in *d2_out;
// the potential's self test needs it.
template <class R, bool REFINE, bool PHI, bool D2 = PHI>
__device__ __forceinline__ R hermite6_pair(R dx, R dy, R dz, R dvx, R dvy, R dvz, R dax, R day, R daz, R m,
                                           R soft2, Hermite6Sums<R>& s, R* r2_out = nullptr,
                                           R* d2_out = nullptr) {
    static_assert(D2 || !PHI, "the potential's self test needs |x_ij|^2");
    R d2, r2;
    const R rinv = pair_rinv<R, REFINE, D2>(dx, dy, dz, soft2, d2, r2);
    if (r2_out) *r2_out = r2;
    if (d2_out) *d2_out = d2;
    const R rinv2 = rinv * rinv;
    const R m3 = m * rinv * rinv2;
    const R alpha = fma(dz, dvz, fma(dy, dvy, dx * dvx)) * rinv2;
    const R vv_xa = fma(dz, daz, fma(dy, day, fma(dx, dax, fma(dvz, dvz, fma(dvy, dvy, dvx * dvx)))));
    const R b = fma(vv_xa, rinv2, alpha * alpha);
    const R a3 = R(3) * alpha, a6 = R(6) * alpha, b3 = R(3) * b;
    if constexpr (PHI) s.phi -= d2 > R(0) ? m * rinv : R(0);
    const R tjx = fma(-a3, dx, dvx), tjy = fma(-a3, dy, dvy), tjz = fma(-a3, dz, dvz);  // J / m3
    s.ax = fma(m3, dx, s.ax);
    s.ay = fma(m3, dy, s.ay);
    s.az = fma(m3, dz, s.az);
    s.jx = fma(m3, tjx, s.jx);
    s.jy = fma(m3, tjy, s.jy);
    s.jz = fma(m3, tjz, s.jz);
    // S = m3 (a - 3 beta x - 6 alpha (J / m3))
    s.sx = fma(m3, fma(-a6, tjx, fma(-b3, dx, dax)), s.sx);
    s.sy = fma(m3, fma(-a6, tjy, fma(-b3, dy, day)), s.sy);
    s.sz = fma(m3, fma(-a6, tjz, fma(-b3, dz, daz)), s.sz);
    return rinv;
}

// fp64: bodies in double, x (w = m), v and a as three Dbl4 (96 bytes a j-body in the tile).
struct Hermite6Fp64 {
    using Rec = Dbl4;
    static constexpr int kRecords = 3;
    static constexpr int kMaxK = 2;  // 9 + 10 doubles per i-body
    struct J {
        Dbl4 p, v, a;
    };
    struct I {
        double x, y, z, vx, vy, vz, ax, ay, az;
    };
    using Acc = Hermite6Sums<double>;
    using Total = Hermite6Sums<double>;
    __device__ static J load(const Predicted& q, int j) {
        return {static_cast<const Dbl4*>(q.pos)[j], static_cast<const Dbl4*>(q.vel)[j],
                static_cast<const Dbl4*>(q.acc)[j]};
    }
    __device__ static I to_i(const J& b) {
        return {b.p.x, b.p.y, b.p.z, b.v.x, b.v.y, b.v.z, b.a.x, b.a.y, b.a.z};
    }
    __device__ static void store(const Predicted& q, int i, const DVec& x, const DVec& v, const DVec& a,
                                 double m) {
        static_cast<Dbl4*>(q.pos)[i] = {x.x, x.y, x.z, m};
        static_cast<Dbl4*>(q.vel)[i] = {v.x, v.y, v.z, 0.0};
        static_cast<Dbl4*>(q.acc)[i] = {a.x, a.y, a.z, 0.0};
    }
    template <bool PHI>
    __device__ __forceinline__ static void interact(const I& i, const J& b, float, double soft2, Acc& s) {
        hermite6_pair<double, false, PHI>(b.p.x - i.x, b.p.y - i.y, b.p.z - i.z, b.v.x - i.vx, b.v.y - i.vy,
                                          b.v.z - i.vz, b.a.x - i.ax, b.a.y - i.ay, b.a.z - i.az, b.p.w,
                                          soft2, s);
    }
    __device__ static void flush(Acc&) {}
    __device__ static Total total(const Acc& s) { return s; }
};

// ds (Sapporo2's sixth order): x_j - x_i from float hi + lo parts, the rest in float with a Newton step on
// rsqrt; the float sums flushed into double after every tile, as 4th order's ds does (HermiteDS).
struct Hermite6DS {
    using Rec = Dbl4;
    static constexpr int kRecords = 3;
    static constexpr int kMaxK = 2;  // 12 floats + 10 float and 10 double sums per i-body
    struct J {
        float4 h, l, v, a;
    };
    struct I {
        float xh, yh, zh, xl, yl, zl, vx, vy, vz, ax, ay, az;
    };
    struct Acc {
        Hermite6Sums<float> f;
        Hermite6Sums<double> d;
    };
    using Total = Hermite6Sums<double>;
    __device__ static J load(const Predicted& q, int j) {
        return {static_cast<const float4*>(q.pos)[j], q.lo[j], static_cast<const float4*>(q.vel)[j],
                static_cast<const float4*>(q.acc)[j]};
    }
    __device__ static I to_i(const J& b) {
        return {b.h.x, b.h.y, b.h.z, b.l.x, b.l.y, b.l.z, b.v.x, b.v.y, b.v.z, b.a.x, b.a.y, b.a.z};
    }
    __device__ static void store(const Predicted& q, int i, const DVec& x, const DVec& v, const DVec& a,
                                 double m) {
        const float xh = float(x.x), yh = float(x.y), zh = float(x.z);
        static_cast<float4*>(q.pos)[i] = make_float4(xh, yh, zh, float(m));
        q.lo[i] = make_float4(float(x.x - xh), float(x.y - yh), float(x.z - zh), 0.f);
        static_cast<float4*>(q.vel)[i] = make_float4(float(v.x), float(v.y), float(v.z), 0.f);
        static_cast<float4*>(q.acc)[i] = make_float4(float(a.x), float(a.y), float(a.z), 0.f);
    }
    template <bool PHI>
    __device__ __forceinline__ static void interact(const I& i, const J& b, float soft2, double, Acc& s) {
        hermite6_pair<float, true, PHI>((b.h.x - i.xh) + (b.l.x - i.xl), (b.h.y - i.yh) + (b.l.y - i.yl),
                                        (b.h.z - i.zh) + (b.l.z - i.zl), b.v.x - i.vx, b.v.y - i.vy,
                                        b.v.z - i.vz, b.a.x - i.ax, b.a.y - i.ay, b.a.z - i.az, b.h.w, soft2,
                                        s.f);
    }
    __device__ static void flush(Acc& s) {
        each_sum(s.d, s.f, [](double& d, float& f) { d += f, f = 0.f; });
    }
    __device__ static Total total(Acc& s) {
        flush(s);
        return s.d;
    }
};

}  // namespace nbody::kernels
