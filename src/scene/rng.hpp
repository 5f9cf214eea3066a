#pragma once
// Deterministic random numbers for scene generators: std::mt19937_64 is specified bit for bit by the
// standard, and the conversion to double below is ours (std::uniform_real_distribution is not portable),
// so a seed gives the same scene with any compiler or library.
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>

#include "core/float4.hpp"

namespace nbody {

class Rng {
public:
    explicit Rng(uint64_t seed) : m_gen(seed) {}

    // Uniform in [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(m_gen() >> 11) * 0x1.0p-53; }
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }

    // A point uniformly distributed on the unit sphere.
    Double3 unit_vector() {
        const double z = uniform(-1.0, 1.0);
        const double phi = uniform(0.0, 2.0 * std::numbers::pi);
        const double r = std::sqrt(std::max(0.0, 1.0 - z * z));
        return {r * std::cos(phi), r * std::sin(phi), z};
    }

    // Standard normal deviate (Box-Muller; the second value is dropped to keep the stream simple).
    double normal() {
        const double u1 = 1.0 - uniform();  // (0, 1]
        const double u2 = uniform();
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
    }

private:
    std::mt19937_64 m_gen;
};

}  // namespace nbody
