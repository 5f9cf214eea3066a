#pragma once
// Settings from the environment, checked: the GRAPE-6 and Sapporo2 libraries read their sizes, device and
// precision this way (a C caller has no other channel for them), with one message shape for a bad value.
#include <cstdlib>
#include <initializer_list>
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

// One of `words`: leaves `out` alone where `name` is unset or empty; otherwise takes the value, or sets `error`
// to "NAME=value: expected a, b or c" and returns false.
inline bool env_word(const char* name, std::initializer_list<const char*> words, std::string& out,
                     std::string& error) {
    const char* s = std::getenv(name);
    if (!s || !*s) return true;
    std::string expected;
    std::size_t k = 0;
    for (const char* w : words) {
        if (std::string(w) == s) {
            out = s;
            return true;
        }
        if (k > 0) expected += k + 1 == words.size() ? " or " : ", ";
        expected += w;
        ++k;
    }
    error = std::string(name) + "=" + s + ": expected " + expected;
    return false;
}

// The libraries' device choice: auto (CUDA where built and a device works, else the CPU), cpu or cuda.
inline bool env_device(const char* name, std::string& out, std::string& error) {
    return env_word(name, {"auto", "cpu", "cuda"}, out, error);
}

}  // namespace nbody
