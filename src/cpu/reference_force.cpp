#include "cpu/reference_force.hpp"

#include <algorithm>
#include <cmath>

#include "core/force_reference.hpp"

namespace nbody {

std::vector<Double3> reference_accelerations(const State& s, double eps, double G, int threads) {
    return direct_reference(s.pos_mass, spread_rows(s.size(), s.size()), eps, G, threads);
}

std::vector<Double3> reference_accelerations(const State& s, const std::vector<std::size_t>& rows, double eps,
                                             double G, int threads) {
    return direct_reference(s.pos_mass, rows, eps, G, threads);
}

ForceError compare_forces(const std::vector<Double4>& acc, const std::vector<Double3>& ref) {
    ForceError out;
    std::vector<double> rel;
    rel.reserve(ref.size());
    for (std::size_t i = 0; i < ref.size() && i < acc.size(); ++i) {
        const double r = relative_force_error(acc[i], ref[i]);
        if (r < 0) continue;  // a zero reference force has no relative error
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
