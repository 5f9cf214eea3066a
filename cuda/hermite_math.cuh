#pragma once
// The per-body Hermite arithmetic the GPU kernels use, in double: predictor, corrector, Aarseth's step and
// the block rounding in ticks (PHYSICS.md, Makino & Aarseth 1992). Host and device: the GPU tests run the
// same scheme on the host as their float64 reference.
#include <cuda_runtime.h>

#include <cmath>

namespace nbody::kernels {

// Time in integer ticks, 2^kHermiteLevels per largest step p.dt: block steps are p.dt / 2^k, so t_i + dt_i,
// the minimum over bodies and the equality that picks the active set are exact.
using Tick = long long;
inline constexpr int kHermiteLevels = 32;  // smallest block step: p.dt / 2^32
inline constexpr Tick kHermiteTicks = Tick{1} << kHermiteLevels;

struct DVec {
    double x, y, z;
};
__host__ __device__ inline DVec operator+(DVec a, DVec b) {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
}
__host__ __device__ inline DVec operator-(DVec a, DVec b) {
    return {a.x - b.x, a.y - b.y, a.z - b.z};
}
__host__ __device__ inline DVec operator*(double s, DVec a) {
    return {s * a.x, s * a.y, s * a.z};
}
__host__ __device__ inline double norm(DVec a) {
    return sqrt(a.x * a.x + a.y * a.y + a.z * a.z);
}
template <class T>  // Dbl4, Double4: anything with x, y, z
__host__ __device__ inline DVec dvec(const T& d) {
    return {d.x, d.y, d.z};
}

struct HermiteBody {
    DVec pos, vel, acc, jerk;
};

// x and v a time tau later, to third order in x (the jerk term).
__host__ __device__ inline void hermite_predict(const HermiteBody& b, double tau, DVec& x, DVec& v) {
    const double h2 = tau * tau / 2, h3 = tau * tau * tau / 6;
    x = b.pos + tau * b.vel + h2 * b.acc + h3 * b.jerk;
    v = b.vel + tau * b.acc + h2 * b.jerk;
}

// One corrector step of length dt from b (at t0) with the new a1, j1 at t0 + dt (evaluated at the predicted
// state): b becomes the corrected body at t0 + dt; snap and crackle are the 2nd and 3rd derivatives of a
// at t0 + dt (for the next step's size).
__host__ __device__ inline void hermite_correct(HermiteBody& b, DVec a1, DVec j1, double dt, DVec& snap,
                                                DVec& crackle) {
    DVec xp, vp;
    hermite_predict(b, dt, xp, vp);
    const DVec da = b.acc - a1;
    const double dt2 = dt * dt, dt3 = dt2 * dt;
    const DVec s0 = (1.0 / dt2) * ((-6.0) * da - dt * (4.0 * b.jerk + 2.0 * j1));  // a'' at t0
    const DVec c0 = (1.0 / dt3) * (12.0 * da + (6.0 * dt) * (b.jerk + j1));        // a''' (constant)
    b.pos = xp + (dt2 * dt2 / 24.0) * s0 + (dt2 * dt3 / 120.0) * c0;
    b.vel = vp + (dt3 / 6.0) * s0 + (dt2 * dt2 / 24.0) * c0;
    b.acc = a1;
    b.jerk = j1;
    snap = s0 + dt * c0;
    crackle = c0;
}

// Aarseth's criterion: sqrt(eta (|a||a2| + |j|^2) / (|j||a3| + |a2|^2)) (time units). Infinite when the
// denominator vanishes (a body that feels nothing may take the largest step).
__host__ __device__ inline double aarseth_dt(DVec a, DVec j, DVec a2, DVec a3, double eta) {
    const double na = norm(a), nj = norm(j), n2 = norm(a2), n3 = norm(a3);
    const double den = nj * n3 + n2 * n2;
    if (!(den > 0)) return INFINITY;
    return sqrt(eta * (na * n2 + nj * nj) / den);
}

// The first step, before snap and crackle are known: eta_s |a| / |j| with eta_s = eta / 10 (a cautious
// start; the next steps may double each time).
__host__ __device__ inline double hermite_initial_dt(DVec a, DVec j, double eta) {
    const double nj = norm(j);
    if (!(nj > 0)) return INFINITY;
    return 0.1 * eta * norm(a) / nj;
}

// The block step in ticks for a wish of `want` ticks: the largest power of two <= want and <= dt_max, at
// most twice the previous step (dt_old, 0 for none), and dividing t_now (so the body stays on the block
// grid). A wish below one tick sets `underflow` and takes one tick; NaN takes dt_max.
__host__ __device__ inline Tick block_step_ticks(double want, Tick t_now, Tick dt_old, Tick dt_max,
                                                 bool& underflow) {
    Tick dt = dt_max;
    while (dt > 1 && static_cast<double>(dt) > want) dt >>= 1;
    if (want < 1.0) underflow = true;
    if (dt_old > 0 && dt > 2 * dt_old) dt = 2 * dt_old;
    while (t_now % dt != 0) dt >>= 1;
    return dt;
}

__host__ __device__ inline bool body_finite(const HermiteBody& b) {
    const double s = b.pos.x + b.pos.y + b.pos.z + b.vel.x + b.vel.y + b.vel.z;
    return s - s == 0.0;  // NaN and infinities do not survive x - x
}

}  // namespace nbody::kernels
