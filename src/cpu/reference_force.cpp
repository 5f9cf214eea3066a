#include "cpu/reference_force.hpp"

#include <algorithm>
#include <cmath>

#include "core/parallel.hpp"

namespace nbody {

std::vector<Double3> reference_accelerations(const State& s, double eps, double G, int threads) {
    const std::size_t n = s.size();
    const double eps2 = eps * eps;
    std::vector<Double3> acc(n);
    parallel_for(n, resolve_threads(threads), [&](std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i) {
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
            acc[i] = {G * ax, G * ay, G * az};
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
    }
    return out;
}

}  // namespace nbody
