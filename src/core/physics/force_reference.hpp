#pragma once
// The float64 direct-summation acceleration of chosen bodies against all N: what every force method's error
// is measured against, whole states (cpu/reference_force.hpp) and the live sample of a running tree
// (core/session/force_error_sampler.hpp) alike. O(rows x N) pair evaluations, about 20 float64 flops each.
#include <cstddef>
#include <vector>

#include "core/float4.hpp"

namespace nbody {

// a_r = G sum_{j != rows[r]} m_j (x_j - x_i) / (|x_j - x_i|^2 + eps^2)^(3/2), i = rows[r], over `threads`
// (0 = all). Pairs at zero separation with eps = 0 are skipped rather than divided by zero.
std::vector<Double3> direct_reference(const std::vector<Double4>& pos_mass,
                                      const std::vector<std::size_t>& rows, double eps, double G,
                                      int threads = 0);

// `count` body indices spread evenly over [0, n) (k n / count), ascending and deterministic: scenes store
// their components (disk, halo, intruder) in runs, so a stride samples every one. All of them when count >=
// n.
std::vector<std::size_t> spread_rows(std::size_t n, std::size_t count);

// The bodies an error estimate measures: every one of n where n^2 float64 pair evaluations fit `pairs`, else
// spread_rows of pairs / n (at least min(n, min_rows)). The median stays a fair estimate; the maximum and the
// 99th percentile are the sample's (they can only miss larger errors elsewhere).
std::vector<std::size_t> reference_rows(std::size_t n, double pairs, std::size_t min_rows);

// |a - ref| / |ref| (x, y, z): infinity where a is not finite; negative where |ref| is 0, which has no
// relative error (callers skip it).
double relative_force_error(const Double4& a, const Double3& ref);

struct ForceError {
    double max_rel = 0;     // max_i |a_i - ref_i| / |ref_i|
    double median_rel = 0;
    double p99_rel = 0;  // the 99th percentile (nearest rank): the tree's accuracy goal is stated on it
    long worst_index = -1;
    std::size_t counted = 0;  // bodies measured: those with a non-zero reference force
};

// Relative error of `acc` (x, y, z used) against `ref`, per particle, as the Chamomile paper's Table 2.
// Particles whose reference acceleration is exactly zero are skipped.
ForceError compare_forces(const std::vector<Double4>& acc, const std::vector<Double3>& ref);

// A float64 reference on chosen bodies (every one, or reference_rows' sample): acc[r] is body rows[r]'s.
// Empty: nothing measured.
struct ForceReference {
    std::vector<std::size_t> rows;
    std::vector<Double3> acc;
};

// The same on the reference's bodies: acc holds every body; the worst is named by its body index.
ForceError compare_forces(const std::vector<Double4>& acc, const ForceReference& ref);

}  // namespace nbody
