#pragma once
// A measured quantity in words, in the scene's physical units where it declares them ([units]:
// core/physics/physical_units.hpp), else in N-body units: "0.571 AU", "6.28 AU/yr", "0.216 yr", or "0.571 length units".
// Three significant digits, as the legend's time and the scale bar.
#include <string>

#include "core/limits.hpp"
#include "core/physics/physical_units.hpp"

namespace nbody {

using limits::three_digits;

std::string length_words(const PhysicalUnits& u, double length);
std::string time_words(const PhysicalUnits& u, double time);
std::string speed_words(const PhysicalUnits& u, double speed);
std::string acceleration_words(const PhysicalUnits& u, double acceleration);

// The nearest of 1, 2 and 5 times a power of ten to x > 0 (on a log scale): arrow scales read as round numbers.
double round_125(double x);

}  // namespace nbody
