#pragma once
// Particle generators. Each returns bodies centred on the origin at rest (centre of mass and its velocity
// removed); the scene builder places, moves and colours them.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/float4.hpp"

namespace nbody {

struct Body {
    Double3 x, v;
    double m = 0;
};

struct PlummerParams {
    std::size_t n = 1024;
    double mass = 1.0;   // total mass M
    double scale = 1.0;  // Plummer radius a (3 pi / 16 in Henon units, where E = -1/4 for G = M = 1)
    double mass_cut = 0.999;  // sample the enclosed-mass fraction X1 below this: truncates the radius at
                              // r_max = a (mass_cut^(-2/3) - 1)^(-1/2) (0.999: 25.8 a; 0.7: 1.87 a)
    double G = 1.0;
};

// Aarseth, Henon & Wielen (1974): r = a (X1^(-2/3) - 1)^(-1/2); speed by von Neumann rejection on
// g(q) = q^2 (1 - q^2)^3.5, v = q sqrt(2 G M / a) (1 + r^2/a^2)^(-1/4); isotropic directions.
std::vector<Body> make_plummer(const PlummerParams& p, uint64_t seed);

struct UniformSphereParams {
    std::size_t n = 1024;
    double mass = 1.0;
    double radius = 1.0;
    double virial_ratio = 0.0;  // 2T/|W| of the random isotropic velocities (0: cold collapse)
    double G = 1.0;
};

// Positions uniform in a ball; Gaussian isotropic velocities scaled so 2T/|W| = virial_ratio against the
// analytic W = -3/5 G M^2 / R of a uniform sphere.
std::vector<Body> make_uniform_sphere(const UniformSphereParams& p, uint64_t seed);

// Subtracts the mass-weighted mean position and velocity.
void remove_center_of_mass(std::vector<Body>& bodies);

}  // namespace nbody
