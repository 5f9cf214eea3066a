#include "core/physics/force_reference.hpp"

#include <algorithm>
#include <cmath>

#include "core/parallel.hpp"

namespace nbody {

namespace {

// The float64 acceleration of body i from all N (G not applied).
Double3 reference_one(const std::vector<Double4>& pm, std::size_t i, double eps2) {
    const Double4 pi = pm[i];
    double ax = 0, ay = 0, az = 0;
    for (std::size_t j = 0; j < pm.size(); ++j) {
        const Double4 pj = pm[j];
        const double dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
        const double r2 = dx * dx + dy * dy + dz * dz + eps2;
        if (j == i || r2 == 0) continue;
        const double inv_r = 1.0 / std::sqrt(r2);
        const double sc = pj.w * inv_r * inv_r * inv_r;
        ax += dx * sc;
        ay += dy * sc;
        az += dz * sc;
    }
    return {ax, ay, az};
}

}  // namespace

std::vector<Double3> direct_reference(const std::vector<Double4>& pos_mass,
                                      const std::vector<std::size_t>& rows, double eps, double G,
                                      int threads) {
    const double eps2 = eps * eps;
    std::vector<Double3> acc(rows.size());
    parallel_for(
        rows.size(), resolve_threads(threads),
        [&](std::size_t b, std::size_t e) {
            for (std::size_t r = b; r < e; ++r) {
                const Double3 a = reference_one(pos_mass, rows[r], eps2);
                acc[r] = {G * a.x, G * a.y, G * a.z};
            }
        },
        16);
    return acc;
}

std::vector<std::size_t> spread_rows(std::size_t n, std::size_t count) {
    count = std::min(count, n);
    std::vector<std::size_t> rows(count);
    for (std::size_t k = 0; k < count; ++k) rows[k] = k * n / count;
    return rows;
}

std::vector<std::size_t> reference_rows(std::size_t n, double pairs, std::size_t min_rows) {
    const double all = static_cast<double>(n) * static_cast<double>(n);
    if (all <= pairs) return spread_rows(n, n);
    const auto fit = static_cast<std::size_t>(pairs / static_cast<double>(n));
    return spread_rows(n, std::clamp<std::size_t>(fit, std::min(n, min_rows), n));
}

double relative_force_error(const Double4& a, const Double3& ref) {
    const double norm = std::sqrt(dot(ref, ref));
    if (norm == 0) return -1.0;
    if (!(std::isfinite(a.x) && std::isfinite(a.y) && std::isfinite(a.z))) return INFINITY;
    const Double3 d{a.x - ref.x, a.y - ref.y, a.z - ref.z};
    return std::sqrt(dot(d, d)) / norm;
}

ForceError compare_forces(const std::vector<Double4>& acc, const std::vector<Double3>& ref) {
    ForceError out;
    std::vector<double> rel;
    rel.reserve(ref.size());
    for (std::size_t i = 0; i < ref.size() && i < acc.size(); ++i) {
        const double r = relative_force_error(acc[i], ref[i]);
        if (r < 0) continue;  // a zero reference force has no relative error
        if (out.worst_index < 0 || r > out.max_rel) out.max_rel = r, out.worst_index = static_cast<long>(i);
        rel.push_back(r);
    }
    out.counted = rel.size();
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

ForceError compare_forces(const std::vector<Double4>& acc, const ForceReference& ref) {
    std::vector<Double4> picked;
    picked.reserve(ref.rows.size());
    for (std::size_t i : ref.rows) picked.push_back(i < acc.size() ? acc[i] : Double4{NAN, NAN, NAN, 0});
    ForceError out = compare_forces(picked, ref.acc);
    if (out.worst_index >= 0)
        out.worst_index = static_cast<long>(ref.rows[static_cast<std::size_t>(out.worst_index)]);
    return out;
}

}  // namespace nbody
