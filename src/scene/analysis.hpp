#pragma once
// Structure measurements of a state, in float64: what the scene checks (tests/unit) and the measuring
// helper (tools/scene_metrics) use to judge whether a galaxy keeps its shape, where a galaxy's centre is,
// and how a ring in a disk moves.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/physics/state.hpp"
#include "scene/orbits.hpp"

namespace nbody {

// Indices of the bodies in colour group g.
std::vector<std::size_t> bodies_in_group(const State& s, uint32_t g);

Double3 center_of_mass(const State& s, std::span<const std::size_t> idx);

// The densest part of a set of bodies by shrinking spheres (Power et al. 2003): start at the centre of
// mass with a sphere holding all of them, then repeatedly take the centre of mass of the bodies inside a
// sphere 0.85 times smaller, until fewer than `min_bodies` (or 1% of them) remain inside.
Double3 density_center(const State& s, std::span<const std::size_t> idx, std::size_t min_bodies = 20);

// Radii around `c` holding the given mass fractions of the bodies `idx` (fractions ascending, in (0, 1]).
std::vector<double> lagrangian_radii(const State& s, std::span<const std::size_t> idx, Double3 c,
                                     std::span<const double> fractions);

// Surface density (mass per area) of the bodies `idx` projected on the plane through `c` perpendicular
// to `axis`, in `bins` annuli of equal width out to r_max.
std::vector<double> surface_density(const State& s, std::span<const std::size_t> idx, Double3 c, Double3 axis,
                                    double r_max, int bins);

// A map of the mass projected along z onto the square [cx - half, cx + half) x [cy - half, cy + half) in
// bins x bins pixels (row-major, y rows), bodies outside left out: for comparing two runs' tidal structure.
struct SurfaceMap {
    int bins = 0;
    double half = 0;
    std::vector<double> mass;
};
SurfaceMap surface_map(const State& s, Double3 c, double half, int bins);

// How two maps of the same grid differ: l1 = sum |a - b| / sum a (the fraction of the mass that sits in
// other pixels), and over the pixels where either holds at least floor_fraction of a's mass, the rms of
// log10(a / b) (each side floored there), with their count. Throws Error for maps of different grids.
struct MapDifference {
    double l1 = 0, log_rms = 0;
    std::size_t pixels = 0;
};
MapDifference compare_maps(const SurfaceMap& a, const SurfaceMap& b, double floor_fraction);

// 2T / -V of the bodies `idx` in their own centre-of-mass frame, V the Clausius virial of their own softened
// forces (generators.hpp): 1 in equilibrium, and equal to 2T/|W| when eps is small against the system.
double virial_ratio(const State& s, std::span<const std::size_t> idx, double eps, double G);

// Point masses advanced by float64 kick-drift-kick with eps = 0, for reference orbits: n steps of dt.
std::vector<PointOrbitState> integrate_point_masses(std::vector<PointOrbitState> bodies,
                                                    std::span<const double> masses, double G, double dt, long n);

}  // namespace nbody
