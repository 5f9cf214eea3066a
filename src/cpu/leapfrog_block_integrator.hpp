#pragma once
// Kick-drift-kick leap-frog with individual block (power-of-two) time steps on the CPU, hierarchical as in
// GADGET-2 and GOTHIC: each block step every body drifts to the new block time; the bodies whose steps end
// there (the active set) get their accelerations from every body's drifted position (direct: their rows; the
// tree: built on the drifted positions, walked for their groups only), close their step with a half kick,
// choose their next step (core/physics/leapfrog.hpp's block_leapfrog_step on the block time line of block_steps.hpp)
// and open it with a half kick at the start of the next block step. With every body on one level it is the
// shared-step leap-frog, operation for operation. Work: active x N pairs a block step at the leap-frog's 20
// flops a pair (NVIDIA's count, kFlopsPerInteractionNvidia), or the tree's walked lists for the active
// bodies. Energy: on fixed levels the error oscillates, bounded, as the shared leap-frog's does; each change
// of level (a step chosen at its start, not time-symmetrically) moves a body to another step's shadow energy,
// so where bodies change level often the error grows with time. A body doubles its step only when the
// criterion asks for 1.25 times the doubled step (core/physics/leapfrog.hpp's held_leapfrog_want): on Milky
// Way-Andromeda at 2M bodies that cut the energy error at t = 40 from 3.6e-3 to 3.7e-4 (eta 0.4) and from
// 3.7e-4 to 5.6e-5 (eta 0.3). 2,048 Plummer bodies, eps 0.01, largest step
// 1/128, eta 0.1 (1% of them on 1/256), t = 0.75: 1.8e-4 with 1,214 level changes, 2.3e-5 with the levels
// held, 3.5e-5 for the shared step.
#include <cstddef>
#include <vector>

#include "cpu/block_steps.hpp"
#include "cpu/cpu_forces.hpp"
#include "cpu/cpu_integrator.hpp"

namespace nbody {

class LeapfrogBlockCpu final : public BlockClockIntegrator {
  public:
    explicit LeapfrogBlockCpu(CpuForces& forces) : m_forces(forces) {}

    // Every body's acceleration and first step. Throws BackendError ("block step underflow") naming the first
    // body whose step would be below 2^-40, positions and velocities untouched. The clock starts at 0.
    void start(Bodies& b, const SimParams& p, int threads, WorkCount& work) override;

    // One block step; returns the active bodies. A step underflow throws BackendError once the block step is
    // complete, the body keeping its old step, so the state stays consistent. `time` stays: clock() advances.
    // A body has had its opening half kick iff its step started before the clock (m_steps.t(i) < clock()).
    std::size_t step(Bodies& b, const SimParams& p, int threads, WorkCount& work, double& time) override;

    // Positions are every body's at clock() already; a body inside its step has its velocity estimated from
    // the half-kicked one (v - a dt/2 + a (clock - t)); exact for the bodies whose step ended at clock().
    void synchronised(const Bodies& b, Bodies& out) const override;

    // Checkpoints: each body's step start (t) and step (dt), and the clock. A body inside its step carries
    // its half-kicked velocity in the bodies' own arrays, so those and these resume bit for bit.
    void export_to(IntegratorState& st) const override;
    void import_from(const IntegratorState& st, std::size_t n) override;

  private:
    CpuForces& m_forces;
};

}  // namespace nbody
