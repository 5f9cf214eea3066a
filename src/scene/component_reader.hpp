#pragma once
// Reading one [[component]] table of a scene file (scene_file.cpp reads the rest). Internal to the
// scene loader; the format is documented in docs/scenes.md.
#include <optional>
#include <string>

#include <toml++/toml.h>

#include "scene/scene.hpp"

namespace nbody {

constexpr long long kMaxBodies = 1ll << 26;  // 67M bodies: 1 GiB of float4 state, well past interactive

struct ParsedComponent {
    ComponentSpec spec;
    const toml::node* position = nullptr;  // as written (null when absent), so orbit helpers can object
    const toml::node* velocity = nullptr;
};

// `bodies` is the scene's total for components given as a `fraction` of it.
ParsedComponent read_component(const toml::table& t, const std::string& file, std::size_t index,
                               std::optional<long long> bodies);

}  // namespace nbody
