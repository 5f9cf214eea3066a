#pragma once
// Helpers for the tree code's tests: a tree evaluation as a vector, relative force errors and percentiles.
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/state.hpp"
#include "cpu/reference_force.hpp"
#include "cpu/tree/cpu_tree.hpp"

namespace nbody::test {

inline std::vector<Float4> tree_accelerations(const State& s, const TreeParams& p, double eps,
                                              int threads = 0, TreeStats* st = nullptr,
                                              CpuTree* keep = nullptr) {
    std::vector<Float4> acc(s.size());
    CpuTree local(threads);
    CpuTree& t = keep ? *keep : local;
    t.evaluate(s.pos_mass.data(), s.size(), p, eps, acc.data(), st);
    return acc;
}

// |a - ref| / |ref| for the bodies `rows` (ref[r] belongs to body rows[r]), skipping zero reference forces.
inline std::vector<double> relative_errors(const std::vector<Float4>& acc,
                                           const std::vector<std::size_t>& rows,
                                           const std::vector<Double3>& ref) {
    std::vector<double> e;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const Float4 a = acc[rows[r]];
        const double norm = std::sqrt(dot(ref[r], ref[r]));
        if (norm == 0) continue;
        const Double3 d{a.x - ref[r].x, a.y - ref[r].y, a.z - ref[r].z};
        e.push_back(std::isfinite(a.x) && std::isfinite(a.y) && std::isfinite(a.z)
                        ? std::sqrt(dot(d, d)) / norm
                        : INFINITY);
    }
    std::sort(e.begin(), e.end());
    return e;
}

// The q-quantile (0..1) of sorted values (nearest rank).
inline double quantile(const std::vector<double>& sorted, double q) {
    if (sorted.empty()) return 0;
    const std::size_t k = std::min(sorted.size() - 1, std::size_t(q * double(sorted.size() - 1) + 0.5));
    return sorted[k];
}

inline std::vector<std::size_t> all_rows(std::size_t n) {
    std::vector<std::size_t> r(n);
    for (std::size_t i = 0; i < n; ++i) r[i] = i;
    return r;
}

// Every stride-th body (a deterministic sample; Plummer states are drawn in random order).
inline std::vector<std::size_t> sample_rows(std::size_t n, std::size_t count) {
    std::vector<std::size_t> r;
    const std::size_t stride = std::max<std::size_t>(1, n / count);
    for (std::size_t i = 0; i < n; i += stride) r.push_back(i);
    return r;
}

}  // namespace nbody::test
