#include "core/index_range.hpp"

#include <string>

#include "core/errors.hpp"

namespace nbody {

std::vector<IndexRange> split_ranges(std::size_t n, int parts) {
    if (parts < 1) throw ParamError("ranks", "must be >= 1 (got " + std::to_string(parts) + ")");
    const auto p = static_cast<std::size_t>(parts);
    std::vector<IndexRange> out(p);
    std::size_t begin = 0;
    for (std::size_t r = 0; r < p; ++r) {
        const std::size_t len = n / p + (r < n % p ? 1 : 0);
        out[r] = {begin, begin + len};
        begin += len;
    }
    return out;
}

IndexRange checked_range(std::size_t begin, std::size_t end, std::size_t n) {
    if (begin > end || end > n)
        throw ParamError("partition", "range [" + std::to_string(begin) + ", " + std::to_string(end) +
                                          ") outside the " + std::to_string(n) + " bodies");
    return {begin, end};
}

}  // namespace nbody
