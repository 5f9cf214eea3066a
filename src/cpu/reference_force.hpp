#pragma once
// The float64 reference force every fast path is checked against.
#include <cstddef>
#include <vector>

#include "core/float4.hpp"
#include "core/physics/force_reference.hpp"
#include "core/physics/state.hpp"

namespace nbody {

// a_i = G sum_{j != i} m_j (x_j - x_i) / (|x_j - x_i|^2 + eps^2)^(3/2) in double, over `threads` (0 = all).
// Pairs at zero separation with eps = 0 are skipped rather than divided by zero.
std::vector<Double3> reference_accelerations(const State& s, double eps, double G, int threads = 0);
// The same for the bodies `rows` only, each against all N (out[r] is body rows[r]'s): O(rows x N), so an
// error estimate stays affordable where the full O(N^2) reference would take minutes.
std::vector<Double3> reference_accelerations(const State& s, const std::vector<std::size_t>& rows, double eps,
                                             double G, int threads = 0);

// ForceError and compare_forces: core/force_reference.hpp.

}  // namespace nbody
