#pragma once
// Command-line value checks with plain messages ("must be > 0 and finite (got -1)"); CLI11 2.1's own
// PositiveNumber prints its range as a 300-digit number.
#include <cmath>
#include <string>

#include <CLI/CLI.hpp>

#include "core/sim_params.hpp"

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

// --gpus: "all" or a whole number from 1 to kMaxGpus.
inline CLI::Validator gpu_count_check() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            if (text == "all") return {};
            const std::string what = "a GPU count from 1 to " + std::to_string(kMaxGpus) + ", or 'all' (got '" + text + "')";
            if (text.empty() || text.size() > 3 || text.find_first_not_of("0123456789") != std::string::npos) return "expected " + what;
            const int v = std::stoi(text);
            if (v < 1 || v > kMaxGpus) return "expected " + what;
            return {};
        },
        "1.." + std::to_string(kMaxGpus) + "|all");
}

// --variant: auto plus every variant's short and long name.
inline std::vector<std::string> variant_choices() {
    std::vector<std::string> out{"auto", "i", "ij"};
    for (const VariantInfo& v : variant_table()) out.emplace_back(v.name);
    return out;
}

}  // namespace nbody
