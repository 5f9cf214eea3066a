#include "core/tree/tree_params.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "core/errors.hpp"
#include "core/param_registry.hpp"
#include "core/sim_params.hpp"

namespace nbody {

void TreeParams::validate() const {
    SimParams p;
    p.tree = *this;
    for (const ParamSpec& spec : param_registry())
        if (spec.methods & bit(ForceMethod::Tree)) check_param(spec, spec.get(p));
}

std::string theta_text(float theta) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", double(theta));
    return buf;
}

std::string opening_text(const TreeParams& p) {
    std::string s = "theta " + theta_text(p.theta);
    if (p.alpha > 0) s += " alpha " + theta_text(p.alpha);
    return s;
}

std::string tree_label(const TreeParams& p) {
    return "tree " + opening_text(p) + " leaf " + std::to_string(p.leaf) + " group " + std::to_string(p.group);
}

}  // namespace nbody
