#pragma once
// Colours for particles and the legend, generated here (no third-party tables): a perceptually ordered
// dark-purple -> red -> orange -> pale-yellow ramp for speed and depth, and well separated hues for groups.
#include <array>
#include <cstdint>

#include <glm/glm.hpp>

namespace nbody {

enum class ColorMode { Group, Speed, Depth };

inline constexpr int kColormapSize = 256;
inline constexpr int kGroupColours = 8;

// t in [0, 1] (clamped) to linear RGB.
glm::vec3 colormap(float t);
std::array<glm::vec3, kColormapSize> colormap_table();
// The colour of scene component `group` (cycles after kGroupColours).
glm::vec3 group_colour(uint32_t group);
const char* color_mode_name(ColorMode m);

}  // namespace nbody
