#include "cpu/reference_force.hpp"

#include <algorithm>
#include <cmath>

#include "core/parallel.hpp"

namespace nbody {

namespace {

// The float64 acceleration of body i from all N (G not applied).
Double3 reference_one(const State& s, std::size_t i, double eps2) {
    const std::size_t n = s.size();
    const Double4 pi = s.pos_mass[i];
    double ax = 0, ay = 0, az = 0;
    for (std::size_t j = 0; j < n; ++j) {
        const Double4 pj = s.pos_mass[j];
        const double dx = double(pj.x) - pi.x, dy = double(pj.y) - pi.y, dz = double(pj.z) - pi.z;
        const double r2 = dx * dx + dy * dy + dz * dz + eps2;
        if (j == i || r2 == 0) continue;
        const double inv_r = 1.0 / std::sqrt(r2);
        const double sc = double(pj.w) * inv_r * inv_r * inv_r;
        ax += dx * sc;
        ay += dy * sc;
        az += dz * sc;
    }
    return {ax, ay, az};
}

}  // namespace

std::vector<Double3> reference_accelerations(const State& s, double eps, double G, int threads) {
    std::vector<std::size_t> all(s.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    return reference_accelerations(s, all, eps, G, threads);
}

std::vector<Double3> reference_accelerations(const State& s, const std::vector<std::size_t>& rows, double eps,
                                             double G, int threads) {
    const double eps2 = eps * eps;
    std::vector<Double3> acc(rows.size());
    parallel_for(rows.size(), resolve_threads(threads), [&](std::size_t b, std::size_t e) {
        for (std::size_t r = b; r < e; ++r) {
            const Double3 a = reference_one(s, rows[r], eps2);
            acc[r] = {G * a.x, G * a.y, G * a.z};
        }
    }, 16);
    return acc;
}

ForceError compare_forces(const std::vector<Double4>& acc, const std::vector<Double3>& ref) {
    ForceError out;
    std::vector<double> rel;
    rel.reserve(ref.size());
    for (std::size_t i = 0; i < ref.size() && i < acc.size(); ++i) {
        const double norm = std::sqrt(dot(ref[i], ref[i]));
        if (norm == 0) continue;
        const Double3 d{acc[i].x - ref[i].x, acc[i].y - ref[i].y, acc[i].z - ref[i].z};
        const double r = std::isfinite(acc[i].x) && std::isfinite(acc[i].y) && std::isfinite(acc[i].z)
                             ? std::sqrt(dot(d, d)) / norm
                             : INFINITY;
        if (r > out.max_rel || out.worst_index < 0) {
            out.max_rel = std::max(out.max_rel, r);
            if (r >= out.max_rel) out.worst_index = static_cast<long>(i);
        }
        rel.push_back(r);
    }
    if (!rel.empty()) {
        auto mid = rel.begin() + static_cast<long>(rel.size() / 2);
        std::nth_element(rel.begin(), mid, rel.end());
        out.median_rel = *mid;
        const auto p99 = rel.begin() + static_cast<long>(0.99 * double(rel.size() - 1) + 0.5);  // nearest rank
        std::nth_element(rel.begin(), p99, rel.end());
        out.p99_rel = *p99;
    }
    return out;
}

}  // namespace nbody
