#pragma once
// The automatic shared time step (`dt = "auto"` in a scene, `--dt auto` on the command line): the block
// leap-frog's own criterion (core/physics/leapfrog.hpp's block_leapfrog_step),
//     want_i = eta sqrt(eps / |a_i|)      (eps = 0: eta |v_i| / |a_i|)
// taken for every body at the start, reduced to the smallest, and rounded down to a power of two:
//     dt = 2^floor(log2(min_i want_i))
// so every body steps at or below what the block steps would give it at the start. The smallest, not a
// quantile: a shared step must hold for the most pulled body too (a body bound to a central black hole
// carries a large binding energy, and a step too long for it ruins the energy of the whole run). One shared
// step cannot follow a body that is pulled harder later, so with softening the rule also takes the hardest
// pull the softened force allows next to the heaviest body, 0.385 G m_max / eps^2 (the peak of G m r / (r^2 +
// eps^2)^1.5, at r = eps / sqrt 2): a star plunging past a central black hole gets there within an orbit;
// with equal masses it is far below the bodies' own pulls and changes nothing. Cost: one pass over the
// accelerations the backend already holds after its reset (about 10 flops and a square root a body), no force
// evaluation of its own.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/float4.hpp"
#include "core/rows/sim_params.hpp"
#include "core/physics/state.hpp"

namespace nbody {

class Backend;

// The criterion's eta, measured on the shipped scenes at 1,024 bodies (tests/unit/core/test_auto_step.cpp):
// the energy error over one time unit stays within 3e-3 at the automatic step, and the largest power of two
// within that bound is at most twice it. Softened (eta sqrt(eps / |a|)): 0.5. Unsoftened (eta |v| / |a|, the
// Kepler orbit and the three-body figure-eight): 0.2, since a start-only criterion cannot see the
// figure-eight's close approaches (at 0.35 it took 1/8 and ended 1.1e-2 off over eight time units).
inline constexpr double kAutoStepEta = 0.5;
inline constexpr double kAutoStepEtaUnsoftened = 0.2;

// Where no body bounds the step (no accelerations at all: one body, or all at rest without softening).
inline constexpr double kAutoStepUnbounded = 1.0 / 64;

struct AutoStep {
    double dt = 0;         // the step chosen: a power of two
    double want = 0;       // the smallest wanted step, before rounding down (infinity: no body bounds it)
    std::size_t body = 0;  // the body that wants it (or, with by_heaviest, the heaviest body)
    double accel = 0;      // the pull that sets it (length / time^2)
    bool by_heaviest =
        false;  // set by the peak softened pull next to the heaviest body, not a body's own pull
    double eta = kAutoStepEta, eps = 0;
};

// The rule above over the state's velocities and the accelerations (G included; acc[i].w unused); eta <= 0:
// kAutoStepEta, or kAutoStepEtaUnsoftened where eps = 0. Throws ParamError "dt" where the smallest wanted
// step is below 2^-40 (the block time line's floor, core/physics/hermite.hpp), naming the body; NaN accelerations are
// refused the same way.
AutoStep auto_step(const State& s, const std::vector<Double4>& acc, double eps, double G, double eta = 0);

// The rule over the state a backend holds now (after reset: its accelerations are the start's).
AutoStep auto_step_of(Backend& b);

// After a reset of a scene whose dt is automatic: the rule's step set on the backend (Backend::set_params,
// the particles kept) and returned. The backend's integrator must take shared steps (ParamError "dt" for
// block steps: their dt is their largest step, given by the scene).
AutoStep settle_auto_step(Backend& b);

// "dt 1/64 (auto): body 1,234 (|a| 9.63) wants 0.5 sqrt(eps / |a|) = 0.0161; the power of two at or below
// it", one line for the Physics panel and the headless summary.
std::string auto_step_words(const AutoStep& a);

// A step as a reader sees it: "1/64" for a power of two at or below 1, else "%g".
std::string step_text(double dt);

}  // namespace nbody
