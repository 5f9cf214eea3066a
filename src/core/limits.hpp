#pragma once
// Ranges that mean something physically, shared by every way in: scene files (errors at file:line:column),
// the command line, snapshots, SimParams::validate and the generators themselves (which check again, so a
// caller that skips the reader gets an error, never a hang or a crash). N-body units throughout (G = 1).
//
// Why these numbers. Positions run in float32 on the GPU (24-bit significand, spacing 1.2e-7 of the
// coordinate), masses and accelerations too, so every product the force loop forms must stay inside
// float32's normal range (1.2e-38 to 3.4e38): with lengths in [1e-4, 1e4], masses in [1e-8, 1e8] (a body's
// mass then at least 1e-8 / 2^26 = 1.5e-16) and G in [1e-12, 1e12], G m / r^2 at r = 1e-4 is below 1e32 and
// G m_body / r^2 at r = 1e4 above 1e-36. Subnormal numbers are never meaningful input: they are rejected by
// name wherever a range includes 0.
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

namespace nbody::limits {

// Lengths: scales, radii, cut-offs, orbit distances (length units). A structure must also be resolved by the
// float32 positions where it sits: at least kResolution times its distance from the origin (1e-4 of the
// coordinate is 840 float32 steps across the structure), and not far below the softening: at least
// kSofteningFraction * eps (a cluster 100 times smaller than eps is a point to the force: its bodies all
// feel the same harmonic core and its equilibrium velocities, drawn for unsoftened gravity, fly it apart).
inline constexpr double kMinLength = 1e-4, kMaxLength = 1e4;
inline constexpr double kResolution = 1e-4;
inline constexpr double kSofteningFraction = 0.01;
// Where a component may be placed and how fast it may move (length and velocity units).
inline constexpr double kMaxPosition = 1e6, kMaxSpeed = 1e6;
// A component's total mass (mass units).
inline constexpr double kMinMass = 1e-8, kMaxMass = 1e8;
// G: 1 in N-body units; kpc, km/s and solar masses give 4.3e-6.
inline constexpr double kMinG = 1e-12, kMaxG = 1e12;
// The time step. Time is float64: at t = 1e3 its spacing is 1e-13, so a smaller step is lost in rounding.
inline constexpr double kMinDt = 1e-12, kMaxDt = 1e6;
// Softening: 0 (none) or a length from kMinEps (eps^2 = 1e-18 stays normal in float32) to kMaxLength.
inline constexpr double kMinEps = 1e-9;
// Fading trails: samples kept a body (the --trails flag and a scene's [camera] trails).
inline constexpr int kMinTrailLength = 2, kMaxTrailLength = 4096;

// Non-zero and below the smallest normal double (2.2e-308): never a meaningful input value.
inline bool is_subnormal(double v) {
    return v != 0 && std::abs(v) < std::numeric_limits<double>::min();
}

// "1e-04" -> "1e-4", "1e+30" -> "1e30": a number's text with its exponent's sign kept only when negative and
// its leading zeros dropped; text without an exponent comes back as it is.
inline std::string unpadded_exponent(const std::string& s) {
    const auto e = s.find('e');
    if (e == std::string::npos) return s;
    std::string exp = s.substr(e + 1);
    const bool negative = exp[0] == '-';
    exp.erase(0, exp.find_first_not_of("+-0"));
    return s.substr(0, e + 1) + (negative ? "-" : "") + exp;
}

// Numbers in messages: the shortest text that reads back as v, exponents unpadded (1e-4, 1e30, 1e-320;
// not 9.99988671826e-321 or 1e-04).
inline std::string format_number(double v) {
    // scientific from 1e4 up and below 1e-2, so ranges read alike ("1e-4 to 1e4", not "0.0001 to 10000");
    // between them fixed notation. The fewest digits that read back as v: the same text as floating-point
    // std::to_chars (shortest, scientific or general), which libc++ 14 (the WebAssembly build's) lacks.
    // 17 significant digits always read back, so the loop ends by then (fixed: 19 decimals at |v| >= 1e-2).
    const double a = std::abs(v);
    const bool scientific = a >= 1e4 || (a != 0 && a < 1e-2) || !std::isfinite(v);
    char buf[64];
    for (int digits = 0; digits <= 19; ++digits) {
        std::snprintf(buf, sizeof buf, scientific ? "%.*e" : "%.*f", digits, v);
        if (!std::isfinite(v) || std::strtod(buf, nullptr) == v) break;
    }
    return unpadded_exponent(buf);
}

// Read-outs (the legend's time, the scale bar, measured values, theta in labels): three significant digits at
// most, no trailing zeros: "465", "0.5", "1.2e+04".
inline std::string three_digits(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

// Counts in read-outs: 1048576 -> "1,048,576".
inline std::string with_commas(std::size_t n) {
    const std::string digits = std::to_string(n);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

}  // namespace nbody::limits
