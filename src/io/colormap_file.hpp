#pragma once
// Colour-map files (assets/colormaps/<name>.txt, written by tools/make_colormaps.py): one `r g b` row per
// line, each component a number in [0, 1] (linear RGB), from the low end of the scale to the high end.
// `#` starts a comment (to the end of the line); blank lines are skipped.
//
//   # ember: dark purple -> red -> orange -> pale yellow
//   0.1 0.05 0.35
//   0.35 0.1 0.6
//   ...
#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace nbody {

inline constexpr std::size_t kMinColormapRows = 2;     // a ramp needs two ends
inline constexpr std::size_t kMaxColormapRows = 4096;  // far more than a 256-texel texture can show

using RgbRow = std::array<float, 3>;

// Throws nbody::Error "name:line: why" for a malformed row (not three numbers, a number outside [0, 1],
// NaN or infinity), and "name: why" for too few or too many rows. `name` is used in messages only.
std::vector<RgbRow> parse_colormap(std::string_view text, const std::string& name);

// The file at `path` through parse_colormap; nbody::Error "path: cannot read" when it cannot be opened.
std::vector<RgbRow> read_colormap_file(const std::string& path);

}  // namespace nbody
