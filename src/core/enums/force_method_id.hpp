#pragma once
// The force method's values: how the accelerations are found. In its own header so the parameter block and
// the other rows can name methods without including the method rows (core/rows/force_method.hpp), which read them.
namespace nbody {

enum class ForceMethod {
    Direct,  // every pair (i, j) evaluated: N^2 body-body interactions a step
    Tree,    // Barnes-Hut octree, quadrupole cells: about N log N interactions a step (leap-frog, fp32)
};
constexpr unsigned bit(ForceMethod m) { return 1u << static_cast<unsigned>(m); }

}  // namespace nbody
