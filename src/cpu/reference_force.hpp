#pragma once
// The float64 reference force every fast path is checked against.
#include <cstddef>
#include <vector>

#include "core/float4.hpp"
#include "core/state.hpp"

namespace nbody {

// a_i = G sum_{j != i} m_j (x_j - x_i) / (|x_j - x_i|^2 + eps^2)^(3/2) in double, over `threads` (0 = all).
// Pairs at zero separation with eps = 0 are skipped rather than divided by zero.
std::vector<Double3> reference_accelerations(const State& s, double eps, double G, int threads = 0);
// The same for the bodies `rows` only, each against all N (out[r] is body rows[r]'s): O(rows x N), so an
// error estimate stays affordable where the full O(N^2) reference would take minutes.
std::vector<Double3> reference_accelerations(const State& s, const std::vector<std::size_t>& rows, double eps,
                                             double G, int threads = 0);

struct ForceError {
    double max_rel = 0;     // max_i |a_i - ref_i| / |ref_i|
    double median_rel = 0;
    double p99_rel = 0;  // the 99th percentile (nearest rank): the tree's accuracy goal is stated on it
    long worst_index = -1;
};

// Relative error of `acc` (x, y, z used) against `ref`, per particle, as the Chamomile paper's Table 2.
// Particles whose reference acceleration is exactly zero are skipped.
ForceError compare_forces(const std::vector<Double4>& acc, const std::vector<Double3>& ref);

}  // namespace nbody
