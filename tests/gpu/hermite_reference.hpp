#pragma once
// The GPU Hermite tests' float64 references and states: the double-loop force with jerk and potential, the
// same block-step scheme run on the host (hermite_math.cuh's per-body math), and the test systems.
#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>
#include <vector>

#include "../unit/test_util.hpp"
#include "core/backend/backend.hpp"
#include "core/physics/diagnostics.hpp"
#include "core/rows/sim_params.hpp"
#include "core/physics/state.hpp"
#include "hermite/hermite_math.cuh"

namespace nbody::test {

// The float64 double loop: a, jerk and phi of body i, and the sums of the magnitudes of the terms (the
// scale a rounding error is measured against: float32 sums of n terms err by ~sqrt(n) u of it).
struct RefForce {
    Double3 a, j;
    double phi = 0;
    double a_scale = 0, j_scale = 0, phi_scale = 0;
};
inline RefForce reference(const State& s, int i, double eps, double G) {
    RefForce f;
    const Double4 pi = s.pos_mass[i], vi = s.vel[i];
    for (std::size_t k = 0; k < s.size(); ++k) {
        if (static_cast<int>(k) == i) continue;
        const Double3 dx{s.pos_mass[k].x - pi.x, s.pos_mass[k].y - pi.y, s.pos_mass[k].z - pi.z};
        const Double3 dv{s.vel[k].x - vi.x, s.vel[k].y - vi.y, s.vel[k].z - vi.z};
        const double r2 = dot(dx, dx) + eps * eps, rinv = 1 / std::sqrt(r2), m = G * s.pos_mass[k].w;
        const double mr3 = m * rinv * rinv * rinv, alpha = 3 * dot(dx, dv) / r2;
        const Double3 ta = mr3 * dx, tj = mr3 * (dv - alpha * dx);
        f.a = f.a + ta, f.j = f.j + tj, f.phi -= m * rinv;
        f.a_scale += std::sqrt(dot(ta, ta)), f.j_scale += std::sqrt(dot(tj, tj)), f.phi_scale += m * rinv;
    }
    return f;
}

inline double err(const Double4& got, const Double3& want) {
    const Double3 d{got.x - want.x, got.y - want.y, got.z - want.z};
    return std::sqrt(dot(d, d));
}

inline std::vector<int> active_set(int n, int size) {
    std::vector<int> a;
    if (size >= n) {
        for (int i = 0; i < n; ++i) a.push_back(i);
    } else {
        for (int k = 0; k < size; ++k)
            a.push_back(static_cast<int>(static_cast<long long>(k) * (n - 1) / std::max(1, size - 1)));
        if (size == 1) a = {n / 2};
    }
    return a;
}

// A tight binary (m = 0.01 each, a = 0.01, circular, period 0.044)
// at the centre of a 256-body Plummer field of mass 0.98.
inline State binary_in_field() {
    State s = test::plummer_state(256, 12);
    for (Double4& p : s.pos_mass) p.w *= 0.98;
    const double a = 0.01, m = 0.01, v = std::sqrt(2 * m / a) / 2;
    s.pos_mass.insert(s.pos_mass.begin(), {Double4{a / 2, 0, 0, m}, Double4{-a / 2, 0, 0, m}});
    s.vel.insert(s.vel.begin(), {Double4{0, v, 0, 0}, Double4{0, -v, 0, 0}});
    s.group.resize(s.pos_mass.size());
    return s;
}

// The same scheme on the host in float64 (hermite_math.cuh's predictor, corrector, Aarseth step and block
// rounding; forces by the double loop above): the reference the GPU's block steps must agree with. Returns
// the state at t_end (every body synchronised there: t_end a multiple of p.dt).
inline State host_hermite(const State& s0, const SimParams& p, double t_end, long long& block_steps) {
    using namespace kernels;
    const std::size_t n = s0.size();
    const double tick = p.dt / static_cast<double>(kHermiteTicks);
    std::vector<HermiteBody> b(n);
    std::vector<Tick> t_last(n, 0), t_next(n, 0);
    State pred = s0;
    auto evaluate = [&](std::size_t i) {
        const RefForce f = reference(pred, static_cast<int>(i), p.eps, p.G);
        return std::make_pair(DVec{f.a.x, f.a.y, f.a.z}, DVec{f.j.x, f.j.y, f.j.z});
    };
    for (std::size_t i = 0; i < n; ++i) {
        b[i] = {dvec(s0.pos_mass[i]), dvec(s0.vel[i]), {}, {}};
        std::tie(b[i].acc, b[i].jerk) = evaluate(i);
        bool under = false;
        t_next[i] = block_step_ticks(hermite_initial_dt(b[i].acc, b[i].jerk, p.eta) / tick, 0, 0,
                                     kHermiteTicks, under);
    }
    const Tick end = static_cast<Tick>(std::llround(t_end / p.dt)) * kHermiteTicks;
    block_steps = 0;
    for (Tick now = 0; now < end; ++block_steps) {
        now = *std::min_element(t_next.begin(), t_next.end());
        for (std::size_t i = 0; i < n; ++i) {
            DVec x, v;
            hermite_predict(b[i], static_cast<double>(now - t_last[i]) * tick, x, v);
            pred.pos_mass[i] = {x.x, x.y, x.z, s0.pos_mass[i].w};
            pred.vel[i] = {v.x, v.y, v.z, 0};
        }
        std::vector<std::size_t> active;
        std::vector<std::pair<DVec, DVec>> forces;
        for (std::size_t i = 0; i < n; ++i)
            if (t_next[i] == now) active.push_back(i), forces.push_back(evaluate(i));
        for (std::size_t k = 0; k < active.size(); ++k) {
            const std::size_t i = active[k];
            DVec snap, crackle;
            hermite_correct(b[i], forces[k].first, forces[k].second,
                            static_cast<double>(now - t_last[i]) * tick, snap, crackle);
            bool under = false;
            const Tick dt = block_step_ticks(aarseth_dt(b[i].acc, b[i].jerk, snap, crackle, p.eta) / tick,
                                             now, now - t_last[i], kHermiteTicks, under);
            t_last[i] = now, t_next[i] = now + dt;
        }
    }
    State out = s0;
    for (std::size_t i = 0; i < n; ++i) {
        out.pos_mass[i] = {b[i].pos.x, b[i].pos.y, b[i].pos.z, s0.pos_mass[i].w};
        out.vel[i] = {b[i].vel.x, b[i].vel.y, b[i].vel.z, 0};
    }
    out.time = s0.time + t_end;
    return out;
}

inline double max_position_difference(const State& a, const State& b) {
    double worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const Double3 d{a.pos_mass[i].x - b.pos_mass[i].x, a.pos_mass[i].y - b.pos_mass[i].y,
                        a.pos_mass[i].z - b.pos_mass[i].z};
        worst = std::max(worst, std::sqrt(dot(d, d)));
    }
    return worst;
}

