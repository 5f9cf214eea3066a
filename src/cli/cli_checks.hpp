#pragma once
// Command-line value checks with plain messages ("--dt: must be from 1e-12 to 1e6 (got -1)"); CLI11 2.1's
// own PositiveNumber prints its range as a 300-digit number, and its Range lets NaN through (every comparison
// with NaN is false) and reads "010" as octal.
#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "core/limits.hpp"
#include "core/rows/sim_params.hpp"

namespace nbody {

namespace cli_detail {
// The whole of `text` as a double, or an empty optional for anything else (trailing junk, empty, a number
// beyond any double). strtod's spellings of NaN ("nan", "NAN", "-nan", "nan(0x1)") and infinity ("inf",
// "Infinity", "-INF") come back as NaN and infinity for the range check to refuse; subnormals come back as
// themselves and every range here excludes them (core/limits.hpp).
inline std::optional<double> parse_real(const std::string& text) {
    if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size()) return std::nullopt;
    // strtod also reads hexadecimal ("0x1p-3"); nobody types a time step that way (NaN payloads keep theirs)
    if (std::isfinite(v) && text.find_first_of("xX") != std::string::npos) return std::nullopt;
    if (errno == ERANGE && std::abs(v) > 1.0) return std::nullopt;  // overflow: strtod returned +-HUGE_VAL
    return v;
}

}  // namespace cli_detail

// A real number from lo to hi; with zero_ok, 0 too ("must be 0 or from ..."). NaN, infinities, overflow and
// subnormals each get a message that says what was wrong.
inline CLI::Validator real_in(double lo, double hi, bool zero_ok = false) {
    const std::string range =
        (zero_ok ? "0 or from " : "from ") + limits::format_number(lo) + " to " + limits::format_number(hi);
    return CLI::Validator(
        [=](std::string& text) -> std::string {
            const std::optional<double> v = cli_detail::parse_real(text);
            if (!v) return "expected a number " + range + " (got '" + text + "')";
            if (std::isnan(*v)) return "must be " + range + " (got '" + text + "', not a number)";
            if (!(*v >= lo && *v <= hi) && !(zero_ok && *v == 0))
                return "must be " + range + " (got " + text + ")";
            return {};
        },
        range);
}

// A whole number from lo to hi, written in decimal. Leading zeros are dropped first: CLI11 reads integers
// with strtoll base 0, so "010" would otherwise be octal 8 and "0x10" 16. It rewrites the text, so it goes
// in ->transform(), not ->check() (CLI11 runs checks on a copy).
inline CLI::Validator integer_in(long long lo, long long hi) {
    const std::string range = "a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
    return CLI::Validator(
        [=](std::string& text) -> std::string {
            const bool neg = !text.empty() && text[0] == '-';
            std::string digits = text.substr(neg || (!text.empty() && text[0] == '+') ? 1 : 0);
            if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
                return "expected " + range + " (got '" + text + "')";
            digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size() - 1));
            const long long v =
                digits.size() > 18 ? (neg ? LLONG_MIN : LLONG_MAX) : std::stoll(digits) * (neg ? -1 : 1);
            if (v < lo || v > hi) return "must be " + range + " (got " + text + ")";
            text = (neg ? "-" : "") + digits;
            return {};
        },
        std::to_string(lo) + ".." + std::to_string(hi));
}

// >= lo (or > lo when strict) and finite: kept for nbody-bench's --eta and --eps.
inline CLI::Validator real_at_least(double lo, bool strict) {
    const std::string what =
        std::string("must be ") + (strict ? "> " : ">= ") + limits::format_number(lo) + " and finite";
    return CLI::Validator(
        [=](std::string& text) -> std::string {
            const std::optional<double> v = cli_detail::parse_real(text);
            if (!v) return "expected a number (got '" + text + "')";
            if (!std::isfinite(*v) || *v < lo || (strict && *v == lo)) return what + " (got " + text + ")";
            return {};
        },
        strict ? "> " + limits::format_number(lo) : ">= " + limits::format_number(lo));
}

inline const CLI::Validator kPositive = real_at_least(0.0, true);
inline const CLI::Validator kNonNegative = real_at_least(0.0, false);

// --gpus: "all" or a whole number from 1 to kMaxGpus.
inline CLI::Validator gpu_count_check() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            if (text == "all") return {};
            const std::string what =
                "a GPU count from 1 to " + std::to_string(kMaxGpus) + ", or 'all' (got '" + text + "')";
            if (text.empty() || text.size() > 3 || text.find_first_not_of("0123456789") != std::string::npos)
                return "expected " + what;
            const int v = std::stoi(text);
            if (v < 1 || v > kMaxGpus) return "expected " + what;
            return {};
        },
        "1.." + std::to_string(kMaxGpus) + "|all");
}

// --variant: auto plus every family's name and alias, from the family table.
inline std::vector<std::string> variant_choices() {
    std::vector<std::string> out{"auto"};
    for (std::string& name : family_names()) out.push_back(std::move(name));
    return out;
}

}  // namespace nbody
