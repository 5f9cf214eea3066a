#include "core/backend/backend.hpp"

#include <chrono>
#include <cmath>
#include <string>
#include <vector>

namespace nbody {

// The defaults a backend inherits where it has nothing better (core/backend/backend.hpp says when each applies).

WorkCount Backend::work() const {
    WorkCount w;
    w.evaluations = steps_taken();
    w.add(direct_work(size()), static_cast<double>(steps_taken()));
    return w;
}

std::optional<std::size_t> Backend::first_nonfinite_position() {
    std::vector<Float4> pos(size());
    copy_positions_to_host(pos.data());
    for (std::size_t i = 0; i < pos.size(); ++i)
        if (!(std::isfinite(pos[i].x) && std::isfinite(pos[i].y) && std::isfinite(pos[i].z))) return i;
    return std::nullopt;
}

std::unique_ptr<PositionLink> Backend::link_gl_buffer(unsigned, std::size_t, bool, std::string* why) {
    if (why)
        *why = "the " + name() +
               " backend keeps the bodies in main memory: they are copied to the graphics card "
               "each frame";
    return nullptr;
}

double Backend::timed_steps(int k) {
    const auto t0 = std::chrono::steady_clock::now();
    step(k);
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace nbody
