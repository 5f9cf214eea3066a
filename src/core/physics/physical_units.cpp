#include "core/physics/physical_units.hpp"

#include <cmath>
#include <cstdio>

#include "core/limits.hpp"

namespace nbody {

const std::vector<std::string>& length_unit_names() {
    static const std::vector<std::string> names{"m", "km", "AU", "ly", "pc", "kpc", "Mpc"};
    return names;
}

const std::vector<std::string>& time_unit_names() {
    static const std::vector<std::string> names{"s", "day", "yr", "kyr", "Myr", "Gyr"};
    return names;
}

std::string physical_time(const PhysicalUnits& u, double t) {
    if (u.time <= 0) return {};
    return limits::three_digits(t * u.time) + " " + u.time_unit;
}

ScaleBar scale_bar(const PhysicalUnits& u, double units_per_pixel, double max_pixels) {
    ScaleBar bar;
    if (!(units_per_pixel > 0) || !(max_pixels > 0) || !std::isfinite(units_per_pixel)) return bar;
    const double per_unit = u.length > 0 ? u.length : 1.0;           // physical per N-body length unit
    const double longest = max_pixels * units_per_pixel * per_unit;  // in the shown unit
    double step = std::pow(10.0, std::floor(std::log10(longest)));
    for (double m : {5.0, 2.0})
        if (m * step <= longest) {
            step *= m;
            break;
        }
    bar.pixels = step / per_unit / units_per_pixel;
    bar.label = limits::three_digits(step) + (u.length > 0 ? " " + u.length_unit : " (length)");
    return bar;
}

}  // namespace nbody
