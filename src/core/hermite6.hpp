#pragma once
// The 6th-order Hermite scheme's per-pair and per-body arithmetic (Nitadori & Makino 2008, New Astronomy 13,
// 498): acceleration, jerk and snap of a pair from the relative position, velocity and acceleration, and the
// Taylor predictor to crackle. Header-only, plain doubles, no exceptions: it compiles for host and device
// (CUDA includes it through cuda/sapporo6/), as core/hermite.hpp does for 4th order.
#include "core/hermite.hpp"

namespace nbody::hermite6 {

using hermite::D3;
using hermite::dot;

// 1 / sqrt(x): the device's rsqrt (double: about 1 ulp, a fraction of the cost of a divide and a square root;
// float: the MUFU approximation), the host's correctly rounded divide and sqrt. They differ by about an ulp.
NBODY_HD inline double rsqrt_hd(double x) {
#if defined(__CUDA_ARCH__)
    return rsqrt(x);
#else
    return 1.0 / sqrt(x);
#endif
}
NBODY_HD inline float rsqrt_hd(float x) {
#if defined(__CUDA_ARCH__)
    return rsqrtf(x);
#else
    return 1.0f / sqrtf(x);
#endif
}

// What the j-bodies exert on body i, without G: acceleration, jerk (da/dt), snap (d^2a/dt^2) and the
// potential (sum -m_j / r).
struct Force6 {
    D3 acc, jerk, snap;
    double pot;
};
NBODY_HD inline Force6 zero_force6() {
    return {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, 0};
}

// One pair's terms in scalar type T over a 3-vector type V (D3 in double; the GPU's double-single engine
// uses float), with dr = x_j - x_i, dv = v_j - v_i, da = a_j - a_i, Plummer-softened (r^2 = |dr|^2 + eps2):
//     alpha = (dr.dv) / r^2,   beta = (|dv|^2 + dr.da) / r^2 + alpha^2
//     A = m dr / r^3,   J = m dv / r^3 - 3 alpha A,   S = m da / r^3 - 6 alpha J - 3 beta A,   pot = -m / r
// (the time derivatives of A, since d(r^2)/dt = 2 dr.dv). No pair is skipped here: the caller leaves out
// the self term (by identity, as Sapporo2 does). About 60 flops and one reciprocal square root a pair
// (Sapporo2's convention counts 60 for 6th order too).
template <class T, class V>
struct PairTerms6 {
    V a, j, s;
    T pot;
};
template <class T, class V>
NBODY_HD inline PairTerms6<T, V> pair6(V dr, V dv, V da, T mj, T eps2) {
    const T rinv = rsqrt_hd(dot(dr, dr) + eps2);
    const T rinv2 = rinv * rinv;
    const T mr3 = mj * rinv * rinv2;  // m / r^3
    const T alpha = dot(dr, dv) * rinv2;
    const T beta = (dot(dv, dv) + dot(dr, da)) * rinv2 + alpha * alpha;
    PairTerms6<T, V> p;
    p.a = mr3 * dr;
    p.j = mr3 * dv - (T(3) * alpha) * p.a;
    p.s = mr3 * da - (T(6) * alpha) * p.j - (T(3) * beta) * p.a;
    p.pot = -mj * rinv;
    return p;
}

// Adds body j's pull on body i (pair6 in double) to f.
NBODY_HD inline void add_pair6(D3 dr, D3 dv, D3 da, double mj, double eps2, Force6& f) {
    const PairTerms6<double, D3> p = pair6(dr, dv, da, mj, eps2);
    f.acc = f.acc + p.a;
    f.jerk = f.jerk + p.j;
    f.snap = f.snap + p.s;
    f.pot += p.pot;
}

// Taylor predictor to t0 + dt from x, v, a, j (jerk), s (snap), c (crackle) at t0, as Sapporo2's 6th order
// predicts its j-particles: the position to crackle (dt^5/120), the velocity to crackle (dt^4/24) and the
// acceleration to crackle (dt^3/6), in Horner form.
NBODY_HD inline void predict6(D3 x, D3 v, D3 a, D3 j, D3 s, D3 c, double dt, D3& xp, D3& vp, D3& ap) {
    const double h2 = dt * 0.5, h3 = dt * (1.0 / 3.0), h4 = dt * 0.25, h5 = dt * 0.2;
    xp = x + dt * (v + h2 * (a + h3 * (j + h4 * (s + h5 * c))));
    vp = v + dt * (a + h2 * (j + h3 * (s + h4 * c)));
    ap = a + dt * (j + h2 * (s + h3 * c));
}

}  // namespace nbody::hermite6
