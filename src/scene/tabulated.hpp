#pragma once
// y(at) by linear interpolation in a table whose x increase (at least one entry), the end values outside it:
// the generators' and the analyses' tabulated curves (a distribution function, a rotation curve, a passage).
#include <algorithm>
#include <cstddef>
#include <vector>

namespace nbody {

inline double interpolate_clamped(const std::vector<double>& x, const std::vector<double>& y, double at) {
    if (at <= x.front()) return y.front();
    if (at >= x.back()) return y.back();
    const std::size_t i = std::size_t(std::upper_bound(x.begin(), x.end(), at) - x.begin()) - 1;
    return y[i] + (at - x[i]) / (x[i + 1] - x[i]) * (y[i + 1] - y[i]);
}

}  // namespace nbody
