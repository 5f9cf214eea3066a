// The sub-step rule (sub_step_rule.hpp) and its environment switch.
#include "core/tree/sub_step_rule.hpp"

#include <cstdlib>
#include <cstring>
#include <string>

#include "core/errors.hpp"

namespace nbody::tree {

namespace {

bool rule_switched_off() {
    static const bool off = [] {
        const char* v = std::getenv("NBODY_TREE_REFIT");
        if (!v || !*v || std::strcmp(v, "on") == 0) return false;
        if (std::strcmp(v, "off") == 0) return true;
        throw Error(std::string("NBODY_TREE_REFIT=") + v + ": expected on or off");
    }();
    return off;
}

}  // namespace

bool refits(std::size_t active, std::size_t n) { return !rule_switched_off() && active * kRefitBelow < n; }

bool sums_directly(std::size_t active, std::size_t n) {
    return !rule_switched_off() && active > 0 && active * kDirectBelow <= n &&
           double(active) * double(n) <= kDirectPairs;
}

}  // namespace nbody::tree
