#pragma once
// nbody-scene-metrics compare: block steps against the shared step of equal accuracy (step_compare.cpp).
#include <string>

#include "scene/scene.hpp"

namespace nbody {

// A shared run is as accurate as the block run when its |dE/E| is at most energy_slack times the block run's,
// and its surface map (mapdiff's l1) and 10/50/90% Lagrangian radii are no farther from the reference run's
// (shared leap-frog at the automatic step) than the block run's are, or within map_tol and radii_tol.
struct CompareArgs {
    double until = 0;  // simulated time; 0: 2 time units
    double energy_slack = 1.2;
    double map_tol = 0.02;
    double radii_tol = 0.02;
    double map_half = 30;  // the maps: half the side about the centre of mass, and pixels a side
    int map_bins = 120;
    int max_tries = 8;    // shared runs at most (doubling up from the automatic step, or halving down)
    double max_cost = 8;  // no halving past a shared run this many times the block run's stepping time
    double start = 0;     // the first shared step tried; 0: the automatic one (core/session/auto_step.hpp)
};

// Runs the scene's block steps (its integrator must be a block one) to `until`, then shared leap-frog from
// the automatic step (core/session/auto_step.hpp): halving until a run matches the block run's energy error and map,
// or doubling while it still matches; prints a row a run and the block run's wall time against the largest
// matching shared step's. Stepping time only (the clock around Backend::step), as nbody-scene-metrics
// reports.
void compare_steps(const SceneSpec& scene, const SimParams& block_params, const CompareArgs& a);

}  // namespace nbody
