#pragma once
// The 6th-order Hermite scheme's per-pair and per-body arithmetic (Nitadori & Makino 2008, New Astronomy 13,
// 498): acceleration, jerk and snap of a pair from the relative position, velocity and acceleration, the
// Taylor predictor to crackle, the corrector, the generalised Aarseth criterion. Block steps follow
// core/physics/hermite.hpp's rules (block_step). Header-only, plain doubles, no exceptions: it compiles for host and
// device (CUDA includes it through cuda/sapporo6/), as core/physics/hermite.hpp does for 4th order.
#include "core/physics/hermite.hpp"

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

// The corrector's result: position and velocity at t1 = t0 + dt, and the interpolant's crackle and pop at t1
// and its 5th derivative (constant over the step), for the next predictor and the time-step criterion.
struct Corrected6 {
    D3 x, v;
    D3 crackle, pop, a5;
};

// Nitadori & Makino 2008 (section 2): with h = dt / 2, A- = a1 - a0, J+ = j1 + j0, J- = j1 - j0, S+ = s1 +
// s0, S- = s1 - s0 (a, j, s at t0 and, evaluated at the predicted state, at t1):
//     v1 = v0 + dt/2 (a1 + a0) - dt^2/10 (j1 - j0) + dt^3/120 (s1 + s0)
//     x1 = x0 + dt/2 (v1 + v0) - dt^2/10 (a1 - a0) + dt^3/120 (j1 + j0)
// and the quintic through both ends' a, j, s, at the step's midpoint:
//     crackle = 3/(4h^3) (-5 A- + 5h J+ - h^2 S-),   pop = 3/(2h^3) (h S+ - J-),
//     a5 = 15/(2h^5) (3 A- - 3h J+ + h^2 S-)
// carried to t1 by Taylor (crackle + h pop + h^2/2 a5, pop + h a5). v1 is exact for a quintic acceleration.
NBODY_HD inline Corrected6 correct6(D3 x0, D3 v0, D3 a0, D3 j0, D3 s0, D3 a1, D3 j1, D3 s1, double dt) {
    const double d2 = dt * dt, d3 = d2 * dt;
    Corrected6 c;
    c.v = v0 + (0.5 * dt) * (a1 + a0) - (d2 / 10.0) * (j1 - j0) + (d3 / 120.0) * (s1 + s0);
    c.x = x0 + (0.5 * dt) * (c.v + v0) - (d2 / 10.0) * (a1 - a0) + (d3 / 120.0) * (j1 + j0);
    const double h = 0.5 * dt, hi = 1.0 / h, hi2 = hi * hi, hi3 = hi2 * hi;
    const D3 am = a1 - a0, jp = j1 + j0, jm = j1 - j0, sp = s1 + s0, sm = s1 - s0;
    const D3 crackle_mid = (0.75 * hi3) * (-5.0 * am + (5.0 * h) * jp - (h * h) * sm);
    const D3 pop_mid = (1.5 * hi3) * (h * sp - jm);
    c.a5 = (7.5 * hi3 * hi2) * (3.0 * am - (3.0 * h) * jp + (h * h) * sm);
    c.crackle = crackle_mid + h * pop_mid + (0.5 * h * h) * c.a5;
    c.pop = pop_mid + h * c.a5;
    return c;
}

// Nitadori & Makino 2008's generalised Aarseth criterion for order p = 6, dt = eta' (A1 / A4)^(1/3) with
// A_k = sqrt(|a^(k-1)| |a^(k+1)| + |a^(k)|^2), written with eta' = sqrt(eta) so that eta means what it means
// in 4th order's sqrt(eta (|a||s| + |j|^2) / (|j||c| + |s|^2)) (their p = 4 case):
//     dt = sqrt(eta) ((|a| |s| + |j|^2) / (|c| |a5| + |pop|^2))^(1/6)
// +infinity (HUGE_VAL) where the denominator is zero: the caller clamps to its largest step.
NBODY_HD inline double aarseth6_step(double eta, D3 a, D3 j, D3 s, D3 crackle, D3 pop, D3 a5) {
    using hermite::norm;
    const double num = norm(a) * norm(s) + dot(j, j);
    const double den = norm(crackle) * norm(a5) + dot(pop, pop);
    if (!(den > 0.0)) return HUGE_VAL;
    return sqrt(eta) * pow(num / den, 1.0 / 6.0);
}

