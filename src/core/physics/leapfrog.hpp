#pragma once
// Kick-drift-kick leap-frog on host arrays (structure of arrays, float or double). One step of size dt is
//     v += a dt/2;  x += v dt;  a = a(x);  v += a dt/2
// and needs one force evaluation because the accelerations are kept between steps. Each kick and drift
// conserves linear and angular momentum exactly (round-off only); energy error stays bounded.
#include <cmath>
#include <cstddef>

#include "core/physics/hermite.hpp"  // NBODY_HD: the block step rule runs on the GPU engine too

namespace nbody {

// v += a * h for n bodies (3 flops per component).
template <class T>
inline void kick(std::size_t n, T* vx, T* vy, T* vz, const T* ax, const T* ay, const T* az, T h) {
    for (std::size_t i = 0; i < n; ++i) {
        vx[i] += ax[i] * h;
        vy[i] += ay[i] * h;
        vz[i] += az[i] * h;
    }
}

// x += v * dt for n bodies.
template <class T>
inline void drift(std::size_t n, T* x, T* y, T* z, const T* vx, const T* vy, const T* vz, T dt) {
    for (std::size_t i = 0; i < n; ++i) {
        x[i] += vx[i] * dt;
        y[i] += vy[i] * dt;
        z[i] += vz[i] * dt;
    }
}

// The block leap-frog's wanted step of a body of acceleration a (G included) and velocity v (given squared):
//     dt = eta sqrt(eps / |a|)
// GADGET-2's criterion (Springel 2005, eq. 34, with eta outside the root: eta here = sqrt(2 eta_GADGET)): a
// fraction of the time to move one softening length from rest under a. Where the tidal rate omega^2 ~ |a| /
// eps (a body pulled at the softening scale) the KDK energy error of its orbit is about (omega dt)^2 / 4 =
// eta^2 / 4; near a potential minimum a -> 0 and the largest step bounds it instead. With eps = 0 no length
// exists: dt = eta |v| / |a| (the time to change the velocity by itself). +infinity where neither bounds it
// (a = 0, or eps = 0 and v = 0, a body at rest): the caller clamps that to its largest step; never a division
// by zero. A NaN stays NaN (refused later).
NBODY_HD inline double block_leapfrog_step(double eta, double eps, double a2, double v2) {
    if (a2 == 0.0) return HUGE_VAL;
    const double a = sqrt(a2);
    if (eps > 0.0) return eta * sqrt(eps / a);
    return v2 > 0.0 ? eta * sqrt(v2) / a : HUGE_VAL;
}

// Hysteresis on the way up: a body whose wanted step lies within kLeapfrogGrowMargin of twice its step keeps
// its step rather than doubling it. The energy the block leap-frog keeps moves at each change of a body's
// level (the step is chosen at its start, not time-symmetrically), so a body whose criterion hovers at a
// level's edge and flips between two levels every few steps drifts; shortening is never held back (the
// criterion asks for it). The wanted step is passed on to core/physics/hermite.hpp's block_step as if it asked for
// the old step at most.
inline constexpr double kLeapfrogGrowMargin = 1.25;
NBODY_HD inline double held_leapfrog_want(double want, double dt_old) {
    return dt_old > 0.0 && want >= dt_old && want < kLeapfrogGrowMargin * 2.0 * dt_old ? dt_old : want;
}

}  // namespace nbody
