#pragma once
// The 6th-order Hermite scheme's per-pair and per-body arithmetic (Nitadori & Makino 2008, New Astronomy 13,
// 498): acceleration, jerk and snap of a pair from the relative position, velocity and acceleration, and the
// Taylor predictor to crackle. Header-only, plain doubles, no exceptions: it compiles for host and device
// (CUDA includes it through cuda/sapporo6/), as core/hermite.hpp does for 4th order.
#include "core/hermite.hpp"

namespace nbody::hermite6 {

using hermite::D3;
using hermite::dot;

// 1 / sqrt(x): the device's double rsqrt (one rounding of about 1 ulp, a fraction of the cost of a divide
// and a square root), the host's correctly rounded divide and sqrt. The two differ by about 1e-16 relative.
NBODY_HD inline double rsqrt_hd(double x) {
#if defined(__CUDA_ARCH__)
    return rsqrt(x);
#else
    return 1.0 / sqrt(x);
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

// Adds body j's pull on body i, Plummer-softened (r^2 = |dr|^2 + eps2), with dr = x_j - x_i, dv = v_j - v_i,
// da = a_j - a_i:
//     alpha = (dr.dv) / r^2,   beta = (|dv|^2 + dr.da) / r^2 + alpha^2
//     A = m dr / r^3,   J = m dv / r^3 - 3 alpha A,   S = m da / r^3 - 6 alpha J - 3 beta A
// (the time derivatives of A, since d(r^2)/dt = 2 dr.dv). No pair is skipped here: the caller leaves out
// the self term (by identity, as Sapporo2 does). About 60 flops and one reciprocal square root a pair
// (Sapporo2's convention counts 60 for 6th order too).
NBODY_HD inline void add_pair6(D3 dr, D3 dv, D3 da, double mj, double eps2, Force6& f) {
    const double rinv = rsqrt_hd(dot(dr, dr) + eps2);
    const double rinv2 = rinv * rinv;
    const double mr3 = mj * rinv * rinv2;  // m / r^3
    const double alpha = dot(dr, dv) * rinv2;
    const double beta = (dot(dv, dv) + dot(dr, da)) * rinv2 + alpha * alpha;
    const D3 a = mr3 * dr;
    const D3 j = mr3 * dv - (3.0 * alpha) * a;
    const D3 s = mr3 * da - (6.0 * alpha) * j - (3.0 * beta) * a;
    f.acc = f.acc + a;
    f.jerk = f.jerk + j;
    f.snap = f.snap + s;
    f.pot -= mj * rinv;
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
