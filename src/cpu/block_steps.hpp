#pragma once
// What the CPU's block-step integrators (4th- and 6th-order Hermite, leap-frog) share about steps: the
// largest block step, the active set of the next step, first and next steps, and the underflow refusal.
#include <cstddef>
#include <vector>

#include "core/block_underflow.hpp"
#include "core/sim_params.hpp"

namespace nbody {

// The largest block step: the power of two at or below SimParams::dt.
double block_dt_max(const SimParams& p);

// The active set of the next step from each body's time t[i] and step dt[i]: block steps, the bodies whose
// steps end first (returns that time); shared steps, every body, each dt[i] set to p.dt (returns clock + p.dt).
// No bodies: none active, and the clock still moves, by the largest step.
double next_active(const SimParams& p, double clock, const std::vector<double>& t, std::vector<double>& dt,
                   std::vector<std::size_t>& active);

// Body i's first step (it has no old one) where it wants `want`: the power of two at or below both want and
// dt_max (hermite::block_step's rules); throws block_underflow for it at t = 0 where that is below the floor.
double first_block_step(std::size_t i, double want, double dt_max);

// Each active body's next block step after a block step ending at t (hermite::block_step's rules). A body
// whose step would be below the floor keeps its old one (still on the time line) and the first such is
// refused by finish(), once the block step is complete, so the state stays consistent.
class BlockStepUpdate {
  public:
    BlockStepUpdate(const SimParams& p, double t) : m_dt_max(block_dt_max(p)), m_t(t) {}
    void next(std::size_t i, double want, double& dt);
    void finish() const;  // throws block_underflow for the first body refused, if any

  private:
    double m_dt_max, m_t;
    long m_bad = -1;
    double m_bad_want = 0;
};

}  // namespace nbody
