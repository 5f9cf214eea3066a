#pragma once
// The level histogram of a block-step run (core/backend/backend.hpp's BlockLevels) from each body's step: level k
// holds the steps dt_max / 2^k (steps are powers of two at or below dt_max; a step outside, or not finite, is
// counted on the nearest level rather than dropped, so the counts always add up to the bodies).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/backend/backend.hpp"

#if defined(__CUDACC__)
#define NBODY_LEVEL_HD __host__ __device__
#else
#define NBODY_LEVEL_HD
#endif

namespace nbody {

inline constexpr int kMaxBlockLevel = 63;

// The level of one step: log2(dt_max / dt) rounded, 0..63; 0 for a step that is 0, negative, not finite or
// above dt_max. A step on the time line (dt_max / 2^k, what every engine takes) is read from the exponent bits
// alone, 1 ns a body (the panels histogram 2M bodies a few times a second); only an odd one pays for log2.
NBODY_LEVEL_HD inline int block_level(double dt, double dt_max) {
    if (!(dt > 0) || !(dt <= 1.7976931348623157e308)) return 0;  // also NaN
    uint64_t b = 0, bm = 0;
    std::memcpy(&b, &dt, sizeof b);
    std::memcpy(&bm, &dt_max, sizeof bm);
    constexpr uint64_t kMantissa = (uint64_t(1) << 52) - 1;
    const int e = int(b >> 52), e_max = int(bm >> 52);  // sign bits are 0: both positive
    double k = 0;
    if ((b & kMantissa) == (bm & kMantissa) && e > 0 && e_max > 0)
        k = double(e_max - e);  // the same mantissa, both normal: an exact power-of-two ratio
    else
        k = std::round(std::log2(dt_max / dt));
    return int(k < 0 ? 0 : k > kMaxBlockLevel ? kMaxBlockLevel : k);
}

template <class DtOf>
BlockLevels block_levels_of(std::size_t n, double dt_max, std::size_t last_active, DtOf&& dt_of) {
    BlockLevels out;
    out.dt_max = dt_max;
    out.last_active = last_active;
    std::size_t count[kMaxBlockLevel + 1] = {};
    int deepest = -1;
    for (std::size_t i = 0; i < n; ++i) {
        const int level = block_level(dt_of(i), dt_max);
        ++count[level];
        deepest = std::max(deepest, level);
    }
    out.count.assign(count, count + deepest + 1);
    return out;
}

}  // namespace nbody
