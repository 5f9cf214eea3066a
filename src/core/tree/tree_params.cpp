#include "core/tree/tree_params.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "core/errors.hpp"
#include "core/limits.hpp"

namespace nbody {

void TreeParams::validate() const {
    if (!(std::isfinite(theta) && theta > 0.0f && theta <= 1.5f))
        throw ParamError("theta", "must be > 0 and <= 1.5 (got " + limits::format_number(theta) + ")");
    if (leaf < 1 || leaf > 64)
        throw ParamError("leaf", "must be 1 to 64 bodies (got " + std::to_string(leaf) + ")");
    if (group < 8 || group > 128)
        throw ParamError("group", "must be 8 to 128 bodies (got " + std::to_string(group) + ")");
}

std::string theta_text(float theta) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", double(theta));
    return buf;
}

std::string tree_label(const TreeParams& p) {
    return "tree theta " + theta_text(p.theta) + " leaf " + std::to_string(p.leaf) + " group " +
           std::to_string(p.group);
}

}  // namespace nbody
