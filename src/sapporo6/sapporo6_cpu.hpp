#pragma once
// The sixth-order force sums on the CPU in float64: the library's reference engine. The records and batches
// it shares with the GPU engine are core/physics/sapporo6_records.hpp's.
#include <vector>

#include "core/physics/hermite6.hpp"
#include "core/physics/sapporo6_records.hpp"

namespace nbody::sapporo6 {

// The j-particles predicted to the current time, by address.
struct PredictedJ {
    std::vector<hermite6::D3> pos, vel, acc;
    std::vector<double> mass, eps2;
    std::vector<int> id;
};

// i-particles [i0, i0 + n) of `in` against j-particles 0..nj-1 of `j`, written to the same rows of `out`:
// acceleration, jerk, snap, potential; a j with the i's id is skipped; the nearest j's id (ties: the lower
// address) and its squared distance |dr|^2, or -1 and +inf where there is none.
void cpu_forces(const PredictedJ& j, int nj, const IBatch& in, int i0, int n, const IResult& out);

}  // namespace nbody::sapporo6
