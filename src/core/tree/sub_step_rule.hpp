#pragma once
// How a block step of the tree gets the forces of its due bodies, by how many are due (one rule for the CPU
// tree, src/cpu/, and the GPU tree, cuda/tree/, so both keep making the same decisions). Host only.
//
// - Few due (sums_directly): each sums every body directly, float32 as the direct method does. Exact where the
//   walk approximates; costs 20 flops a pair, in proportion to the due bodies. A refit and a walk cost about
//   0.26 ms whatever the count at 65,536 bodies on an H200 (the multipoles of every cell, then a few hundred
//   groups one warp each); the direct sum of 400 due bodies against 65,536 takes a few tens of microseconds.
// - Under 1/kRefitBelow due (refits): the last tree is refitted instead of built. A refit keeps the last
//   build's cells, key order and groups and makes every cell's multipoles and the box of its bodies anew from
//   where the bodies are now (every body drifts every step), so the opening tests hold for the present
//   positions: a cell whose bodies have spread has a larger box and is opened more often, never accepted where
//   its bodies no longer fit. It saves the keys, the sort and the octree: a sub-step at 65,536 bodies with 5%
//   due went from 0.45 to 0.26 ms on an H200.
// - Otherwise a new tree. The top level's steps (every body due) always build, so a tree is refitted for at
//   most one largest step.
#include <cstddef>

namespace nbody::tree {

inline constexpr std::size_t kRefitBelow = 8;
// Direct sums where at most 1/kDirectBelow of the bodies are due and their pairs number at most kDirectPairs
// (2^26: 1.3 Gflop, about 50 us on an H200). The second bound keeps large N on the tree: at 2,097,152 bodies
// 954 due bodies would be 2e9 pairs, slower than the walk.
inline constexpr std::size_t kDirectBelow = 64;
inline constexpr double kDirectPairs = 67108864.0;

// NBODY_TREE_REFIT=off builds every step and never sums directly (for an A/B of the rule in one build); any
// other value than on or off is refused in words (nbody::Error) on the first call of either.
bool refits(std::size_t active, std::size_t n);
bool sums_directly(std::size_t active, std::size_t n);

}  // namespace nbody::tree
