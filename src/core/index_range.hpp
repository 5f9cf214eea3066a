#pragma once
// Contiguous ranges of body indices: the share of one MPI rank, or of one GPU part within a rank.
#include <cstddef>
#include <vector>

namespace nbody {

struct IndexRange {
    std::size_t begin = 0, end = 0;
    std::size_t size() const { return end - begin; }
};

// [0, n) in `parts` contiguous ranges whose sizes differ by at most one, the larger ones first, in order.
// parts >= 1 (else ParamError); ranges may be empty when n < parts.
std::vector<IndexRange> split_ranges(std::size_t n, int parts);

// [begin, end) of n bodies, checked: ParamError "partition" naming the range where it does not lie in [0, n).
IndexRange checked_range(std::size_t begin, std::size_t end, std::size_t n);

}  // namespace nbody
