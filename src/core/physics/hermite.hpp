#pragma once
// The 4th-order Hermite scheme (Makino & Aarseth 1992), shared by the CPU reference (src/cpu) and the GPU
// engine (cuda/hermite_*): the pair term (acceleration, jerk, potential), the predictor, the corrector,
// Aarseth's time-step criterion and the block (power-of-two) step rules. Header-only, plain double structs,
// no exceptions and no std:: containers, so every function compiles for host and device alike.
#include <cmath>

#if defined(__CUDACC__)
#define NBODY_HD __host__ __device__
#else
#define NBODY_HD
#endif

namespace nbody::hermite {

// A POD double triple (no default member initialisers, so it can live in CUDA __shared__ memory).
struct D3 {
    double x, y, z;
};

NBODY_HD inline D3 operator+(D3 a, D3 b) {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
}
NBODY_HD inline D3 operator-(D3 a, D3 b) {
    return {a.x - b.x, a.y - b.y, a.z - b.z};
}
NBODY_HD inline D3 operator*(double s, D3 a) {
    return {s * a.x, s * a.y, s * a.z};
}
NBODY_HD inline double dot(D3 a, D3 b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
NBODY_HD inline double norm(D3 a) {
    return sqrt(dot(a, a));
}

// What the j-bodies exert on body i, without G: acceleration, jerk (da/dt) and potential (sum -m_j / r).
struct Force {
    D3 acc;
    D3 jerk;
    double pot;
};
NBODY_HD inline Force zero_force() {
    return {{0, 0, 0}, {0, 0, 0}, 0};
}

// Adds body j's pull on body i to f, Plummer-softened (r^2 -> r^2 + eps2):
//     a += m dr / r^3,   j += m [dv / r^3 - 3 (dr.dv) dr / r^5],   pot -= m / r
// with dr = x_j - x_i, dv = v_j - v_i, r = sqrt(|dr|^2 + eps2). A pair at zero separation (the self term,
// or two bodies on top of each other) is skipped: it would add no acceleration, and with eps = 0 it would
// divide by zero. Belleman et al. 2008 count 60 flops per pair (kFlopsPerInteractionHermite); the double
// sqrt and divide here are ~2 slow instructions each, not one rsqrt.
NBODY_HD inline void add_pair(D3 dr, D3 dv, double mj, double eps2, Force& f) {
    const double d2 = dot(dr, dr);
    if (d2 == 0.0) return;
    const double r2 = d2 + eps2;
    const double rinv = 1.0 / sqrt(r2);
    const double rinv2 = rinv * rinv;
    const double mr3 = mj * rinv * rinv2;            // m / r^3
    const double alpha = 3.0 * dot(dr, dv) * rinv2;  // 3 (dr.dv) / r^2
    f.acc = f.acc + mr3 * dr;
    f.jerk = f.jerk + mr3 * (dv - alpha * dr);
    f.pot -= mj * rinv;
}

// Taylor predictor to time t0 + dt from x, v, a, j at t0:
//     x_p = x + v dt + a dt^2/2 + j dt^3/6,   v_p = v + a dt + j dt^2/2
NBODY_HD inline void predict(D3 x, D3 v, D3 a, D3 j, double dt, D3& xp, D3& vp) {
    const double h2 = dt * dt * 0.5, h3 = dt * dt * dt * (1.0 / 6.0);
    xp = x + dt * v + h2 * a + h3 * j;
    vp = v + dt * a + h2 * j;
}

// The corrector's result: the corrected position and velocity at t1 = t0 + dt, and the 2nd and 3rd
// derivatives of the acceleration at t1 (for the next time step: a2 is carried from t0 to t1 by a3 dt).
struct Corrected {
    D3 x, v;
    D3 a2, a3;
};

// Makino & Aarseth 1992: a2 and a3 at t0 from the Hermite interpolant through (a0, j0) at t0 and
// (a1, j1) evaluated at the predicted position at t1, then
//     a2_0 = [-6 (a0 - a1) - dt (4 j0 + 2 j1)] / dt^2,   a3 = [12 (a0 - a1) + 6 dt (j0 + j1)] / dt^3
//     x1 = x_p + a2_0 dt^4/24 + a3 dt^5/120,              v1 = v_p + a2_0 dt^3/6 + a3 dt^4/24
// Exact when the acceleration is a cubic in time. dt must be > 0.
NBODY_HD inline Corrected correct(D3 xp, D3 vp, D3 a0, D3 j0, D3 a1, D3 j1, double dt) {
    const double h = 1.0 / dt, h2 = h * h, h3 = h2 * h;
    const D3 da = a0 - a1;
    const D3 a2 = h2 * (-6.0 * da - dt * (4.0 * j0 + 2.0 * j1));
    const D3 a3 = h3 * (12.0 * da + 6.0 * dt * (j0 + j1));
    const double d2 = dt * dt, d3 = d2 * dt, d4 = d3 * dt, d5 = d4 * dt;
    Corrected c;
    c.x = xp + (d4 / 24.0) * a2 + (d5 / 120.0) * a3;
    c.v = vp + (d3 / 6.0) * a2 + (d4 / 24.0) * a3;
    c.a2 = a2 + dt * a3;
    c.a3 = a3;
    return c;
}

// Aarseth's criterion: dt = sqrt(eta (|a| |a2| + |j|^2) / (|j| |a3| + |a2|^2)). Returns +infinity (HUGE_VAL)
// where the denominator is zero (no jerk, a body far from everything): the caller clamps to its largest step.
NBODY_HD inline double aarseth_step(double eta, D3 a, D3 j, D3 a2, D3 a3) {
    const double na = norm(a), nj = norm(j), na2 = norm(a2), na3 = norm(a3);
    const double den = nj * na3 + na2 * na2;
    if (!(den > 0.0)) return HUGE_VAL;
    return sqrt(eta * (na * na2 + nj * nj) / den);
}

// The first step, before a2 and a3 are known: dt = eta |a| / |j| (Aarseth's starter: eta times the jerk
// time scale; with eta = 0.01 it is ~10x below what aarseth_step gives later, a cautious start).
// +infinity where the jerk is zero.
NBODY_HD inline double initial_step(double eta, D3 a, D3 j) {
    const double nj = norm(j);
    if (!(nj > 0.0)) return HUGE_VAL;
    return eta * norm(a) / nj;
}

// Block steps are powers of two, no smaller than this (2^-40 ~ 9.1e-13): a step that needs less is refused
// ("block step underflow") rather than letting the time line run out of bits.
constexpr double kBlockDtMin = 0x1p-40;

// The largest power of two <= x, for x > 0 finite (x = 1.5 -> 1, x = 0.1 -> 0.0625, x = 4 -> 4).
NBODY_HD inline double floor_pow2(double x) {
    int e = 0;
    frexp(x, &e);  // x = f 2^e with f in [0.5, 1)
    return ldexp(1.0, e - 1);
}

// The next block step of a body at time t (a multiple of its old step dt_old) that wants dt_want:
// the largest power of two <= dt_want and <= dt_max (itself a power of two), allowed to double only
// (<= 2 dt_old) and only where t is a multiple of the doubled step, so the bodies stay in sync on the block
// time line. Returns 0 where that step would be below kBlockDtMin (the caller reports "block step
// underflow"). dt_old = 0 means "no old step" (the first one): then only dt_max bounds it. A NaN or
// non-positive dt_want also returns 0.
NBODY_HD inline double block_step(double dt_want, double dt_old, double t, double dt_max) {
    if (!(dt_want > 0.0)) return 0.0;  // zero, negative or NaN: refused like an underflow
    double dt = dt_max;
    if (dt_want < dt) dt = floor_pow2(dt_want);
    if (dt_old > 0.0 && dt > dt_old) {
        dt = dt_old;
        if (fmod(t, 2.0 * dt_old) == 0.0 && 2.0 * dt_old <= dt_max && dt_want >= 2.0 * dt_old)
            dt = 2.0 * dt_old;
    }
    return dt < kBlockDtMin ? 0.0 : dt;
}

}  // namespace nbody::hermite
