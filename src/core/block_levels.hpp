#pragma once
// The level histogram of a block-step run (core/backend.hpp's BlockLevels) from each body's step: level k
// holds the steps dt_max / 2^k (steps are powers of two at or below dt_max; a step outside, or not finite, is
// counted on the nearest level rather than dropped, so the counts always add up to the bodies).
#include <algorithm>
#include <cmath>
#include <cstddef>

#include "core/backend.hpp"

namespace nbody {

template <class DtOf>
BlockLevels block_levels_of(std::size_t n, double dt_max, std::size_t last_active, DtOf&& dt_of) {
    BlockLevels out;
    out.dt_max = dt_max;
    out.last_active = last_active;
    for (std::size_t i = 0; i < n; ++i) {
        const double dt = dt_of(i);
        // k = log2(dt_max / dt), 0..63: a step above dt_max counts as level 0.
        const double k = dt > 0 && std::isfinite(dt) ? std::round(std::log2(dt_max / dt)) : 0.0;
        const std::size_t level = std::size_t(std::clamp(k, 0.0, 63.0));
        if (out.count.size() <= level) out.count.resize(level + 1, 0);
        ++out.count[level];
    }
    return out;
}

}  // namespace nbody
