#pragma once
// What a scene's N-body units are in the world (a galaxy scene: 10 kpc and 14.9 Myr), for the window's time
// read-out and scale bar. Scenes declare them in [units] (docs/scenes.md); without them, numbers stay in
// N-body units.
#include <string>
#include <vector>

namespace nbody {

struct PhysicalUnits {
    double length = 0;  // one length unit is this many `length_unit`s; 0: not declared
    std::string length_unit;
    double time = 0;  // one time unit is this many `time_unit`s; 0: not declared
    std::string time_unit;
};

// The unit names a scene may use.
const std::vector<std::string>& length_unit_names();  // m, km, AU, ly, pc, kpc, Mpc
const std::vector<std::string>& time_unit_names();    // s, day, yr, kyr, Myr, Gyr

// "465 Myr" for t = 31.2 N-body time units at 14.9 Myr each; empty when the scene declares no time unit.
std::string physical_time(const PhysicalUnits& u, double t);

// A scale bar: the longest round length (1, 2 or 5 x 10^k in the scene's physical unit, else in N-body
// length units) that is at most `max_pixels` long at `units_per_pixel` N-body length units a pixel.
struct ScaleBar {
    double pixels = 0;
    std::string label;  // "20 kpc", or "0.5 (length)"
};
ScaleBar scale_bar(const PhysicalUnits& u, double units_per_pixel, double max_pixels);

}  // namespace nbody
