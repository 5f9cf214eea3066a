#pragma once
// The CPU backend: the numerical reference for the CUDA kernels and the fallback where no NVIDIA GPU is
// present. The state is float64 (structure of arrays); the force sums run in the precision of
// SimParams::precision (fp32: the vectorised float32 loop of force_f32; ds and fp64: force_modes), the
// integrator is leap-frog or Hermite (shared or block steps, hermite_integrator), or with method tree
// leap-frog over the CPU tree's forces (cpu/tree). Every core is used.
#include <memory>
#include <vector>

#include "core/backend.hpp"
#include "cpu/bodies.hpp"
#include "cpu/hermite_integrator.hpp"
#include "cpu/tree/cpu_tree.hpp"

namespace nbody {

class CpuBackend final : public Backend {
  public:
    explicit CpuBackend(int threads = 0);

    std::string name() const override;
    BackendCaps caps() const override { return {}; }
    void reset(const State& s, const SimParams& p) override;
    // Switching precision, integrator, eps, G or eta (or dt under hermite-block) keeps the particles (block
    // steps: predicted to the current time) and restarts the integrator on them.
    void set_params(const SimParams& p) override;
    const SimParams& params() const override { return m_params; }
    // k leap-frog or shared Hermite steps, or k block steps. A block step underflow throws BackendError with
    // the state kept (the simulation pauses on it).
    void step(int k) override;
    void read_state(State& out) override;
    // hermite-block: each body's acceleration at the end of its own last step (all at one time right after a
    // reset or set_params).
    void read_accelerations(std::vector<Double4>& out) override;
    void copy_positions_to_host(Float4* dst) override;
    std::string kernel_label() const override;
    // Method tree: the CPU tree of the last evaluation (at the current positions).
    std::vector<TreeCellBox> tree_cells(int depth) override;
    WorkCount work() const override { return m_work; }
    // Distributed runs: leap-frog in fp32 on rows [begin, end) (the others refused at reset with the reason).
    bool set_partition(RangePartition p) override;
    std::size_t size() const override { return m_bodies.size(); }
    double time() const override;
    long long steps_taken() const override { return m_steps; }
    void set_steps_taken(long long n) override { m_steps = n; }
    // cpu_backend_state.cpp: the float64 bodies, accelerations, groups, the time and, under Hermite, the
    // integrator's own state; import takes the same back (the accelerations are not re-evaluated).
    bool export_state(IntegratorState& st) override;
    void import_state(const IntegratorState& st, const SimParams& p, long long steps) override;

    int threads() const { return m_threads; }
    // hermite-block: the current step of body i (a power of two); 0 under the other integrators.
    double block_dt(std::size_t i) const;

  private:
    void prime();                  // accelerations (and jerks, first block steps) at the current positions
    void compute_accelerations();  // leap-frog: a(x) into m_bodies.ax.. (G included)
    void tree_accelerations();     // the same through the tree (method tree)
    StepWork step_work() const;    // the interactions of the last evaluation
    void leapfrog_step();
    void synchronise();  // block steps: every body predicted to the integrator's clock
    void gather_positions();  // a distributed run: the other ranks' positions into m_bodies

    std::size_t m_begin = 0, m_end = 0;  // the rows this backend integrates (all unless partitioned)
    RangePartition m_partition;
    std::vector<Double4> m_gather_buf;

    int m_threads;
    SimParams m_params;
    Bodies m_bodies;
    HermiteCpu m_hermite;
    std::vector<float> m_fx, m_fy, m_fz, m_fm, m_fax, m_fay, m_faz;  // the fp32 loop's float arrays
    std::vector<uint32_t> m_group;
    // method tree: the CPU tree (made at first use), its input and output in float32, the last evaluation's
    // counts (the work a step is what it evaluated, not N^2)
    std::unique_ptr<CpuTree> m_tree;
    std::vector<Float4> m_tree_pos, m_tree_acc;
    bool m_tree_acc_current = false;  // m_tree_acc is the tree's last evaluation of these bodies (its opening test reads it)
    TreeStats m_tree_stats;
    WorkCount m_work;
    double m_time = 0;  // leap-frog: the time; Hermite: the time at start(), plus the integrator's clock
    long long m_steps = 0;
};

}  // namespace nbody
