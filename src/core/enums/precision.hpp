#pragma once
// The force evaluation's arithmetic: an axis of SimParams, in its own header so the integrator, method and
// kernel-family rows can name precisions without including the parameter block that includes them.
#include <array>
#include <optional>
#include <string_view>

#include "core/named_enum.hpp"

namespace nbody {

// The arithmetic of the force evaluation, an axis beside the kernel variant.
enum class Precision {
    Fp32,  // positions, differences and sums in float32
    DS,    // positions kept in double; x_j - x_i formed in double-single and rounded to float (Sapporo2)
    Fp64,  // everything in IEEE double
};
const std::array<NamedValue<Precision>, 3>& precision_table();
std::optional<Precision> parse_precision(std::string_view s);  // "fp32", "ds", "fp64"
std::string_view precision_name(Precision p);
constexpr unsigned bit(Precision p) { return 1u << static_cast<unsigned>(p); }
inline constexpr unsigned kAllPrecisions = bit(Precision::Fp32) | bit(Precision::DS) | bit(Precision::Fp64);

}  // namespace nbody