// |dE/E| of a run from s to t_end (steps of one call each, so a block-step run ends on t_end).
inline double energy_error_after(Backend& b, const State& s, const SimParams& p, double t_end) {
    b.reset(s, p);
    const Diagnostics d0 = compute_diagnostics(s, p.eps, p.G);
    while (b.time() < t_end - 1e-12) b.step(1);
    State out;
    b.read_state(out);
    return relative_energy_error(d0, compute_diagnostics(out, p.eps, p.G));
}

inline SimParams hermite_params(Integrator in, Precision prec, double dt, double eps) {
    SimParams p;
    p.integrator = in;
    p.precision = prec;
    p.dt = dt;
    p.eps = eps;
    return p;
}

// Kepler, e = 0.9, a = 1, m1 = m2 = 1/2, G = (pi/4)^2 so that the period is 8 = 64 steps of dt_max = 1/8,
// starting at apocentre (separation 1.9); the block steps shrink near pericentre (0.1).
inline State eccentric_kepler(double G) {
    const double e = 0.9, a = 1.0, v = std::sqrt(G * (1 - e) / (a * (1 + e)));  // relative speed at apocentre
    State s;
    s.resize(2);
    s.pos_mass = {Double4{a * (1 + e) / 2, 0, 0, 0.5}, Double4{-a * (1 + e) / 2, 0, 0, 0.5}};
    s.vel = {Double4{0, v / 2, 0, 0}, Double4{0, -v / 2, 0, 0}};
    return s;
}

}  // namespace nbody::test
