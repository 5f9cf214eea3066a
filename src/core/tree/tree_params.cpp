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
    if (!(std::isfinite(alpha) && alpha >= 0.0f && alpha <= 1.0f))
        throw ParamError("alpha", "must be >= 0 and <= 1, 0 for off (got " + limits::format_number(alpha) + ")");
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

std::string opening_text(const TreeParams& p) {
    std::string s = "theta " + theta_text(p.theta);
    if (p.alpha > 0) s += " alpha " + theta_text(p.alpha);
    return s;
}

std::string tree_label(const TreeParams& p) {
    return "tree " + opening_text(p) + " leaf " + std::to_string(p.leaf) + " group " + std::to_string(p.group);
}

}  // namespace nbody
