#pragma once
// The Hermite integrators on the CPU (the reference for the GPU engine), one template over the order
// (cpu/hermite_orders.hpp: 4th order, Makino & Aarseth 1992; 6th order, Nitadori & Makino 2008): shared steps
// (every body advances by SimParams::dt) and block steps (each body its own power-of-two step from the order's
// Aarseth criterion with SimParams::eta, at most the largest power of two <= SimParams::dt; the bodies whose
// steps end first form the active set of a block step). Forces on every body predicted to the end of the step.
#include <cstddef>
#include <vector>

#include "core/counters.hpp"
#include "core/backend/integrator_state.hpp"
#include "core/rows/sim_params.hpp"
#include "cpu/block_steps.hpp"
#include "cpu/bodies.hpp"
#include "cpu/cpu_integrator.hpp"
#include "cpu/hermite_orders.hpp"

namespace nbody {

template <class Order>
class HermiteCpu final : public BlockClockIntegrator {
  public:
    // Takes over synchronised bodies: the order's derivatives at their positions (6th order: two force
    // evaluations) and, for block steps, each body's first step (the order's starter, rounded to the block time
    // line). Throws ParamError for a precision the order has no CPU sums in (check_cpu_reach), BackendError
    // ("block step underflow") where a first step would be below 2^-40. The integrator's clock starts at 0.
    void start(Bodies& b, const SimParams& p, int threads, WorkCount& work) override;

    // One shared step of p.dt, or one block step; returns the number of active bodies. A block step
    // underflow throws BackendError after the block step is complete, the body keeping its old step, so the
    // state stays consistent and the caller can pause. `time` stays: the clock below holds the time advanced.
    std::size_t step(Bodies& b, const SimParams& p, int threads, WorkCount& work, double& time) override;

    // Positions and velocities of every body predicted to clock() (exact for bodies whose step ended there,
    // and for all of them where clock() is a multiple of the largest block step).
    void synchronised(const Bodies& b, Bodies& out) const override;

    // Checkpoints: each body's derivatives (jx jy jz; 6th order also sx .. cz), own time (t) and step (dt),
    // and the clock, as they are.
    void export_to(IntegratorState& st) const override;
    // Takes them back for n bodies; throws Error naming a missing or mis-sized array, keeping the old state.
    void import_from(const IntegratorState& st, std::size_t n) override;

  private:
    using Force = typename Order::Force;
    void predict_all(const Bodies& b, double t);
    std::vector<typename Order::Derivatives> m_derivatives;  // at each body's own time, G included
    Bodies m_pred;  // every body predicted to the end of the step (6th order: ax ay az its acceleration too)
    std::vector<Force> m_force;
};

extern template class HermiteCpu<Hermite4Order>;
extern template class HermiteCpu<Hermite6Order>;

}  // namespace nbody
