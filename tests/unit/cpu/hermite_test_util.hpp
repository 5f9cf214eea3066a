#pragma once
// Helpers the CPU Hermite tests (4th and 6th order) share: a Kepler pair, run parameters, and the energy error
// after running a backend to a time.
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include "core/physics/diagnostics.hpp"
#include "core/errors.hpp"
#include "core/backend/integrator_state.hpp"
#include "core/rows/sim_params.hpp"
#include "core/physics/state.hpp"
#include "cpu/cpu_backend.hpp"
#include "test_util.hpp"

namespace nbody::test {

// A number as a test property ("1.234e-05").
inline std::string sci(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3e", v);
    return buf;
}

// Relative energy error of `b` after running to time t_end (block steps: until the clock reaches it).
inline double energy_error_at(CpuBackend& b, const State& s0, double t_end, double eps, double G) {
    const Diagnostics d0 = compute_diagnostics(s0, eps, G, 1);
    while (b.time() < t_end - 1e-12) b.step(1);
    State s;
    b.read_state(s);
    return relative_energy_error(d0, compute_diagnostics(s, eps, G, 1));
}

// Two bodies (m = 0.5 each) on a Kepler orbit of semi-major axis 1 and eccentricity e, starting at
// pericentre along x, with G chosen so the period is `period` (G M = (2 pi / P)^2 a^3).
inline State kepler_pair(double e, double period, double* G) {
    const double gm = std::pow(2 * std::numbers::pi / period, 2);
    *G = gm;  // M = 1
    const double rp = 1 - e, vp = std::sqrt(gm * (1 + e) / (1 - e));
    State s;
    s.resize(2);
    s.pos_mass[0] = {0.5 * rp, 0, 0, 0.5};
    s.pos_mass[1] = {-0.5 * rp, 0, 0, 0.5};
    s.vel[0] = {0, 0.5 * vp, 0, 0};
    s.vel[1] = {0, -0.5 * vp, 0, 0};
    return s;
}

// Two bodies of mass 0.5 at rest 1 apart on the x axis: with eps = 0 they fall into each other at
// t = pi / (2 sqrt 2) = 1.11 (G = 1), the steps shrinking until one would underflow.
inline State head_on_pair() {
    State s;
    s.resize(2);
    s.pos_mass[0] = {0.5, 0, 0, 0.5};
    s.pos_mass[1] = {-0.5, 0, 0, 0.5};
    return s;
}

// CPU run parameters: integrator, precision, dt and eps, two threads.
inline SimParams hermite_params(Integrator in, Precision pr, double dt, double eps) {
    SimParams p;
    p.integrator = in;
    p.precision = pr;
    p.dt = dt;
    p.eps = eps;
    p.cpu_threads = 2;
    return p;
}

// Energy error of a softened Plummer sphere of n bodies (seed 5) at time t_end (fp64, two threads).
inline double plummer_energy_error(Integrator in, std::size_t n, double eps, double t_end, double dt, double eta) {
    const State s0 = plummer_state(n, 5);
    CpuBackend b(2);
    SimParams p = hermite_params(in, Precision::Fp64, dt, eps);
    p.eta = eta;
    b.reset(s0, p);
    return energy_error_at(b, s0, t_end, eps, 1.0);
}

// Runs `before` steps from s0, exports the state, imports it into a fresh backend, runs `after` more on both
// and expects every bit of their states and their clocks the same. Returns the exported state.
inline IntegratorState expect_resume_exact(const SimParams& p, const State& s0, int before, int after) {
    CpuBackend a(2);
    a.reset(s0, p);
    a.step(before);
    IntegratorState st;
    EXPECT_TRUE(a.export_state(st));
    CpuBackend b(2);
    b.import_state(st, p, a.steps_taken());
    EXPECT_EQ(b.time(), a.time());
    a.step(after), b.step(after);
    IntegratorState sa, sb;
    a.export_state(sa), b.export_state(sb);
    expect_same_bits(sa, sb);
    EXPECT_EQ(a.time(), b.time());
    return st;
}

// Steps b one step at a time until a step is refused with BackendError, at most max_steps; the refusal's
// words
// ("" if none came). dt0_before: body 0's block step before the refused step.
inline std::string step_until_refused(CpuBackend& b, long long max_steps, double* dt0_before = nullptr) {
    for (long long k = 0; k < max_steps; ++k) {
        if (dt0_before) *dt0_before = b.block_dt(0);
        try {
            b.step(1);
        } catch (const BackendError& e) {
            return e.what();
        }
    }
    return {};
}

}  // namespace nbody::test
