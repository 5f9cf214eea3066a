#pragma once
// The CUDA Hermite force kernel on its own, as the host sees it (plain C++): what the GPU tests compare
// with a float64 double loop, for any active list and any number of parts.
#include <vector>

#include "core/rows/sim_params.hpp"
#include "core/physics/state.hpp"

namespace nbody {

struct HermiteForces {
    std::vector<Double4> acc;   // G included; w = phi_i = -G sum_{j != i} m_j / sqrt(r^2 + eps^2)
    std::vector<Double4> jerk;  // G included
    std::vector<Double4> snap;  // G included; 6th order only (p.integrator's scheme), else empty
};

// Acceleration, potential, jerk and (p.integrator of 6th order) snap of the bodies `active` (distinct
// indices, in that order) of s, as it is, against all bodies, with p's precision, eps and G, on `devices` (CUDA ordinals, one part
// each, as CudaBackend takes them). Throws BackendError (no device) or ParamError.
HermiteForces cuda_hermite_forces(const State& s, const std::vector<int>& active, const SimParams& p,
                                  const std::vector<int>& devices = {0});

// The Sapporo2 question, measured: one block-step evaluation (predictor of all N, force of `active_count`
// bodies spread evenly over the state against all N, corrector) on GPU 0, repeated `repeats` times between
// CUDA events; milliseconds per evaluation. nbody-bench --active prints it as interactions/s.
double cuda_hermite_force_ms(const State& s, int active_count, const SimParams& p, int repeats);

}  // namespace nbody
