#pragma once
// A whole-number setting from the environment, checked against its range: the GRAPE-6 and Sapporo2
// libraries read their sizes this way (a C caller has no other channel for them).
#include <cstdlib>
#include <string>

namespace nbody {

// Leaves `out` alone where `name` is unset or empty; otherwise parses it, or sets `error` to a message that
// names the variable, its value and the allowed range and returns false.
inline bool env_int(const char* name, int lo, int hi, int& out, std::string& error) {
    const char* s = std::getenv(name);
    if (!s || !*s) return true;
    char* end = nullptr;
    const long v = std::strtol(s, &end, 10);
    if (*end || v < lo || v > hi) {
        error = std::string(name) + "=" + s + ": expected a whole number from " + std::to_string(lo) +
                " to " + std::to_string(hi);
        return false;
    }
    out = int(v);
    return true;
}

}  // namespace nbody
