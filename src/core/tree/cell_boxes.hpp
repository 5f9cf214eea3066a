#pragma once
// The tree's cells as boxes, for drawing (the View panel's "tree cells"): what Readouts::tree_cells returns,
// made the same way from the CPU tree and from the GPU tree's cells copied back, so both draw alike.
// Host-only; compiles as C++17 (the CUDA backend's files include it through core/backend/backend.hpp).
#include <cstddef>
#include <vector>

#include "core/tree/tree_defs.hpp"

namespace nbody {

// One cell: its geometric centre and half its side (length units), and its depth (root 0).
struct TreeCellBox {
    float cx = 0, cy = 0, cz = 0, half = 0;
    int depth = 0;
};

// The deepest level drawn. A full octree has 8^depth cells at that depth (16.8 million at 8); a tree of leaf 16
// over a million bodies holds about 230,000 cells in all, so a copy to depth 8 stays a few MB.
inline constexpr int kMaxCellDrawDepth = 8;

// The boxes of the cells among cells[0, count) at depth <= `depth` (clamped to [0, kMaxCellDrawDepth]), in their
// breadth-first order; deeper cells are skipped, so `count` may include them. `box` is the key cube the tree
// was built in (it sets every cell's geometry, tree::cell_box).
std::vector<TreeCellBox> cell_boxes(const tree::TreeCell* cells, std::size_t count, const tree::KeyBox& box,
                                    int depth);

}  // namespace nbody
