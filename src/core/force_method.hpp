#pragma once
// The force method: how the accelerations are found, an axis above the kernel family. Direct summation runs
// through the kernel families of core/kernel_family.hpp; the tree code (src/cpu/tree, cuda/tree) has one
// implementation per backend and its own parameter block (SimParams::tree: opening angle, leaf and group
// sizes). What each method runs with is checked in one place, validate() in core/sim_params.cpp.
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

#include "core/named_enum.hpp"

namespace nbody {

enum class ForceMethod {
    Direct,  // every pair (i, j) evaluated: N^2 body-body interactions a step
    Tree,    // Barnes-Hut octree, quadrupole cells: about N log N interactions a step (leap-frog, fp32)
};
const std::array<NamedValue<ForceMethod>, 2>& method_table();
std::optional<ForceMethod> parse_method(std::string_view s);  // "direct", "tree"
std::string_view method_name(ForceMethod m);

// The work of one force evaluation over n bodies, as the method does it. `body_body` and `body_cell` are the
// interactions actually evaluated (a tree: body-body in the leaves, body-cell for the accepted cells; direct:
// N^2 and 0); `equivalent_direct` is what direct summation would have evaluated (N^2), kept apart so a method's
// rate is never N^2 / time in disguise.
struct StepWork {
    double body_body = 0;
    double body_cell = 0;
    double equivalent_direct = 0;
    double evaluated() const { return body_body + body_cell; }
};

// Direct summation: N^2 body-body interactions (the self term included; softening makes it zero).
inline StepWork direct_work(std::size_t n) {
    const double n2 = static_cast<double>(n) * static_cast<double>(n);
    return {n2, 0.0, n2};
}

}  // namespace nbody
