#pragma once
// The 4th-order Hermite integrator on the CPU (the reference for the GPU engine): shared steps (every body
// advances by SimParams::dt) and block steps (each body its own power-of-two step from Aarseth's criterion
// with SimParams::eta, at most the largest power of two <= SimParams::dt; the bodies whose steps end first
// form the active set of a block step). Forces in the precision of SimParams::precision, on the positions
// and velocities of every body predicted to the end of the step.
#include <cstddef>
#include <vector>

#include "core/counters.hpp"
#include "core/integrator_state.hpp"
#include "core/sim_params.hpp"
#include "cpu/bodies.hpp"
#include "cpu/cpu_integrator.hpp"

namespace nbody {

class HermiteCpu final : public CpuIntegrator {
  public:
    // Takes over synchronised bodies: evaluates acceleration and jerk at their positions and, for block
    // steps, each body's first step (initial_step, rounded to the block time line). Throws BackendError
    // ("block step underflow") where a first step would be below 2^-40. The integrator's clock starts at 0.
    void start(Bodies& b, const SimParams& p, int threads, WorkCount& work) override;

    // One shared step of p.dt, or one block step; returns the number of active bodies. A block step
    // underflow throws BackendError after the block step is complete, the body keeping its old step, so the
    // state stays consistent and the caller can pause. `time` stays: the clock below holds the time advanced.
    std::size_t step(Bodies& b, const SimParams& p, int threads, WorkCount& work, double& time) override;

    // Time since start(): block steps advance it to the end of the earliest body step.
    double clock() const override { return m_clock; }

    // Positions and velocities of every body predicted to clock() (exact for bodies whose step ended there,
    // and for all of them where clock() is a multiple of the largest block step).
    void synchronised(const Bodies& b, Bodies& out) const override;

    double block_dt(std::size_t i) const override { return m_dt[i]; }

    // Checkpoints: each body's jerk (jx jy jz), own time (t) and step (dt), and the clock, as they are.
    void export_to(IntegratorState& st) const override;
    // Takes them back for n bodies; throws Error naming a missing or mis-sized array, keeping the old state.
    void import_from(const IntegratorState& st, std::size_t n) override;

  private:
    void predict_all(const Bodies& b, double t);
    std::vector<double> m_jx, m_jy, m_jz;  // jerk at each body's own time, G included
    std::vector<double> m_t, m_dt;         // each body's time and step
    Bodies m_pred;                         // every body predicted to the end of the step
    std::vector<std::size_t> m_active;
    std::vector<hermite::Force> m_force;
    double m_clock = 0;
};

}  // namespace nbody
