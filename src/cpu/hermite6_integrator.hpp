#pragma once
// The 6th-order Hermite integrator on the CPU (Nitadori & Makino 2008; the reference for a GPU engine): shared
// steps (every body advances by SimParams::dt) and block steps (each body its own power-of-two step from the
// generalised Aarseth criterion with SimParams::eta, at most the largest power of two <= SimParams::dt; the
// bodies whose steps end first form the active set of a block step). Forces in float64 only (fp64), on the
// positions, velocities and accelerations of every body predicted to crackle to the end of the step.
#include <cstddef>
#include <vector>

#include "core/counters.hpp"
#include "core/hermite6.hpp"
#include "core/integrator_state.hpp"
#include "core/sim_params.hpp"
#include "cpu/bodies.hpp"
#include "cpu/cpu_integrator.hpp"

namespace nbody {

class Hermite6Cpu final : public CpuIntegrator {
  public:
    // Takes over synchronised bodies: acceleration and jerk, then snap from them (two force evaluations; the
    // crackle of the first predictor is zero) and, block steps, each body's first step (initial_step6 on the
    // block time line). Throws ParamError for a precision other than fp64, BackendError ("block step
    // underflow") where a first step would be below 2^-40. The clock starts at 0.
    void start(Bodies& b, const SimParams& p, int threads, WorkCount& work) override;

    // One shared step of p.dt, or one block step; returns the number of active bodies. A block step underflow
    // throws BackendError after the block step is complete, the body keeping its old step.
    std::size_t step(Bodies& b, const SimParams& p, int threads, WorkCount& work, double& time) override;

    double clock() const override { return m_clock; }

    // Every body's position and velocity predicted (to crackle) to clock().
    void synchronised(const Bodies& b, Bodies& out) const override;

    double block_dt(std::size_t i) const override { return m_dt[i]; }

    // Checkpoints: jerk, snap and crackle (jx .. cz), own time (t) and step (dt), the clock, as they are.
    void export_to(IntegratorState& st) const override;
    // Takes them back for n bodies; throws Error naming a missing or mis-sized array, keeping the old state.
    void import_from(const IntegratorState& st, std::size_t n) override;

  private:
    void predict_all(const Bodies& b, double t);
    void sum_forces(const Bodies& at, const SimParams& p, int threads);
    std::vector<hermite6::D3> m_jerk, m_snap, m_crackle;  // at each body's own time, G included
    std::vector<double> m_t, m_dt;                         // each body's time and step
    Bodies m_pred;  // every body predicted to the end of the step (ax ay az: its predicted acceleration)
    std::vector<std::size_t> m_active;
    std::vector<hermite6::Force6> m_force;
    double m_clock = 0;
};

}  // namespace nbody
