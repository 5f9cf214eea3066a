#include "app/potential_note.hpp"

#include "core/limits.hpp"
#include "core/tree/tree_params.hpp"

namespace nbody {

namespace {

// 1e-4 -> "0.01%".
std::string percent(double fraction) {
    return limits::three_digits(100 * fraction) + "%";
}

const char* const kRefresh = ", summed again at most once a second and for at most a quarter of the time";

}  // namespace

std::string potential_note(std::size_t n) {
    using potential_view::kExactMax, potential_view::kTreeMax;
    const std::string bodies = std::to_string(n) + " bodies";
    if (n == 0) return "no bodies";
    if (n <= kExactMax) return "exact sum over every pair of the " + bodies + kRefresh;
    if (n <= kTreeMax) {
        return "tree estimate for the " + bodies + " (the exact sum is made up to " +
               std::to_string(kExactMax) + "): Barnes-Hut, theta " + theta_text(potential_view::kTreeTheta) +
               ", cells to quadrupole order; measured against the exact sum, " +
               "the median body's error is below " + percent(potential_view::kTreeMedianError) +
               " and the largest below " + percent(potential_view::kTreeMaxError) + kRefresh;
    }
    return "not shown: the potential is summed exactly up to " + std::to_string(kExactMax) +
           " bodies and estimated by the CPU tree up to " + std::to_string(kTreeMax) +
           ", which takes about " + limits::three_digits(potential_view::kTreeMaxSecondsOnTwoCores) +
           " s on two CPU cores (this scene has " + std::to_string(n) +
           "); bodies keep their component colours";
}

}  // namespace nbody
