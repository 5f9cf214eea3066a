#pragma once
// Orbit helpers: initial conditions written as intent. Each sets the position and velocity of the
// components an OrbitSpec names (their centres of mass; the bodies inside keep their own motion).
//   figure8    three equal masses on the Chenciner-Montgomery (2000) choreography (Simo's values);
//   figure8_4  four equal masses on the off-centre four-body eight (Montaldi's D(4,1); PHYSICS.md table);
//              both scaled by lambda = `scale`: positions times lambda, velocities times sqrt(G m / lambda)
//              for component mass m, so the period is T lambda^1.5 / sqrt(G m);
//   head_on    an intruder starting `distance` from the target's centre, on a straight path through
//              (`offset` from) it, tilted `tilt` degrees from the target's spin axis, at `speed`;
//   parabolic  two components on a parabolic (E = 0) point-mass orbit with the given pericentre, starting
//              `distance` apart and approaching, counter-clockwise about the orbit's `axis`.
#include <array>
#include <vector>

#include "scene/scene.hpp"

namespace nbody {

struct PointOrbitState {
    Double3 x, v;
};

// The unscaled initial conditions (m = 1, G = 1, in the x-y plane) and periods.
constexpr double kFigure8Period = 6.32591398292621;
std::array<PointOrbitState, 3> figure8_initial();
constexpr double kFigure8FourPeriod = 6.283185307179586;  // 2 pi exactly (PHYSICS.md)
std::array<PointOrbitState, 4> figure8_four_initial();

// Whether the orbit type is a choreography (figure8, figure8_4): every member on one closed curve.
bool is_choreography(OrbitType t);
// A choreography's unscaled initial conditions (its members in order; empty for the other types), their
// period T (G = m = 1, lambda 1), and its period when placed: T lambda^1.5 / sqrt(G m), m the members'
// (equal) mass.
std::vector<PointOrbitState> choreography_initial(OrbitType t);
double choreography_unit_period(OrbitType t);
double choreography_period(const OrbitSpec& o, double G, double member_mass);

// How many components each orbit type places.
std::size_t orbit_member_count(OrbitType t);

// Sets position and velocity of the member components. Expects a validated scene (member counts, equal
// masses where needed), as the scene-file reader produces; throws ParamError otherwise.
void apply_orbits(std::vector<ComponentSpec>& components, const std::vector<OrbitSpec>& orbits, double G);

}  // namespace nbody
