#pragma once
// The Hermite integrators on the GPU: 4th order (Makino & Aarseth 1992; fp32, ds or fp64 forces) and 6th order
// (Nitadori & Makino 2008; ds or fp64), each with one shared step (hermite, hermite6) or individual
// power-of-two block steps (hermite-block, hermite6-block: the Aarseth criterion of the order), over one or
// several device parts. The order picks the kernels (HermiteKernelSet); the rest is one engine. One block
// step, all on the device:
//   select   t_next = min_i t_end[i]; active = {i : t_end[i] == t_next}        (CUB, hermite_select.cu)
//   predict  every body to t_next, in double, stored in the force precision    (every part, redundantly)
//   force    a, jerk (6th: snap) of this part's share of the active list against all N (j split over blocks)
//   correct  the share, its next step, and a store of each corrected body into every part's copy
// Every part holds every body; a part corrects only its share of the active list and writes those bodies
// into the others' memory (peer stores: the all-gather costs active x 128 (6th: 192) bytes per part per block step,
// over NVLink). Nothing comes back to the host per block step: the force kernel's grid is fixed and plans
// its (i-group, j-split) items from the active count on the device; the host reads a few counters (time,
// block steps, active sum, error flags) once per step(k) call.
#include <cuda_runtime.h>

#include <vector>

#include "backend/gpu_engine.cuh"
#include "hermite/hermite_kernel.cuh"
#include "core/rows/integrator.hpp"

namespace nbody::kernels {

class HermiteEngine final : public GpuEngine {
  public:
    HermiteEngine(DeviceSet& devices, int sm_count);
    ~HermiteEngine() override;

    void reset(const State& s, const SimParams& p) override;
    void set_params(const SimParams& p) override;
    void step(int k) override;
    void read_state(State& out) override;
    void read_accelerations(std::vector<Double4>& out) override;
    void positions_to_device(void* dst) override;
    void positions_to_host(Float4* dst) override;
    std::optional<double> potential_energy() override;
    // Block steps: each body's step (t_end - t_last in ticks) and the last block step's active count, copied
    // from part 0 (16 bytes a body); the active count is 0 before the first block step since a reset.
    std::optional<BlockLevels> block_levels();
    void read_out(const ReadoutAsk& ask, Readouts& out) override {
        if (ask.block_levels) out.block_levels = block_levels();
    }
    std::string kernel_label() const override;
    WorkCount work() const override;
    double time() const override;
    long long steps() const override {
        return m_carried.evaluations + (m_stats.empty() ? 0 : m_stats.front().block_steps);
    }
    LaunchPlan plan() const override;
    KernelResources resources() const override;
    // Every body's x, v, a, jerk (6th order: snap, crackle; all four components), its last and next correction
    // in ticks, the block time and the time of tick 0 (hermite_checkpoint.cu): the next block step after an
    // import is the one the exporting engine would have taken.
    bool export_state(IntegratorState& st) override;
    void import_state(const IntegratorState& st, const SimParams& p) override;

    // The force kernel alone (tests, after reset): acceleration (w: phi), jerk and (6th order; else left
    // empty) snap of the bodies `active` (distinct indices) at the state as it is, against all bodies, in the
    // order of `active`. The stored a, j (s) of those bodies are replaced by the new ones (the same values a
    // reset computed).
    void evaluate(const std::vector<int>& active, std::vector<Double4>& acc, std::vector<Double4>& jerk,
                  std::vector<Double4>* snap = nullptr);
    // Milliseconds per evaluation (predictor of all N, force and corrector of `active`), timed on the device.
    double time_evaluations(const std::vector<int>& active, int repeats);

  private:
    struct PartBuffers {
        DeviceBuffer pos, vel, acc, jerk, snap, crackle, t_last, t_end;  // every body (HermiteBodies; 6th: snap..)
        DeviceBuffer pred_pos, pred_vel, pred_lo, pred_acc;  // predicted, in the force precision (lo: ds; acc: 6th)
        DeviceBuffer iota, active, scalars, stats, table, partial, scratch;
        std::size_t scratch_bytes = 0;
        cudaEvent_t predicted = nullptr;  // after this part's predictor: peers may then overwrite bodies
        HermiteBodies bodies() const;
    };

    void allocate(const State& s);
    void load_active(const std::vector<int>& active);  // a fixed active list for evaluate / time_evaluations
    HermiteArgs args(std::size_t part, bool prime, bool prime_acc = false) const;
    // On every part; select: find the active list; prime_acc: 6th order's first priming pass (a alone).
    void block_step(bool prime, bool select = true, bool prime_acc = false);
    void prime();  // the first evaluation of a reset: a, j (and s) and, block steps, the first steps
    void build_graph();
    void drop_graph();
    void finish();       // reads the counters of every part; throws on underflow or a non-finite body
    void predict_now();  // part 0's state predicted to the block time into m_now_pos / m_now_vel
    bool block_steps() const { return integrator_info(m_params.integrator).block_steps; }
    int order() const { return integrator_info(m_params.integrator).order; }
    bool sixth() const { return order() == 6; }

    DeviceSet& m_dev;
    int m_sm = 0;
    std::vector<PartBuffers> m_buf;
    DeviceBuffer m_now_pos, m_now_vel;  // part 0: read_state and the potential
    std::size_t m_n = 0;
    SimParams m_params;
    const HermiteKernelSet* m_kernels = &hermite4_kernels();  // the order's (reset)
    int m_force_block = 128, m_force_grid = 0;
    int m_force_k = 1;         // i-bodies per thread at most (hermite_force_max_k)
    bool m_potential = false;  // evaluate(): the force kernel sums phi too (stepping never reads it)
    double m_t0 = 0;           // the state's time at the reset
    // Block steps and pairs before a set_params restart; flops a pair: the order's (reset).
    WorkCount m_carried{0, 0, kFlopsPerInteractionHermite};
    std::vector<uint32_t> m_group;
    std::vector<HermiteStats> m_stats;  // per part, as of the last finish()
    HermiteStats* m_pinned = nullptr;   // host copies the parts write into
    cudaGraphExec_t m_graph = nullptr;  // one part only: kGraphBlockSteps block steps
};

}  // namespace nbody::kernels
