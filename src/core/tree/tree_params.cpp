#include "core/tree/tree_params.hpp"

#include <cmath>
#include <string>

#include "core/limits.hpp"

namespace nbody {

std::string theta_text(float theta) { return limits::three_digits(theta); }

std::string opening_text(const TreeParams& p) {
    std::string s = "theta " + theta_text(p.theta);
    if (p.alpha > 0) s += " alpha " + theta_text(p.alpha);
    return s;
}

std::string tree_label(const TreeParams& p) {
    return "tree " + opening_text(p) + " leaf " + std::to_string(p.leaf) + " group " + std::to_string(p.group);
}

}  // namespace nbody
