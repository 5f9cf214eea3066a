#pragma once
// The desktop window's exposure and glow controls, for the page's View panel (view_controls_web.cpp).
#include <optional>
#include <string>

#include <emscripten/val.h>

namespace nbody::web {

// { autoExposure: on by default; exposureEv, exposure, glow: { lo, hi, value (the default), unit, help } }:
// the automatic exposure's stops, the fixed exposure (light 1 / exposure is white) and the bloom's weight.
emscripten::val view_controls();

// The registry's words for a value of one of those controls ("must be from 0 to 4 (got 9)", "" where allowed);
// nothing where `name` is not one of them.
std::optional<std::string> view_control_problem(const std::string& name, double value);

}  // namespace nbody::web
