#pragma once
// Kick-drift-kick leap-frog on the CPU: one force evaluation a step through the backend's force evaluator,
// on the rows [begin, end) it integrates (all unless the run is distributed over ranks).
#include <vector>

#include "cpu/cpu_forces.hpp"
#include "cpu/cpu_integrator.hpp"

namespace nbody {

class LeapfrogCpu final : public CpuIntegrator {
  public:
    // `partition`: a distributed run's gather (null or empty: every body is this backend's).
    LeapfrogCpu(CpuForces& forces, std::size_t begin, std::size_t end, const RangePartition* partition);
    void start(Bodies& b, const SimParams& p, int threads, WorkCount& work) override;
    std::size_t step(Bodies& b, const SimParams& p, int threads, WorkCount& work, double& time) override;

  private:
    void gather_positions(Bodies& b);  // the other ranks' positions into b

    CpuForces& m_forces;
    std::size_t m_begin, m_end;
    const RangePartition* m_partition;
    std::vector<Double4> m_gather_buf;
};

}  // namespace nbody
