#pragma once
// What the CPU's block-step integrators (4th- and 6th-order Hermite, leap-frog) share about steps: the
// largest block step, the active set of the next step, first and next steps, the underflow refusal, and the
// clock (each body's time and step) with its checkpoint arrays.
#include <cstddef>
#include <vector>

#include "core/physics/block_underflow.hpp"
#include "core/backend/integrator_state.hpp"
#include "core/rows/sim_params.hpp"
#include "cpu/cpu_integrator.hpp"

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

// The time line of an integrator whose bodies may each have their own step: body i's step runs from t(i) to
// t(i) + dt(i), and the clock is the time the integrator has reached. Under shared steps every dt(i) is the
// shared step once a step has been taken (0 before). One copy serves the Hermite orders and the block leap-frog.
class BlockClock {
  public:
    // n bodies at time 0 with no step yet, every one of them active (the first force evaluation's rows).
    void start(std::size_t n);
    // The active set of the next step (next_active); returns the time that step ends at.
    double next(const SimParams& p) { return next_active(p, m_clock, m_t, m_dt, m_active); }
    // Closes the step: the clock moves to t_next (the active bodies' own times are set by finish_body).
    void advance(double t_next) { m_clock = t_next; }
    void finish_body(std::size_t i, double t_next) { m_t[i] = t_next; }

    double clock() const { return m_clock; }
    double t(std::size_t i) const { return m_t[i]; }
    double dt(std::size_t i) const { return m_dt[i]; }
    double& dt(std::size_t i) { return m_dt[i]; }
    const std::vector<std::size_t>& active() const { return m_active; }

    // Checkpoints: arrays t and dt and the scalar clock, as they are.
    void export_to(IntegratorState& st) const;
    // The clock of a checkpoint for n bodies, no body active; throws Error naming a missing or mis-sized entry.
    static BlockClock from_state(const IntegratorState& st, std::size_t n);
    // Throws Error naming the first body whose step (t, dt) does not hold the clock (t <= clock <= t + dt, dt > 0).
    void check_steps_hold_clock() const;

  private:
    std::vector<double> m_t, m_dt;
    std::vector<std::size_t> m_active;
    double m_clock = 0;
};

// A CPU integrator whose time line is a BlockClock: the clock and each body's step are read from it.
class BlockClockIntegrator : public CpuIntegrator {
  public:
    // Time since start(): block steps advance it to the end of the earliest body step.
    double clock() const override { return m_steps.clock(); }
    double block_dt(std::size_t i) const override { return m_steps.dt(i); }

  protected:
    BlockClock m_steps;
};

}  // namespace nbody
