#pragma once
// How many bodies this machine's CPU steps within a frame's share, measured here rather than assumed: a small
// ball of bodies stepped with the scene's force method (a warm-up step, then the median of three), and the
// time scaled by the method's cost (app/load_plan.hpp) to the N whose step takes `budget_s`.
#include <cstddef>

#include "core/rows/force_method.hpp"
#include "core/rows/sim_params.hpp"
#include "core/physics/state.hpp"

namespace nbody {

// What a probe's seconds are. The window budgets wall time, which is what a person sees, neighbours' load
// included. This thread's CPU time is the work alone, for one thread only (parallel_for runs one thread
// inline): the tests that check the cost model use it, so another process on a shared core does not move
// the figure they assert.
enum class StepClock { Wall, ThisThreadCpu };

// Seconds a step of `state` takes on a CPU backend of its own with `params` (a warm-up step, then the median
// of three), while nothing else of this program runs.
double measure_cpu_step(const State& state, const SimParams& params, StepClock clock = StepClock::Wall);
// The same for a uniform ball of `n` bodies with `threads` (0: every core) and `method`.
double measure_cpu_step(std::size_t n, ForceMethod method, int threads, StepClock clock = StepClock::Wall);

// The most bodies whose step takes at most `budget_s` (at least LoadBudget::kFloor), from one measurement at
// kProbeBodies (a few tens of ms of stepping).
std::size_t cpu_smooth_bodies(ForceMethod method, int threads, double budget_s,
                              StepClock clock = StepClock::Wall);

constexpr std::size_t kProbeBodies = 4096;  // a tree shallower than this scales unlike a deep one

}  // namespace nbody
