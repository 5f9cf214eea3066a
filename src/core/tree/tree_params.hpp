#pragma once
// The tree code's parameters and what one evaluation reports. Host-only (validate throws).
#include <cstddef>
#include <cstdint>
#include <string>

namespace nbody {

struct TreeParams {
    // A group accepts a cell's multipoles only when both opening tests pass (tree/multipoles.hpp):
    // theta, Barnes (1994): the cell lies farther than l / theta + delta from the group (l the extent of the
    // cell's bodies, delta its centre of mass's offset from their box's centre). (0, 1.5]; smaller is more
    // accurate and slower. With alpha on it is the guard that keeps the expansion convergent (1: the cell's
    // bodies lie within l + delta of its centre of mass, nearer than the group).
    float theta = 1.0f;
    // alpha, the acceleration criterion (GADGET-2's relative one at quadrupole order, as GOTHIC): accept only
    // when the first term the quadrupole leaves out, M l^3 / d^5, is below alpha times the smallest
    // acceleration in the group at the last evaluation. [0, 1]; 0 = off (theta alone decides). It spends
    // interactions where forces are weak and saves them where they are strong: at 131,072 bodies it reaches
    // Barnes's theta = 0.5 accuracy with 1.7 times fewer interactions on a Plummer sphere and 1.5 times fewer
    // on the Cartwheel (tests/unit/core/tree/test_tree_accuracy.cpp prints both). The default meets the
    // accuracy goal (median relative force error <= 3e-4, 99th percentile <= 3e-3 against float64 direct
    // summation) on both.
    float alpha = 0.001f;
    // A cell with more bodies than this is split (until the depth cap): 1..64. 32: with the acceleration
    // criterion a leaf of 32 is as accurate as one of 16 and the GPU walk 2 to 12% faster (docs/bench/performance-log.md).
    int leaf = 32;
    int group = 32;  // consecutive bodies in key order sharing one interaction list: 8..128
    // Opens every cell whatever theta (direct summation through the tree, for tests and comparisons).
    bool open_all = false;

    // Throws ParamError naming the field and its allowed range: the registry's tree rows, checked beside the
    // registry's other checks (core/rows/param_checks.cpp).
    void validate() const;
    // The acceleration criterion is in force (open_all opens every cell whatever alpha says): an evaluation
    // then reads the last accelerations, or walks once under theta alone to find them.
    bool reads_last_accelerations() const { return alpha > 0 && !open_all; }
    // Every field (written out: the header also compiles as C++17 under nvcc).
    bool operator==(const TreeParams& o) const {
        return theta == o.theta && alpha == o.alpha && leaf == o.leaf && group == o.group && open_all == o.open_all;
    }
    bool operator!=(const TreeParams& o) const { return !(*this == o); }
};

// "tree theta 1 alpha 0.001 leaf 32 group 32" ("tree theta 0.5 leaf 32 group 32" with alpha off): what the
// panels and summaries call it; theta_text: "0.5" (3 digits); opening_text: "theta 1 alpha 0.001".
std::string tree_label(const TreeParams& p);
std::string theta_text(float theta);
std::string opening_text(const TreeParams& p);

// What one evaluation did. Interactions are the ones actually evaluated (a group's list times its bodies).
struct TreeStats {
    std::size_t bodies = 0;
    std::size_t cells = 0, leaves = 0, groups = 0;
    int depth = 0;           // deepest level (root 0, at most 21)
    uint64_t body_body = 0;  // body-body interactions evaluated
    uint64_t body_cell = 0;  // body-cell (quadrupole) interactions evaluated
    // Bodies of the groups walked: n for a full evaluation; with block steps' active set, the active bodies
    // and their groups' inactive members, whose lanes the walk spends without a result.
    uint64_t walked_bodies = 0;
    // The last tree was refitted (tree/sub_step_rule.hpp: its cells, key order and groups kept, the multipoles
    // made anew), not built: keys, sort and build then took no time.
    bool refitted = false;
    // Warps each walked group's traversal was cut over (the GPU tree, when few groups are walked; 1: one).
    int walk_split = 1;
    // Seconds per stage of the last evaluation.
    double t_box = 0, t_keys = 0, t_sort = 0, t_build = 0, t_multipoles = 0, t_walk = 0;

    double body_body_per_body() const { return bodies ? double(body_body) / double(bodies) : 0.0; }
    double body_cell_per_body() const { return bodies ? double(body_cell) / double(bodies) : 0.0; }
    double total_seconds() const { return t_box + t_keys + t_sort + t_build + t_multipoles + t_walk; }
};

}  // namespace nbody
