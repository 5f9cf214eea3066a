#pragma once
// Small helpers shared by the unit tests.
#include <string>

#include "core/state.hpp"
#include "scene/generators.hpp"
#include "scene/scene.hpp"

namespace nbody::test {

// A Plummer sphere in Henon units (G = M = 1, a = 3 pi / 16) of n bodies.
inline State plummer_state(std::size_t n, uint64_t seed = 7) {
    SceneSpec s;
    s.seed = seed;
    ComponentSpec c;
    c.type = ComponentType::Plummer;
    c.n = n;
    c.scale = 3.0 * 3.14159265358979323846 / 16.0;
    s.components.push_back(c);
    return build_scene(s);
}

}  // namespace nbody::test
