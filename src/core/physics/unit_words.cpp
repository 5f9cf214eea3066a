#include "core/physics/unit_words.hpp"

#include <cmath>

namespace nbody {

namespace {
bool has_length(const PhysicalUnits& u) { return u.length > 0 && !u.length_unit.empty(); }
bool has_time(const PhysicalUnits& u) { return u.time > 0 && !u.time_unit.empty(); }
}  // namespace

std::string length_words(const PhysicalUnits& u, double length) {
    return has_length(u) ? three_digits(length * u.length) + " " + u.length_unit
                         : three_digits(length) + " length units";
}

std::string time_words(const PhysicalUnits& u, double time) {
    return has_time(u) ? three_digits(time * u.time) + " " + u.time_unit : three_digits(time) + " time units";
}

// A speed or acceleration converts only when the scene gives both units; else it stays in N-body units.
std::string speed_words(const PhysicalUnits& u, double speed) {
    if (!has_length(u) || !has_time(u)) return three_digits(speed) + " (length/time)";
    return three_digits(speed * u.length / u.time) + " " + u.length_unit + "/" + u.time_unit;
}

std::string acceleration_words(const PhysicalUnits& u, double acceleration) {
    if (!has_length(u) || !has_time(u)) return three_digits(acceleration) + " (length/time\xC2\xB2)";
    return three_digits(acceleration * u.length / (u.time * u.time)) + " " + u.length_unit + "/" + u.time_unit +
           "\xC2\xB2";
}

double round_125(double x) {
    if (!(x > 0) || !std::isfinite(x)) return 1;
    const double decade = std::pow(10.0, std::floor(std::log10(x)));
    const double m = x / decade;  // in [1, 10)
    // Boundaries at the geometric means: sqrt(2), sqrt(10), sqrt(50).
    if (m < 1.41421356) return decade;
    if (m < 3.16227766) return 2 * decade;
    if (m < 7.07106781) return 5 * decade;
    return 10 * decade;
}

}  // namespace nbody
