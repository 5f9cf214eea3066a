#pragma once
// Small helpers shared by the unit tests.
#include <string>

#include "core/state.hpp"
#include "scene/generators.hpp"
#include "scene/scene.hpp"

namespace nbody::test {

// A Plummer sphere in Henon units (G = M = 1, a = 3 pi / 16) of n bodies.
inline State plummer_state(std::size_t n, uint64_t seed = 7) { return build_scene(henon_plummer_scene(n, seed)); }

}  // namespace nbody::test
