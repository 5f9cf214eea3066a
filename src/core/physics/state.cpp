#include "core/physics/state.hpp"

#include <cmath>
#include <string>

#include "core/errors.hpp"

namespace nbody {

namespace {
bool finite4(const Double4& f) {
    return std::isfinite(f.x) && std::isfinite(f.y) && std::isfinite(f.z) && std::isfinite(f.w);
}
}  // namespace

State rounded_to_float32(State s) {
    for (auto* v : {&s.pos_mass, &s.vel})
        for (Double4& d : *v) d = to_double4(to_float4(d));
    return s;
}

long first_non_finite(const State& s) {
    for (std::size_t i = 0; i < s.size(); ++i)
        if (!finite4(s.pos_mass[i]) || !finite4(s.vel[i])) return static_cast<long>(i);
    return -1;
}

void check_state_finite(const State& s) {
    if (s.vel.size() != s.size() || s.group.size() != s.size())
        throw Error("state: position, velocity and group arrays differ in length (" +
                    std::to_string(s.size()) + ", " + std::to_string(s.vel.size()) + ", " +
                    std::to_string(s.group.size()) + ")");
    if (long i = first_non_finite(s); i >= 0)
        throw Error("state: body " + std::to_string(i) + " has a NaN or infinite position, mass or velocity");
    for (std::size_t i = 0; i < s.size(); ++i)
        if (s.pos_mass[i].w < 0)
            throw Error("state: body " + std::to_string(i) + " has negative mass " +
                        std::to_string(s.pos_mass[i].w));
}

}  // namespace nbody
