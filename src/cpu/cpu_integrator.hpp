#pragma once
// What the CPU backend asks of an integrator (one class per scheme of core/rows/integrator.hpp, as the GPU engines
// are): start on synchronised bodies, step, the time it has advanced, the bodies synchronised to one time,
// and its own state for checkpoints. The backend keeps the bodies; the integrator keeps whatever else it needs.
#include <cstddef>
#include <memory>

#include "core/counters.hpp"
#include "core/backend/backend.hpp"
#include "core/backend/integrator_state.hpp"
#include "core/rows/sim_params.hpp"
#include "cpu/bodies.hpp"

namespace nbody {

class CpuForces;

class CpuIntegrator {
  public:
    virtual ~CpuIntegrator() = default;
    // Takes over synchronised bodies: the first force evaluation (and, block steps, each body's first step).
    // Throws ParamError or BackendError, the bodies' positions and velocities untouched. The clock starts at 0.
    virtual void start(Bodies& b, const SimParams& p, int threads, WorkCount& work) = 0;
    // One step (one block step); returns the bodies it advanced. `time` is the backend's time at start:
    // an integrator without a clock of its own advances it (one rounding a step, as the GPU engines do).
    virtual std::size_t step(Bodies& b, const SimParams& p, int threads, WorkCount& work, double& time) = 0;
    // Time advanced since start beyond what step() added to `time`.
    virtual double clock() const { return 0; }
    // Every body's position and velocity at the integrator's time (a copy of b where they already are).
    virtual void synchronised(const Bodies& b, Bodies& out) const { out = b; }
    // Block steps: body i's current step (a power of two); 0 for shared steps.
    virtual double block_dt(std::size_t) const { return 0; }
    // Checkpoints: its state beyond the bodies, and back for n bodies (throws Error naming a missing array).
    virtual void export_to(IntegratorState&) const {}
    virtual void import_from(const IntegratorState&, std::size_t) {}
};

// ParamError for what the CPU has no code for (a method without an evaluator in cpu/cpu_force_evaluator.hpp's
// table; hermite6 in a precision other than fp64), naming the backend and what it refuses.
void check_cpu_reach(const SimParams& p);

// The CPU's integrator for p's scheme; the leap-frog one evaluates forces through `forces` on rows
// [begin, end) (all unless partitioned), calling `gather` between its drift and its force evaluation.
std::unique_ptr<CpuIntegrator> make_cpu_integrator(const SimParams& p, CpuForces& forces, std::size_t begin,
                                                   std::size_t end, const RangePartition* partition);

}  // namespace nbody
