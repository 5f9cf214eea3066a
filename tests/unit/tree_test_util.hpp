#pragma once
// Helpers for the tree code's tests: a tree evaluation as a vector, relative force errors and percentiles.
#include <algorithm>
#include <cmath>
#include <random>
#include <utility>
#include <vector>

#include "core/physics/state.hpp"
#include "cpu/reference_force.hpp"
#include "cpu/tree/cpu_tree.hpp"
#include "test_util.hpp"  // plummer_state

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

// Two Plummer spheres of n / 2 bodies each (Henon units, each of mass 1/2), their centres `separation` apart
// on the x axis: a key cube that is mostly empty, each cluster's core inside a cell rather than at a corner.
inline State two_far_clusters(std::size_t n, double separation, uint64_t seed) {
    const State a = plummer_state(n / 2, seed), b = plummer_state(n - n / 2, seed + 1);
    State s;
    s.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const bool first = i < a.size();
        const Double4 p = first ? a.pos_mass[i] : b.pos_mass[i - a.size()];
        s.pos_mass[i] = {p.x + (first ? -0.5 : 0.5) * separation, p.y, p.z, 0.5 * p.w};
        s.vel[i] = first ? a.vel[i] : b.vel[i - a.size()];
    }
    return rounded_to_float32(s);
}

// The deepest cell of a tree (breadth-first cells, root 0) that holds all of key-order bodies [begin, end).
inline std::size_t deepest_cell_holding(const std::vector<tree::TreeCell>& cells, uint32_t begin, uint32_t end) {
    std::size_t h = 0;
    for (bool deeper = true; deeper;) {
        deeper = false;
        const tree::TreeCell& k = cells[h];
        for (uint32_t c = 0; c < k.n_children && !deeper; ++c) {
            const tree::TreeCell& kid = cells[k.first_child + c];
            if (kid.body_begin <= begin && end <= kid.body_begin + kid.body_count) h = k.first_child + c, deeper = true;
        }
    }
    return h;
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

// Bodies moved as a refitted tree finds them (core/tree/sub_step_rule.hpp): each by a normal offset of
// `sigma` a coordinate, then `swaps` random pairs swapped (moves across the system).
inline void scatter_bodies(std::vector<Float4>& bodies, uint64_t seed, float sigma, int swaps) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<float> kick(0.0f, sigma);
    for (Float4& b : bodies) b.x += kick(rng), b.y += kick(rng), b.z += kick(rng);
    std::uniform_int_distribution<std::size_t> any(0, bodies.size() - 1);
    for (int k = 0; k < swaps; ++k) {
        Float4 &u = bodies[any(rng)], &v = bodies[any(rng)];
        std::swap(u.x, v.x), std::swap(u.y, v.y), std::swap(u.z, v.z);
    }
}

}  // namespace nbody::test
