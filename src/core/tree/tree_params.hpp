#pragma once
// The tree code's parameters and what one evaluation reports. Host-only (validate throws).
#include <cstddef>
#include <cstdint>
#include <string>

namespace nbody {

struct TreeParams {
    // Opening angle of Barnes (1994): a group accepts a cell's multipoles when it lies farther than
    // l / theta + delta from the cell's centre of mass. (0, 1.5]; smaller is more accurate and slower.
    // 0.5 meets the accuracy goal (median relative force error <= 3e-4, 99th percentile <= 3e-3 against
    // float64 direct summation on a Plummer sphere) with margin; tests/unit/test_tree_accuracy.cpp prints
    // the figures at 0.3 / 0.5 / 0.7.
    float theta = 0.5f;
    int leaf = 16;   // a cell with more bodies than this is split (until the depth cap): 1..64
    int group = 32;  // consecutive bodies in key order sharing one interaction list: 8..128
    // Opens every cell whatever theta (direct summation through the tree, for tests and comparisons).
    bool open_all = false;

    // Throws ParamError naming the field and its allowed range.
    void validate() const;
};

// "tree theta 0.5 leaf 16 group 32": what the panels and summaries call it; theta_text: "0.5" (3 digits).
std::string tree_label(const TreeParams& p);
std::string theta_text(float theta);

// What one evaluation did. Interactions are the ones actually evaluated (a group's list times its bodies).
struct TreeStats {
    std::size_t bodies = 0;
    std::size_t cells = 0, leaves = 0, groups = 0;
    int depth = 0;           // deepest level (root 0, at most 21)
    uint64_t body_body = 0;  // body-body interactions evaluated
    uint64_t body_cell = 0;  // body-cell (quadrupole) interactions evaluated
    // Seconds per stage of the last evaluation.
    double t_box = 0, t_keys = 0, t_sort = 0, t_build = 0, t_multipoles = 0, t_walk = 0;

    double body_body_per_body() const { return bodies ? double(body_body) / double(bodies) : 0.0; }
    double body_cell_per_body() const { return bodies ? double(body_cell) / double(bodies) : 0.0; }
    double total_seconds() const { return t_box + t_keys + t_sort + t_build + t_multipoles + t_walk; }
};

}  // namespace nbody
