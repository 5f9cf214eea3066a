#pragma once
// Small helpers shared by the unit tests.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "core/backend/backend.hpp"
#include "core/errors.hpp"
#include "core/physics/hermite.hpp"
#include "core/backend/integrator_state.hpp"
#include "core/kernels/kernel_config.hpp"
#include "core/rows/sim_params.hpp"
#include "core/physics/state.hpp"
#include "scene/generators.hpp"
#include "scene/scene.hpp"
#include "core/rows/param_checks.hpp"
#include "core/kernels/kernel_family.hpp"

namespace nbody::test {

// A Plummer sphere in Henon units (G = M = 1, a = 3 pi / 16) of n bodies.
inline State plummer_state(std::size_t n, uint64_t seed = 7) { return build_scene(henon_plummer_scene(n, seed)); }

// A tight circular binary (two bodies of mass 0.02, 0.01 apart, v^2 = G m / (2 d) each) appended at the centre
// of a Plummer field of `field` bodies (seed 21): its |a| = 200 against the field's ~1 asks block steps ~14x
// shorter than the field's median.
inline State binary_in_a_field(std::size_t field) {
    State s = plummer_state(field, 21);
    const double m = 0.02, d = 0.01, v = std::sqrt(m / (2 * d));
    s.pos_mass.push_back({0.5 * d, 0, 0, m});
    s.pos_mass.push_back({-0.5 * d, 0, 0, m});
    s.vel.push_back({0, v, 0, 0});
    s.vel.push_back({0, -v, 0, 0});
    s.group.resize(s.pos_mass.size(), 0);
    return s;
}

// Block steps: steps until the clock passes t_end and sits on a multiple of the largest step, where every
// body's step has ended and the state read back is exact, not estimated. Returns the block steps taken.
inline long long run_to_sync(Backend& b, double t_end) {
    const double dt_max = hermite::floor_pow2(b.params().dt);
    long long steps = 0;
    while (b.time() < t_end || std::fmod(b.time(), dt_max) != 0.0) b.step(1), ++steps;
    return steps;
}

// What validate_shape says about shape s of variant v ("" when it accepts it).
inline std::string shape_error(KernelVariant v, const KernelShape& s) {
    try {
        validate_shape(v, s);
    } catch (const ParamError& e) {
        return e.what();
    }
    return "";
}

// The largest difference in any position coordinate or in vx between two states of the same size.
inline double max_abs_diff(const State& a, const State& b) {
    double d = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        d = std::max({d, std::fabs(a.pos_mass[i].x - b.pos_mass[i].x), std::fabs(a.pos_mass[i].y - b.pos_mass[i].y),
                      std::fabs(a.pos_mass[i].z - b.pos_mass[i].z), std::fabs(a.vel[i].x - b.vel[i].x)});
    return d;
}

// Same time and the same bits in every position, mass and velocity (what a rewound re-run must give).
inline bool bit_identical(const State& a, const State& b) {
    return a.size() == b.size() && a.time == b.time &&
           std::memcmp(a.pos_mass.data(), b.pos_mass.data(), a.size() * sizeof(Double4)) == 0 &&
           std::memcmp(a.vel.data(), b.vel.data(), a.size() * sizeof(Double4)) == 0;
}

// What validate() says of p: its ParamError's message, or "" when p is valid.
inline std::string validation_error(const SimParams& p) {
    try {
        validate(p);
    } catch (const ParamError& e) {
        return e.what();
    }
    return "";
}

// Two integrator states hold the same arrays and scalars, bit for bit (a checkpoint's resume).
inline void expect_same_bits(const IntegratorState& a, const IntegratorState& b) {
    ASSERT_EQ(a.arrays.size(), b.arrays.size());
    for (std::size_t k = 0; k < a.arrays.size(); ++k) {
        ASSERT_EQ(a.arrays[k].first, b.arrays[k].first);
        ASSERT_EQ(a.arrays[k].second.size(), b.arrays[k].second.size());
        EXPECT_EQ(0, std::memcmp(a.arrays[k].second.data(), b.arrays[k].second.data(),
                                 a.arrays[k].second.size() * sizeof(double)))
            << "array " << a.arrays[k].first;
    }
    ASSERT_EQ(a.scalars.size(), b.scalars.size());
    for (std::size_t k = 0; k < a.scalars.size(); ++k)
        EXPECT_EQ(a.scalars[k].second, b.scalars[k].second) << "scalar " << a.scalars[k].first;
}

}  // namespace nbody::test
