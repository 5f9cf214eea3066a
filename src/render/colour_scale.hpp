#pragma once
// The pure arithmetic behind colouring bodies by a quantity (no GL): the command-line words of the colour
// modes, the box the density grid spans, the range a frame's values are mapped over, and the colour bar's
// end values with their units.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "core/physics/physical_units.hpp"
#include "render/colormap.hpp"

namespace nbody {

// "component", "speed", "depth", "density", "potential" (ColorMode order); "group" is still read as
// component.
const std::vector<std::string>& color_mode_words();
std::optional<ColorMode> parse_color_mode(const std::string& word);
// "component, speed, depth, density or potential": for error messages and help texts.
std::string color_mode_choices();

// The cube the density grid spans: centred on the camera target, wide enough for what the view shows at the
// target's distance (the larger of its width and height) and never less than a fifth of the scene's radius
// (a zoom into one star still has a neighbourhood to measure). Lengths in scene units.
struct GridBox {
    glm::vec3 lo{0.0f};
    float size = 1;  // edge length
};
GridBox density_grid_box(glm::vec3 target, float distance, float fov_y, float aspect, float scene_radius);

// The values at the two ends of the colour ramp.
struct ValueRange {
    double lo = 0, hi = 1;
    bool valid = false;
};

// Histogram of log10(density), bins of equal width from log_lo to log_hi, each bin holding a weight (mass):
// the log10 densities at the q_lo and q_hi quantiles of the weight (say 0.01 and 0.999), so one dense cell or
// a few lone bodies do not set the scale. Invalid when the histogram is empty. The range is at least a tenth
// of a decade wide.
ValueRange log_range_from_histogram(const std::vector<uint32_t>& bins, double log_lo, double log_hi,
                                    double q_lo, double q_hi);
// The q_lo and q_hi quantiles of `values` (non-finite ones left out); invalid when none is finite. A range of
// zero width is widened to keep the ramp's division defined.
ValueRange quantile_range(std::vector<float> values, double q_lo, double q_hi);

// What one mass unit is in solar masses, from the scene's length and time units and its G (mass = G L^3 /
// (G_SI T^2)); 0 when the scene declares no length or time unit.
double mass_unit_in_suns(const PhysicalUnits& u, double G);

// The colour bar: its title ("density, log scale"), its two end labels ("0.001", "1e+03") and the unit
// ("M_sun/kpc^3", or "mass/length^3" without declared units). `range` is in N-body units: Speed, length/time
// from 0; Density, log10 of mass/length^3; Potential, (length/time)^2 with lo the deepest (most negative)
// value, drawn at the bright right end, and hi the shallowest at the left.
struct ColourBarText {
    std::string title, left, right, unit;
};
ColourBarText colour_bar_text(ColorMode mode, const PhysicalUnits& u, double G, const ValueRange& range);

}  // namespace nbody
