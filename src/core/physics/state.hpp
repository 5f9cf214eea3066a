#pragma once
// The particle state every backend is reset from and reads back into, in float64: the float32 backends round
// it on reset, the double-single and fp64 paths keep it whole.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/float4.hpp"

namespace nbody {

struct State {
    std::vector<Double4> pos_mass;  // x, y, z (length units), w = mass (mass units)
    std::vector<Double4> vel;       // vx, vy, vz (length / time), w unused
    std::vector<uint32_t> group;   // colour group: the scene component each body came from
    double time = 0.0;             // simulated time (time units)

    std::size_t size() const { return pos_mass.size(); }
    void resize(std::size_t n) {
        pos_mass.resize(n);
        vel.resize(n);
        group.resize(n, 0);
    }
};

// The same state with positions, masses and velocities rounded to float32 values (still stored as float64).
// Force-accuracy checks start from such a state, so a float32 kernel's error measures its arithmetic rather
// than the rounding of its input.
State rounded_to_float32(State s);

// Throws nbody::Error naming the first body whose position, mass or velocity is NaN or infinite, or whose
// mass is negative; also checks that the arrays have equal length.
void check_state_finite(const State& s);

// Index of the first non-finite position or velocity component, or -1 when all are finite.
long first_non_finite(const State& s);

}  // namespace nbody
