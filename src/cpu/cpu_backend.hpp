#pragma once
// The CPU backend: the numerical reference for the CUDA kernels and the fallback where no NVIDIA GPU is
// present. The state is float64 (structure of arrays). A force evaluator (cpu_forces: direct summation in
// the precision asked, or the CPU tree) and one integrator per scheme (cpu_integrator: leap-frog with shared
// or block steps, 4th- and 6th-order Hermite with shared or block steps) share the bodies, as the GPU engines
// split. Every core is used.
#include <memory>
#include <vector>

#include "core/backend/backend.hpp"
#include "cpu/bodies.hpp"
#include "cpu/cpu_forces.hpp"
#include "cpu/cpu_integrator.hpp"

namespace nbody {

class CpuBackend final : public Backend {
  public:
    explicit CpuBackend(int threads = 0);

    std::string name() const override;
    BackendCaps caps() const override { return {}; }
    void reset(const State& s, const SimParams& p) override;
    // hermite6 and hermite6-block in a precision other than fp64 (check_cpu_reach's words).
    std::string refusal(const SimParams& p) const override;
    // Switching precision, integrator, eps, G or eta (or dt under hermite-block) keeps the particles (block
    // steps: predicted to the current time) and restarts the integrator on them.
    void set_params(const SimParams& p) override;
    const SimParams& params() const override { return m_params; }
    // k leap-frog or shared Hermite steps, or k block steps. A block step underflow throws BackendError with
    // the state kept (the simulation pauses on it).
    void step(int k) override;
    void read_state(State& out) override;
    // Block steps: each body's acceleration at the end of its own last step (all at one time right after a
    // reset or set_params).
    void read_accelerations(std::vector<Double4>& out) override;
    void copy_positions_to_host(Float4* dst) override;
    // The rows alone, each body where its own step ended (block steps: no prediction of all N to one time).
    void read_bodies_of(const std::vector<std::size_t>& rows, std::vector<Double4>& pos_mass,
                        std::vector<Double4>& vel) override;
    void read_accelerations_of(const std::vector<std::size_t>& rows, std::vector<Double4>& out) override;
    std::string kernel_label() const override;
    // Tree cells: the CPU tree of the last evaluation (at the current positions). Block levels: every body's
    // step (block_dt) on the levels below block_dt_max, and the last block step's active count (0 before the
    // first since a reset or restart); none under shared steps.
    void read_out(const ReadoutAsk& ask, Readouts& out) override;
    WorkCount work() const override { return m_work; }
    // Distributed runs: leap-frog in fp32 on rows [begin, end) (the others refused at reset with the reason).
    bool set_partition(RangePartition p) override;
    std::size_t size() const override { return m_bodies.size(); }
    double time() const override;
    long long steps_taken() const override { return m_steps; }
    void set_steps_taken(long long n) override { m_steps = n; }
    // cpu_backend_state.cpp: the float64 bodies, accelerations, groups, the time and the integrator's state
    // (block steps, Hermite); import takes the same back (the accelerations are not re-evaluated).
    bool export_state(IntegratorState& st) override;
    void import_state(const IntegratorState& st, const SimParams& p, long long steps) override;

    int threads() const { return m_threads; }
    // Block steps: the current step of body i (a power of two); 0 under shared steps.
    double block_dt(std::size_t i) const;

  private:
    void prime();        // a new integrator for m_params started on the bodies (the first evaluation)
    void synchronise();  // every body at the integrator's time, the time carried into m_time

    std::size_t m_begin = 0, m_end = 0;  // the rows this backend integrates (all unless partitioned)
    RangePartition m_partition;

    int m_threads;
    SimParams m_params;
    Bodies m_bodies;
    CpuForces m_forces;
    std::unique_ptr<CpuIntegrator> m_integrator;
    std::vector<uint32_t> m_group;
    WorkCount m_work;
    std::size_t m_last_active = 0;  // bodies the last step advanced (0 before the first since prime)
    double m_time = 0;  // the time at the integrator's start, plus what its steps added (time() adds its clock)
    long long m_steps = 0;
};

}  // namespace nbody
