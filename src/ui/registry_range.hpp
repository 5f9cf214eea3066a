#pragma once
// A panel slider's range from the parameter registry (core/rows/param_registry.cpp), so the slider offers every
// value validate() takes and none that it refuses: a range written beside the slider drifts from the registry.
#include <cmath>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "core/rows/param_registry.hpp"

namespace nbody {

template <class T>
struct SliderRange {
    T lo, hi;
};

// The registry's range of the parameter `name`, as the slider's type (float for a float field, int for a whole
// number), rounded inwards: float(1e-6) is below 1e-6, and validate() would refuse the slider's own end.
// Throws std::logic_error for a name the registry does not have: a panel asking for one is a bug.
template <class T>
SliderRange<T> registry_range(std::string_view name) {
    const ParamSpec* spec = find_param(name);
    if (!spec) throw std::logic_error("no parameter named " + std::string(name) + " in the registry");
    SliderRange<T> r{static_cast<T>(spec->lo), static_cast<T>(spec->hi)};
    if constexpr (std::is_floating_point_v<T>) {
        if (double(r.lo) < spec->lo) r.lo = std::nextafter(r.lo, r.hi);
        if (double(r.hi) > spec->hi) r.hi = std::nextafter(r.hi, r.lo);
    }
    return r;
}

}  // namespace nbody
