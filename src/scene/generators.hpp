#pragma once
// Particle generators. Each returns bodies centred on the origin at rest (centre of mass and its velocity
// removed); the scene builder places, moves and colours them.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/float4.hpp"

namespace nbody {

class BuildControl;  // scene/build_control.hpp: progress and cancellation; every `control` below may be null
class Rng;

struct Body {
    Double3 x, v;
    double m = 0;
};

struct PlummerParams {
    std::size_t n = 1024;
    double mass = 1.0;        // total mass M
    double scale = 1.0;       // Plummer radius a (3 pi / 16 in Henon units, where E = -1/4 for G = M = 1)
    double mass_cut = 0.999;  // sample the enclosed-mass fraction X1 below this: truncates the radius at
                              // r_max = a (mass_cut^(-2/3) - 1)^(-1/2) (0.999: 25.8 a; 0.7: 1.87 a)
    double G = 1.0;
};

// Aarseth, Henon & Wielen (1974): r = a (X1^(-2/3) - 1)^(-1/2); speed by von Neumann rejection on
// g(q) = q^2 (1 - q^2)^3.5, v = q sqrt(2 G M / a) (1 + r^2/a^2)^(-1/4); isotropic directions.
// Throws ParamError for a parameter outside core/limits.hpp's ranges (mass_cut in (0, 1)).
std::vector<Body> make_plummer(const PlummerParams& p, uint64_t seed, BuildControl* control = nullptr);

// Speed over the local escape speed of a Plummer sphere, from g(q) = q^2 (1 - q^2)^3.5 by rejection.
double plummer_speed_fraction(Rng& rng);

struct UniformSphereParams {
    std::size_t n = 1024;
    double mass = 1.0;
    double radius = 1.0;
    double virial_ratio = 0.0;  // 2T/|W| of the random isotropic velocities (0: cold collapse)
    double G = 1.0;
};

// Positions uniform in a ball; Gaussian isotropic velocities scaled so 2T/|W| = virial_ratio against the
// analytic W = -3/5 G M^2 / R of a uniform sphere.
std::vector<Body> make_uniform_sphere(const UniformSphereParams& p, uint64_t seed,
                                      BuildControl* control = nullptr);

// Throws ParamError(field, "must be from lo to hi (got v)") unless lo <= v <= hi (NaN fails).
void require_range(const char* field, double v, double lo, double hi);
// The mass, length and G ranges of core/limits.hpp, for the generators' own checks.
void require_mass(double mass);
void require_length(const char* field, double length);
void require_G(double G);

// The mass-weighted mean position of bodies [begin, end) (the origin when they have no mass).
Double3 center_of_mass(const std::vector<Body>& bodies, std::size_t begin, std::size_t end);
// Subtracts the mass-weighted mean position and velocity.
void remove_center_of_mass(std::vector<Body>& bodies);

// Softened potential energy W = -G/2 sum_{i != j} m_i m_j / sqrt(r^2 + eps^2), in float64. Above `max_exact`
// bodies it averages 1/r over all pairs of the first max_exact (the bodies are independent draws, so that
// is an unbiased estimate) and scales to all n(n-1)/2 pairs: O(max_exact^2) work for any N.
double potential_energy(const std::vector<Body>& bodies, double eps, double G, std::size_t max_exact = 4096,
                        BuildControl* control = nullptr);

// The Clausius virial V = sum_i m_i x_i . a_i = -G sum_{i<j} m_i m_j r^2 / (r^2 + eps^2)^(3/2), sampled the
// same way. In equilibrium 2T = -V; with eps = 0, V = W. With Plummer softening |V| < |W|, and by more the
// closer eps is to the system's size (a truncated a = 0.25 Plummer sphere at eps = 0.1 has V = 0.82 W), so
// 2T/|W| = 1 would make such a system hot: it would expand.
double clausius_virial(const std::vector<Body>& bodies, double eps, double G, std::size_t max_exact = 4096,
                       BuildControl* control = nullptr);

// Rescales all speeds so that 2T = -V (the softened virial equilibrium): the equilibrium speeds of a
// truncated model are lower than the untruncated distribution function gives (PHYSICS.md).
void virialize(std::vector<Body>& bodies, double eps, double G, BuildControl* control = nullptr);

// The rotation taking the z axis onto the unit vector along `axis` by the shortest arc (identity for +z,
// a half turn about x for -z). `axis` must be non-zero.
class Rotation {
  public:
    static Rotation z_onto(Double3 axis);
    Double3 operator()(Double3 v) const;

  private:
    double m[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
};

Double3 normalized(Double3 v);

}  // namespace nbody
