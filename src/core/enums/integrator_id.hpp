#pragma once
// The integrators and the schemes they run. In their own header so the parameter block and the other rows can
// name them without including the integrator rows (core/rows/integrator.hpp), which read the method and precision.
namespace nbody {

enum class Integrator {
    LeapFrog,      // kick-drift-kick, 2nd order, symplectic; one shared dt
    Hermite,       // 4th-order Hermite predictor-corrector (Makino & Aarseth 1992), one shared dt
    HermiteBlock,  // the same with individual block (power-of-two) time steps, Aarseth's criterion
    Hermite6,      // 6th-order Hermite (Nitadori & Makino 2008): acceleration, jerk and snap, one shared dt
    Hermite6Block, // the same with block steps and their generalised Aarseth criterion
    LeapFrogBlock, // kick-drift-kick with block (power-of-two) steps, dt_i = eta sqrt(eps / |a_i|)
};

// The arithmetic of a step, which each backend implements once as an engine; integrators of one scheme differ
// only in their row's flags (shared or block steps).
enum class Scheme {
    KickDriftKick,  // accelerations only, one force evaluation a step
    Hermite4,       // acceleration and jerk a pair; predictor to jerk, corrector to crackle's order
    Hermite6,       // acceleration, jerk and snap a pair; predictor to crackle, corrector from a, j, s at both ends
    // Hierarchical kick-drift-kick (GADGET-2, GOTHIC): every body drifts to each block time, the active ones
    // are kicked; a scheme of its own, since a shared-step leap-frog engine would ignore the levels.
    KickDriftKickBlock,
};

constexpr unsigned bit(Integrator i) { return 1u << static_cast<unsigned>(i); }
constexpr unsigned bit(Scheme s) { return 1u << static_cast<unsigned>(s); }

}  // namespace nbody
