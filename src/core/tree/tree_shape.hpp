#pragma once
// The octree's shape read straight off the sorted keys, body by body, so the GPU builds every level at once
// (cuda/tree/tree_build_levels.cu) and gets the cells CpuTree::build makes level by level (the reference).
//
// A cell at level L is a run of bodies sharing their top 3L key bits; it exists when its parent (level L - 1)
// holds more than `leaf` bodies, L <= kMaxLevel (the root always exists). Per body i of n sorted keys:
//   first_level(i): the shallowest level at which a run starts at i (22 when key i equals key i - 1; 0 for
//     body 0, whose runs start at every level);
//   split_level(i): the deepest level at which i's run holds more than `leaf` bodies (-1 when n <= leaf).
//     A run holds more than `leaf` bodies exactly when some window [j, j + leaf] of leaf + 1 bodies around i
//     lies in it, i.e. keys j and j + leaf share that prefix (window_level(j)), so it is the largest
//     window_level(j) over the windows holding i;
//   body_levels(i): the cells starting at body i are levels first_level .. min(split_level + 1, kMaxLevel),
//     and the one at level L is split iff L is below the last of them (its child starting at i exists).
// A cell's body count and child count come afterwards from its neighbours in the breadth-first array
// (link_cell). Plain NBODY_TREE_HD functions: host C++20 and nvcc C++17 alike.
#include <cstdint>

#include "core/tree/morton.hpp"
#include "core/tree/tree_defs.hpp"

namespace nbody::tree {

// Leading zero bits of a non-zero 64-bit value.
NBODY_TREE_HD int leading_zeros64(uint64_t x) {
#if defined(__CUDA_ARCH__)
    return __clzll(static_cast<long long>(x));
#elif defined(__GNUC__) || defined(__clang__)
    return __builtin_clzll(x);
#else
    int z = 0;
    for (; !(x >> 63); x <<= 1) ++z;
    return z;
#endif
}

// The deepest level (0..kMaxLevel) at which two 63-bit keys share their prefix. Level L's triple is bits
// 65 - 3L .. 63 - 3L, which have 3L - 2 .. 3L leading zeros above them in 64 bits: the first differing bit
// names the first level that differs.
NBODY_TREE_HD int shared_levels(uint64_t a, uint64_t b) {
    const uint64_t x = a ^ b;
    return x == 0 ? kMaxLevel : (leading_zeros64(x) + 2) / 3 - 1;
}

NBODY_TREE_HD int first_level(const uint64_t* keys, uint32_t i) {
    return i == 0 ? 0 : shared_levels(keys[i - 1], keys[i]) + 1;
}

// The window of leaf + 1 bodies from j (j + leaf < n): the deepest level whose run holds all of it.
NBODY_TREE_HD int window_level(const uint64_t* keys, uint32_t j, int leaf) {
    return shared_levels(keys[j], keys[j + static_cast<uint32_t>(leaf)]);
}

// window(j) gives window_level(j); the windows holding body i start at max(0, i - leaf) ..
// min(i, n - 1 - leaf), never none when n > leaf.
template <class Window>
NBODY_TREE_HD int split_level(Window&& window, uint32_t i, uint32_t n, int leaf) {
    const uint32_t l = static_cast<uint32_t>(leaf);
    if (n <= l) return -1;
    const uint32_t first = i > l ? i - l : 0, last = i < n - 1 - l ? i : n - 1 - l;
    int s = -1;
    for (uint32_t j = first; j <= last; ++j) {
        const int c = window(j);
        s = c > s ? c : s;
    }
    return s;
}

// The levels of the cells starting at one body: lo .. hi, none when hi < lo. Body 0 always has the root.
struct BodyLevels {
    int lo, hi;
    NBODY_TREE_HD int count() const { return hi >= lo ? hi - lo + 1 : 0; }
};
NBODY_TREE_HD BodyLevels body_levels(int first, int split) {
    return {first, split + 1 < kMaxLevel ? split + 1 : kMaxLevel};
}

// The deepest non-empty level, from the first cell of each level 0 .. kMaxLevel + 1 (the last: the total): a
// level is empty only below the deepest, so the tree's level starts are starts[0 .. depth] and the total.
NBODY_TREE_HD int tree_depth(const uint32_t* starts) {
    int depth = 0;
    while (depth < kMaxLevel && starts[depth + 2] > starts[depth + 1]) ++depth;
    return depth;
}

// A cell as the level pass writes it: body_count and n_children come from link_cell. first_child is the cell
// of level + 1 starting at the same body (0 for a leaf, as CpuTree leaves it).
NBODY_TREE_HD TreeCell start_cell(uint64_t key, uint32_t body, int level, uint32_t first_child) {
    const int shift = level_shift(level);  // 63 at the root: 63-bit keys give prefix 0
    return {key >> shift << shift, body, 0, first_child, 0, static_cast<uint8_t>(level), 0};
}

// One past the last body of the cell at `level` starting at body i, given that body `bound` (i < bound <= n)
// lies outside it or is n. Usually bound is the next cell of the level, a sibling, and one load says so;
// otherwise a galloping search from i costs twice the log of the cell's size, not of the whole range.
NBODY_TREE_HD uint32_t cell_end(const uint64_t* keys, uint32_t i, uint32_t bound, int level) {
    const int shift = level_shift(level);
    const uint64_t prefix = keys[i] >> shift;
    if (keys[bound - 1] >> shift == prefix) return bound;
    uint32_t in = i, out = bound - 1;  // keys[in] inside, keys[out] outside
    for (uint64_t step = 1; step < out - in; step *= 2) {
        const uint32_t probe = in + static_cast<uint32_t>(step);
        if (keys[probe] >> shift != prefix) {
            out = probe;
            break;
        }
        in = probe;
    }
    while (out - in > 1) {
        const uint32_t mid = in + (out - in) / 2;
        if (keys[mid] >> shift == prefix)
            in = mid;
        else
            out = mid;
    }
    return out;
}

// Fills body_count and n_children of cell c of the breadth-first array of `total` cells whose key,
// body_begin, level and first_child start_cell wrote. Reads only those fields of other cells and writes only
// these two of its own, so one thread a cell may run them all at once.
NBODY_TREE_HD void link_cell(TreeCell* cells, uint32_t c, uint32_t total, const uint64_t* keys, uint32_t n) {
    const uint32_t begin = cells[c].body_begin, first_child = cells[c].first_child;
    const int level = cells[c].level;
    const bool next = c + 1 < total && cells[c + 1].level == level;
    const uint32_t end = cell_end(keys, begin, next ? cells[c + 1].body_begin : n, level);
    cells[c].body_count = end - begin;
    if (first_child == 0) return;  // a leaf (the root is nobody's child)
    // the children: the cells of level + 1 from first_child that start before end (at most 8)
    uint32_t kids = 1;
    while (kids < 8 && first_child + kids < total && cells[first_child + kids].level == level + 1 &&
           cells[first_child + kids].body_begin < end)
        ++kids;
    cells[c].n_children = static_cast<uint8_t>(kids);
}

}  // namespace nbody::tree
