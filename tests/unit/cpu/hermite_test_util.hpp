#pragma once
// Helpers the CPU Hermite tests (4th and 6th order) share: a Kepler pair, run parameters, and the energy error
// after running a backend to a time.
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include "core/diagnostics.hpp"
#include "core/sim_params.hpp"
#include "core/state.hpp"
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

}  // namespace nbody::test
