#pragma once
// Reading one [[component]] table of a scene file (scene_file.cpp reads the rest). Internal to the
// scene loader; the format is documented in docs/scenes.md.
#include <optional>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "scene/scene.hpp"

namespace nbody {

constexpr long long kMaxBodies = 1ll << 26;  // 67M bodies: 1 GiB of float4 state, well past interactive

// A length that sets the size of a structure (a scale, radius, cut-off or thickness), kept with where it was
// written so that checks needing the whole scene (softening, where orbits put the component) can point at it.
struct StructureLength {
    std::string field;  // "component[1].halo.scale"
    double value = 0;
    toml::source_region where;  // the value, or the component's table when the default was used
};

struct ParsedComponent {
    ComponentSpec spec;
    std::vector<StructureLength> lengths;
    const toml::node* position = nullptr;  // as written (null when absent), so orbit helpers can object
    const toml::node* velocity = nullptr;
};

// `bodies` is the scene's total for components given as a `fraction` of it.
ParsedComponent read_component(const toml::table& t, const std::string& file, std::size_t index,
                               std::optional<long long> bodies);

}  // namespace nbody
