#include "core/tree/walk_shares.hpp"

#include <algorithm>
#include <cmath>

namespace nbody::tree {

WalkShares WalkShares::even(std::size_t n, std::size_t parts) {
    WalkShares s;
    parts = std::max<std::size_t>(1, parts);
    s.bounds.resize(parts + 1);
    // n * p / parts without overflow for any n below 2^63 / parts
    for (std::size_t p = 0; p <= parts; ++p) s.bounds[p] = n / parts * p + n % parts * p / parts;
    return s;
}

void WalkShares::rebalance(const std::vector<std::size_t>& runs, const std::vector<double>& seconds, double gain) {
    const std::size_t parts = this->parts();
    if (parts < 2 || runs.size() != parts + 1 || seconds.size() != parts) return;
    double total = 0;
    for (std::size_t p = 0; p < parts; ++p) {
        if (!(seconds[p] > 0) || !std::isfinite(seconds[p]) || runs[p + 1] <= runs[p]) return;
        total += seconds[p];
    }
    gain = std::clamp(gain, 0.0, 1.0);
    // The cost before body x is piecewise linear over the runs; invert it at k/parts of the total.
    std::size_t run = 0;
    double before = 0;  // the cost of the runs before `run`
    for (std::size_t k = 1; k < parts; ++k) {
        const double target = total * double(k) / double(parts);
        while (run + 1 < parts && before + seconds[run] < target) before += seconds[run++];
        const double width = double(runs[run + 1] - runs[run]);
        const double x = double(runs[run]) + width * std::clamp((target - before) / seconds[run], 0.0, 1.0);
        const double moved = double(bounds[k]) + gain * (x - double(bounds[k]));
        bounds[k] = std::size_t(std::llround(std::max(0.0, moved)));
    }
    // The bounds stay ordered within [0, n].
    for (std::size_t k = 1; k < parts; ++k) bounds[k] = std::clamp(bounds[k], bounds[k - 1], bounds[parts]);
}

double exchange_bytes(std::size_t n, std::size_t parts) {
    return parts < 2 ? 0.0 : 16.0 * double(n) * double(parts - 1);
}

}  // namespace nbody::tree