// The step a body asks for after a correction: the sixth-order criterion above, but never below the
// fourth-order criterion (hermite::aarseth_step from a, j, s and crackle) at the eta that gives the same
// energy error, eta / kInitialEtaDivisor6. Why: pop and a5 come from differences of the forces over the step
// (a5 ~ (a1 - a0 - ...) / h^5), so at a step far below the body's time scale they are the rounding of the
// force sums over h^5; the criterion then asks for a smaller step, which makes them noisier, and the step
// spirals down to the block floor within a few steps. A sequential sum in a fixed order rounds a0 and a1
// alike, and the differences stay clean; the GPU's order changes with the active count, so a0 and a1 carry
// independent roundings (~1e-15 of a force in float64), which a5 reads amplified by (tau / h)^5: at the
// cautious first step of eta 0.01 (h = tau / 6,400) that is 1e4 times a5 itself. Crackle's noise grows only
// as (tau / h)^3, a thousandth of crackle there. Where the sixth-order data are sound their step is the
// larger one.
NBODY_HD inline double next_step6(double eta, D3 a, D3 j, D3 s, const Corrected6& c);

// Double-single forces err by up to ~1e-6 of a force, and that error changes from one evaluation to the next
// (the positions move by many float ulps): crackle, interpolated from a1 - a0 and j1 + j0 over the step,
// reads it amplified by (tau / h)^3 (tau = |a| / |j|, the jerk time scale), pop and a5 by more. Below h = tau
// / 40 that noise passes a tenth of crackle itself, and from a cautious first step of tau / 3,200 (eta 0.01)
// the GPU's double-single runs asked for ever smaller steps, down to the block floor within two steps. So a
// double-single step is no shorter than kDsStepFloor6 tau, 20 steps per time scale (a sixth-order step there
// errs by ~(1/20)^7 of the orbit), with tau the shorter of |a| / |j| and sqrt(|a| / |s|): the jerk alone
// passes through zero on its way round an orbit, and |a| / |j| alone then put a body's floor at the largest
// step (a Plummer sphere of 16,384 lost 5e-4 of its energy by t = 1 at any eta). Float64 sums need no floor.
constexpr double kDsStepFloor6 = 0.05;
NBODY_HD inline double floored_step6(double want, double floor, D3 a, D3 j, D3 s) {
    const double ns = hermite::norm(s);
    const double tau_j = hermite::initial_step(1.0, a, j),
                 tau_s = ns > 0.0 ? sqrt(hermite::norm(a) / ns) : HUGE_VAL;
    const double f = floor * (tau_j < tau_s ? tau_j : tau_s);
    return want > f ? want : f;
}

// The first step, before crackle is known (the first predictor runs without it, a 4th-order predictor):
// 4th order's starter eta4 |a| / |j| at the 4th-order eta that gives 6th order's energy error, eta4 = eta /
// 32 (Plummer sphere, N = 2,048: 6th order at eta 0.32 and 0.08 matches 4th order at 0.01 and 0.0025).
// Started at eta |a| / |j| (4th order's own starter), the oversized first steps set the whole run's error
// (1.1e-1 at eta 0.16, 7e-5 at 0.08). Steps then grow by doubling: a few extra block steps a body.
constexpr double kInitialEtaDivisor6 = 32.0;
NBODY_HD inline double initial_step6(double eta, D3 a, D3 j) {
    return hermite::initial_step(eta / kInitialEtaDivisor6, a, j);
}

NBODY_HD inline double next_step6(double eta, D3 a, D3 j, D3 s, const Corrected6& c) {
    const double six = aarseth6_step(eta, a, j, s, c.crackle, c.pop, c.a5);
    const double four = hermite::aarseth_step(eta / kInitialEtaDivisor6, a, j, s, c.crackle);
    return six > four ? six : four;
}

}  // namespace nbody::hermite6
