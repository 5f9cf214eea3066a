#pragma once
// The two orders of the CPU Hermite integrator (cpu/hermite_integrator.hpp) as policies, as cuda/hermite picks
// its kernels by order: what a body carries beyond its acceleration, how the forces are summed, the predictor,
// the corrector and the step criteria (core/physics/hermite.hpp, core/physics/hermite6.hpp). The integrator's skeleton (start,
// active set, predict, sum, correct, block steps, checkpoints) is one template over these.
#include <array>
#include <cstddef>

#include "core/physics/hermite6.hpp"
#include "core/rows/sim_params.hpp"
#include "cpu/bodies.hpp"

namespace nbody {

// Makino & Aarseth 1992: forces in the precision of SimParams::precision on predicted positions and velocities.
struct Hermite4Order {
    using Force = hermite::Force;
    // A body's derivatives beyond a at its own time, G included: jerk (checkpoint arrays jx jy jz).
    static constexpr std::array<const char*, 1> kDerivativeNames = {"j"};
    using Derivatives = std::array<hermite::D3, kDerivativeNames.size()>;
    static constexpr int kStartEvaluations = 1;
    static constexpr bool kSumsReadAcceleration = false;

    static void sum(const Bodies& at, const std::size_t* rows, std::size_t count, const SimParams& p, int threads,
                    Force* out) {
        hermite_forces(at.sources(), rows, count, p.precision, p.eps * p.eps, threads, out);
    }
    static Derivatives started(const Force& f, double G) { return {G * f.jerk}; }
    static double initial_step(double eta, hermite::D3 a, const Derivatives& d) {
        return hermite::initial_step(eta, a, d[0]);
    }
    // Position, velocity (and acceleration, for the sums that read it) dt after the body's own time.
    static void predict(const Bodies& b, std::size_t i, const Derivatives& d, double dt, hermite::D3& x,
                        hermite::D3& v, hermite::D3&) {
        hermite::predict(b.pos(i), b.vel(i), b.acc(i), d[0], dt, x, v);
    }
    // Corrects body i in b from its predicted state and its force f (G left out) at the end of a step of dt;
    // returns the step it asks for where `want` (block steps), else 0.
    static double correct(Bodies& b, const Bodies& pred, std::size_t i, Derivatives& d, const Force& f,
                          const SimParams& p, double dt, bool want) {
        const hermite::D3 a1 = p.G * f.acc, j1 = p.G * f.jerk;
        const hermite::Corrected c = hermite::correct(pred.pos(i), pred.vel(i), b.acc(i), d[0], a1, j1, dt);
        b.set_pos(i, c.x);
        b.set_vel(i, c.v);
        b.set_acc(i, a1);
        d[0] = j1;
        return want ? hermite::aarseth_step(p.eta, a1, j1, c.a2, c.a3) : 0.0;
    }
};

// Nitadori & Makino 2008: forces in float64 only, on predicted positions, velocities and accelerations.
struct Hermite6Order {
    using Force = hermite6::Force6;
    // Jerk, snap and crackle (checkpoint arrays jx .. cz).
    static constexpr std::array<const char*, 3> kDerivativeNames = {"j", "s", "c"};
    using Derivatives = std::array<hermite::D3, kDerivativeNames.size()>;
    // Snap needs every body's acceleration: a first sum gives them (its snap, from stale ones, is dropped).
    static constexpr int kStartEvaluations = 2;
    static constexpr bool kSumsReadAcceleration = true;

    static void sum(const Bodies& at, const std::size_t* rows, std::size_t count, const SimParams& p, int threads,
                    Force* out) {
        const Sources6 src{at.sources(), at.ax.data(), at.ay.data(), at.az.data()};
        hermite6_forces(src, rows, count, p.eps * p.eps, threads, out);
    }
    // The first predictor runs without crackle (zero): a 4th-order predictor.
    static Derivatives started(const Force& f, double G) { return {G * f.jerk, G * f.snap, {0, 0, 0}}; }
    static double initial_step(double eta, hermite::D3 a, const Derivatives& d) {
        return hermite6::initial_step6(eta, a, d[0]);
    }
    static void predict(const Bodies& b, std::size_t i, const Derivatives& d, double dt, hermite::D3& x,
                        hermite::D3& v, hermite::D3& a) {
        hermite6::predict6(b.pos(i), b.vel(i), b.acc(i), d[0], d[1], d[2], dt, x, v, a);
    }
    static double correct(Bodies& b, const Bodies&, std::size_t i, Derivatives& d, const Force& f,
                          const SimParams& p, double dt, bool want) {
        const hermite::D3 a1 = p.G * f.acc, j1 = p.G * f.jerk, s1 = p.G * f.snap;
        const hermite6::Corrected6 c = hermite6::correct6(b.pos(i), b.vel(i), b.acc(i), d[0], d[1], a1, j1, s1, dt);
        b.set_pos(i, c.x);
        b.set_vel(i, c.v);
        b.set_acc(i, a1);
        d = {j1, s1, c.crackle};
        return want ? hermite6::next_step6(p.eta, a1, j1, s1, c) : 0.0;
    }
};

}  // namespace nbody
