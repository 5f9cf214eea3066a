#pragma once
// What colour by potential shows, and the words that say so. Up to kExactMax bodies the exact float64 sum
// over every pair (core/diagnostics body_potentials); above it, up to kTreeMax, the CPU tree's estimate
// (CpuTree::potentials: Barnes's test at kTreeTheta, cells to quadrupole order). The accuracy the note states
// is what tests/unit/cpu/tree/test_tree_potential.cpp measures against the exact sum, and asserts: a change
// that makes the estimate worse than the words say fails there.
#include <cstddef>
#include <string>

namespace nbody::potential_view {

inline constexpr std::size_t kExactMax = 16384;
// The tree's opening angle, Barnes's test alone (the acceleration criterion needs accelerations): the
// potential is smoother than the force, and at 0.6 its error stays far below one step of a 256-entry colour
// ramp (0.4% of its range) at about 2,900 terms a body; 0.5 would cost more for digits no colour shows.
inline constexpr float kTreeTheta = 0.6f;
// The errors the note states, bounds on the relative error |phi_tree - phi_exact| / |phi_exact|: the median
// body's and the largest. Measured at theta 0.6 on a Plummer sphere, galaxy-flyby and the Cartwheel at 4,096
// bodies, and on 1,000 sampled bodies at 131,072 of every many-body scene and at cartwheel-1m's and
// milky-way-andromeda's full 1,048,576 and 2,097,152 (600 sampled):
// medians 1.3e-5 to 4.8e-5, the largest 3.0e-4 (test_tree_potential.cpp asserts these bounds).
inline constexpr double kTreeMedianError = 1e-4;
inline constexpr double kTreeMaxError = 1e-3;
// The largest scene's N (milky-way-andromeda): one estimate of it took about 8 s on two CPU cores, so the
// values refresh about every half minute there (PotentialFeed::kDutyFactor); beyond it nothing is shown.
inline constexpr std::size_t kTreeMax = 2097152;
inline constexpr double kTreeMaxSecondsOnTwoCores = 8;  // what the note says a refresh at kTreeMax takes

}  // namespace nbody::potential_view

namespace nbody {

// The words for a scene of n bodies: what is shown, or why nothing is (pure, for the tests).
std::string potential_note(std::size_t n);

}  // namespace nbody
