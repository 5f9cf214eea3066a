#pragma once
// The per-body Hermite arithmetic the GPU kernels use, in double: predictor, corrector, Aarseth's step and
// the block rounding in ticks (PHYSICS.md, Makino & Aarseth 1992). Host and device: the GPU tests run the
// same scheme on the host as their float64 reference.
#include <cuda_runtime.h>

#include <cmath>

#include "core/physics/hermite.hpp"

namespace nbody::kernels {

// Time in integer ticks, 2^kHermiteLevels per largest step p.dt: block steps are p.dt / 2^k, so t_i + dt_i,
// the minimum over bodies and the equality that picks the active set are exact.
using Tick = long long;
inline constexpr int kHermiteLevels = 32;  // smallest block step: p.dt / 2^32
inline constexpr Tick kHermiteTicks = Tick{1} << kHermiteLevels;

// The vector type and the predictor, corrector and Aarseth criterion are core/physics/hermite.hpp's, shared with the
// CPU backend; what is GPU-specific is below (time in ticks, the cautious first step, the finiteness check).
using DVec = hermite::D3;
using hermite::norm;

template <class T>  // Dbl4, Double4: anything with x, y, z
__host__ __device__ inline DVec dvec(const T& d) {
    return {d.x, d.y, d.z};
}

struct HermiteBody {
    DVec pos, vel, acc, jerk;
};

// x and v a time tau later, to third order in x (the jerk term).
__host__ __device__ inline void hermite_predict(const HermiteBody& b, double tau, DVec& x, DVec& v) {
    hermite::predict(b.pos, b.vel, b.acc, b.jerk, tau, x, v);
}

// One corrector step of length dt from b (at t0) with the new a1, j1 at t0 + dt (evaluated at the predicted
// state): b becomes the corrected body at t0 + dt; snap and crackle are the 2nd and 3rd derivatives of a
// at t0 + dt (for the next step's size).
__host__ __device__ inline void hermite_correct(HermiteBody& b, DVec a1, DVec j1, double dt, DVec& snap,
                                                DVec& crackle) {
    DVec xp, vp;
    hermite_predict(b, dt, xp, vp);
    const hermite::Corrected c = hermite::correct(xp, vp, b.acc, b.jerk, a1, j1, dt);
    b.pos = c.x;
    b.vel = c.v;
    b.acc = a1;
    b.jerk = j1;
    snap = c.a2;
    crackle = c.a3;
}

// Aarseth's criterion (time units); infinite when the denominator vanishes.
__host__ __device__ inline double aarseth_dt(DVec a, DVec j, DVec a2, DVec a3, double eta) {
    return hermite::aarseth_step(eta, a, j, a2, a3);
}

// The first step, before snap and crackle are known: a tenth of the CPU's eta |a| / |j| (a cautious start;
// the next steps may double each time, so it costs a few block steps per body once).
__host__ __device__ inline double hermite_initial_dt(DVec a, DVec j, double eta) {
    return 0.1 * hermite::initial_step(eta, a, j);
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
