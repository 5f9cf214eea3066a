#pragma once
// Running until a simulated time: shared by the headless runner (--t-end) and the library's evolve(t).
#include <algorithm>
#include <cmath>

#include "core/sim_params.hpp"

namespace nbody {

// Simulated time t has reached t_end, allowing for the round-off of a sum of shared steps (1e-9 relative).
inline bool reached_time(double t, double t_end) {
    return t >= t_end - 1e-9 * std::max(1.0, std::fabs(t_end));
}

// How many steps may be taken towards t_end from t without passing it: shared steps, the whole steps that
// remain (at least 1); block steps, one at a time, since a block step advances the clock by a varying amount
// (the O(N) read and check after each is small beside its force sum).
inline long long steps_towards(double t_end, double t, const SimParams& p) {
    if (integrator_info(p.integrator).block_steps) return 1;
    return std::max(1LL, static_cast<long long>(std::ceil((t_end - t) / p.dt - 1e-9)));
}

}  // namespace nbody
