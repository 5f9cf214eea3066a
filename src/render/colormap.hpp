#pragma once
// Colours for particles and the legend (no third-party tables): the ramp for speed and depth comes from
// assets/colormaps/<name>.txt (tools/make_colormaps.py writes it), with the same dark-purple -> red ->
// orange -> pale-yellow ramp built in as the fallback; well separated hues for groups.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

namespace nbody {

// Group: the scene component a body came from (named "component" in the window); Density: the local mass
// density (a grid the renderer deposits every frame); Potential: each body's gravitational potential.
enum class ColorMode { Group, Speed, Depth, Density, Potential };
inline constexpr int kColorModes = 5;

inline constexpr int kColormapSize = 256;
inline constexpr int kGroupColours = 8;

using ColormapTable = std::array<glm::vec3, kColormapSize>;

// The built-in ramp: t in [0, 1] (clamped) to linear RGB, and sampled at kColormapSize points.
glm::vec3 colormap(float t);
ColormapTable colormap_table();

// The ramp the renderer and legend use, and where it came from.
struct LoadedColormap {
    ColormapTable table;
    std::string source;  // the file read, or "built-in"
    std::string error;   // why the file was not used ("path:line: why"); empty when it was
};

// `dir`/<name>.txt resampled to kColormapSize entries (linear interpolation between rows); the built-in
// ramp, with the reason in .error, when the file is missing or malformed. Never throws for a bad file.
LoadedColormap load_colormap(const std::string& dir, const std::string& name = "ember");
// The names (file stems, sorted) of `dir`/colormaps/*.txt: what load_colormap can be asked for.
std::vector<std::string> colormap_names(const std::string& dir);
// `rows` (at least two) resampled to kColormapSize entries evenly spread from the first to the last.
ColormapTable resample_colormap(const std::vector<std::array<float, 3>>& rows);
// The colour of scene component `group` (cycles after kGroupColours).
glm::vec3 group_colour(uint32_t group);
const char* color_mode_name(ColorMode m);

}  // namespace nbody
