#pragma once
// The one refusal of every block-step integrator, CPU and GPU alike, when a body's step would fall below the
// time line's floor (core/physics/hermite.hpp's kBlockDtMin).
#include <cstddef>

namespace nbody {

// Throws BackendError "block step underflow" naming body i, its time and the step it wanted.
[[noreturn]] void block_underflow(std::size_t i, double t, double wanted);

}  // namespace nbody
