#pragma once
// What a scene says each group of bodies is (a disk, a bulge, a dark-matter halo, a star, a planet, an
// intruder, ...) and, optionally, the colour to draw it in. The window dims dark matter by default and
// lists each kind in its legend; the scene format is in docs/scenes.md.
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace nbody {

enum class ComponentKind { Disk, Bulge, Halo, Star, Planet, Intruder, Cluster, Galaxy };

// The names a scene file may give `kind`, in the enum's order.
const std::vector<std::string>& component_kind_names();
const char* component_kind_name(ComponentKind k);
// Dark matter: drawn dimmed (or hidden) unless the View panel's switch shows it.
inline bool is_dark_matter(ComponentKind k) {
    return k == ComponentKind::Halo;
}

// The colour names a scene file may give `colour` besides "#rrggbb".
const std::vector<std::string>& colour_names();
// "#rrggbb" (hex, either case) or one of colour_names(), as linear RGB in [0, 1]; nullopt when neither.
std::optional<std::array<float, 3>> parse_colour(const std::string& text);

struct ComponentLook {
    ComponentKind kind = ComponentKind::Cluster;
    std::optional<std::array<float, 3>> colour;  // linear RGB; none: the group's default colour
};

}  // namespace nbody
