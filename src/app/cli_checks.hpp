#pragma once
// Command-line value checks with plain messages ("must be > 0 and finite (got -1)"); CLI11 2.1's own
// PositiveNumber prints its range as a 300-digit number.
#include <cmath>
#include <string>

#include <CLI/CLI.hpp>

namespace nbody {

inline CLI::Validator real_at_least(double lo, bool strict) {
    const std::string what = std::string("must be ") + (strict ? "> " : ">= ") + CLI::detail::to_string(lo) +
                             " and finite";
    return CLI::Validator(
        [=](std::string& text) -> std::string {
            double v = 0;
            try {
                std::size_t used = 0;
                v = std::stod(text, &used);
                if (used != text.size()) return "expected a number (got '" + text + "')";
            } catch (const std::exception&) {
                return "expected a number (got '" + text + "')";
            }
            if (!std::isfinite(v) || v < lo || (strict && v == lo)) return what + " (got " + text + ")";
            return {};
        },
        strict ? "> " + CLI::detail::to_string(lo) : ">= " + CLI::detail::to_string(lo));
}

inline const CLI::Validator kPositive = real_at_least(0.0, true);
inline const CLI::Validator kNonNegative = real_at_least(0.0, false);

}  // namespace nbody
