#pragma once
// Conserved quantities in float64, computed from a (float32) state: what the user watches to judge the
// time step and softening, and what the tests assert.
#include <optional>
#include <vector>

#include "core/float4.hpp"
#include "core/physics/state.hpp"

namespace nbody {

struct Diagnostics {
    double mass = 0;
    double kinetic = 0;    // T = 1/2 sum m v^2
    double potential = 0;  // W = -G/2 sum_{i != j} m_i m_j / sqrt(r_ij^2 + eps^2)
    double total = 0;      // E = T + W
    double virial_ratio = 0;  // 2T / |W| (1 in equilibrium)
    Double3 momentum;          // sum m v
    Double3 angular_momentum;  // sum m x cross v
    Double3 com_position;
    Double3 com_velocity;
    double momentum_scale = 0;  // sum m |v|: the scale momentum drift is measured against
};

// Centre of mass and its velocity, in float64. Leap-frog conserves linear momentum exactly (round-off
// only), so at a later time t the centre of mass is position + velocity * (t - time): following it needs
// no read-back of the particles.
struct CentreOfMass {
    Double3 position, velocity;
    double mass = 0;
    double time = 0;  // simulated time of the state it was taken from

    Double3 at(double t) const { return position + (t - time) * velocity; }
};
CentreOfMass centre_of_mass(const State& s);

// O(N^2) for the potential, spread over `threads` (0 = all); O(N) when the potential energy is given
// (a GPU backend's Backend::potential_energy()).
Diagnostics compute_diagnostics(const State& s, double eps, double G, int threads = 0,
                                std::optional<double> potential = std::nullopt);

// Each body's specific potential phi_i = -G sum_{j != i} m_j / sqrt(r_ij^2 + eps^2), in float64, O(N^2)
// over `threads` (0 = all); the potential energy is sum_i m_i phi_i / 2. Coincident bodies without
// softening add nothing to each other.
std::vector<double> body_potentials(const State& s, double eps, double G, int threads = 0);

// |E - E0| / |E0| (absolute error when E0 == 0).
double relative_energy_error(const Diagnostics& start, const Diagnostics& now);

// |P - P0| / (sum m |v| at start): linear momentum drift relative to the momentum in motion, since the
// total momentum itself is usually zero.
double momentum_drift(const Diagnostics& start, const Diagnostics& now);

}  // namespace nbody
