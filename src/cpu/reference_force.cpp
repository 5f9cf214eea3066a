#include "cpu/reference_force.hpp"

#include "core/physics/force_reference.hpp"

namespace nbody {

std::vector<Double3> reference_accelerations(const State& s, double eps, double G, int threads) {
    return direct_reference(s.pos_mass, spread_rows(s.size(), s.size()), eps, G, threads);
}

std::vector<Double3> reference_accelerations(const State& s, const std::vector<std::size_t>& rows, double eps,
                                             double G, int threads) {
    return direct_reference(s.pos_mass, rows, eps, G, threads);
}

}  // namespace nbody
