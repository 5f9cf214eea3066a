#pragma once
// Kick-drift-kick leap-frog on the GPU in any precision, over one or several device parts: the step kernel
// (step_kernel.cuh) evaluates the forces on a part's own bodies and does the leap-frog update in its
// epilogue; the part then copies the positions it updated into every other part (peer to peer). On one GPU
// the steps are batched in a CUDA graph.
#include <cuda_runtime.h>

#include <memory>
#include <vector>

#include "backend/gpu_engine.cuh"
#include "core/float4.hpp"
#include "core/kernels/gpu_limits.hpp"
#include "core/index_range.hpp"
#include "core/kernels/kernel_tuning.hpp"
#include "direct/kernel_table.cuh"

namespace nbody::kernels {

// Why this build cannot run family f's instance e on the current GPU although the GPU could (a PTX-only build for an
// older generation lacks the family's instructions); empty when it can.
std::string built_refusal(const FamilyInfo& f, const KernelEntry& e);

// Shared by the engine's files (leapfrog_engine.cu: the kernel choice; leapfrog_step.cu: stepping and graphs;
// leapfrog_readout.cu: read-out; leapfrog_gather.cu: the gather over ranks; leapfrog_snapshot.cu: snapshots).
namespace leapfrog {
// Steps captured in one CUDA graph: an even number, so the double-buffered positions end where they
// began and the graph can be replayed. 32 steps make the ~4 us graph launch negligible.
inline constexpr int kGraphSteps = 32;

// The double-single split of a double position: hi = the float rounding, lo = what it left out (mass in hi).
inline void split_ds(const Double4& d, Float4& hi, Float4& lo) {
    hi = to_float4(d);
    lo = {static_cast<float>(d.x - hi.x), static_cast<float>(d.y - hi.y), static_cast<float>(d.z - hi.z), 0.f};
}

inline bool wide(Precision p) { return p != Precision::Fp32; }  // positions in double on the device

// A part's share of an array of N elements of `bytes` each.
inline std::size_t offset(std::size_t i, std::size_t bytes) { return i * bytes; }
// Pairs on several parts: the most of `groups` groups a part takes (pairs_part_groups), so the group sums it
// keeps of every body, before those it receives (LeapfrogEngine's PartBuffers::groups).
inline std::size_t pairs_out_groups(std::size_t groups, std::size_t parts) { return (groups + parts - 1) / parts; }
}  // namespace leapfrog

class LeapfrogEngine final : public GpuEngine {
public:
    // `tuning`: what kernel_auto chooses from (the backend's, outliving the engine).
    // limits: the first part's GPU, as the backend asked it once (its SMs size the automatic splits).
    LeapfrogEngine(DeviceSet& devices, const GpuLimits& limits, const TuningTable& tuning);
    ~LeapfrogEngine() override;

    void reset(const State& s, const SimParams& p) override;
    void set_params(const SimParams& p) override;
    void step(int k) override;
    void read_state(State& out) override;
    void read_accelerations(std::vector<Double4>& out) override;
    void positions_to_device(void* dst) override;
    void positions_to_host(Float4* dst) override;
    std::optional<double> potential_energy() override;
    std::string kernel_label() const override;
    // Why kernel_auto chose the kernel (core/kernels/kernel_tuning.hpp describe); per part timings where asked.
    void read_out(const ReadoutAsk& ask, Readouts& out) override;
    std::vector<DeviceTiming> timings() const;  // the last step per part (timing events); empty on one part
    WorkCount work() const override;
    double time() const override { return m_time; }
    long long steps() const override { return m_steps; }
    LaunchPlan plan() const override { return m_plans.empty() ? LaunchPlan{} : m_plans.front(); }
    KernelResources resources() const override;
    std::size_t snapshot_bytes() const override;
    EngineMark save_snapshot(const std::vector<char*>& dst) override;
    void restore_snapshot(const std::vector<char*>& src, const EngineMark& m) override;
    bool set_partition(const RangePartition& p) override {
        m_partition = p;
        return true;
    }

    // The variant and shape that run for `p` on n bodies: the user's, or the automatic choice from the
    // tuning table among the kernels compiled here whose block fits and that `limits`' GPU can launch (why: where
    // it came from). `scratch_limit`: what a family's capped scratch may take (scratch_cap; 0 where it cannot
    // run: several GPU parts or ranks).
    static SimParams resolve(const SimParams& p, std::size_t n, const TuningTable& t, const GpuLimits& limits,
                             KernelChoice* why = nullptr, long long scratch_limit = 0);

private:
    struct PartBuffers {
        DeviceBuffer pos[2];           // x_n and x_{n+1} (float4, or Dbl4 for ds and fp64), all N
        DeviceBuffer hi[2], lo[2];     // ds: the float split of pos
        DeviceBuffer vel, acc;         // all N; a part keeps its own range current
        DeviceBuffer partial, counters;  // j-split over blocks
        // Pairs on several parts: this part's groups' sums on every body, [ceil(groups / parts)][T x strip], then what the
        // other parts send of theirs on this part's bodies, [groups][own bodies] (pairs_combine_kernel).
        DeviceBuffer groups;
    };
    // An engine is reset once (the CUDA backend makes a fresh one for every reset, so a reset that fails
    // leaves the running engine untouched); set_params changes it in place, also all-or-nothing.

    struct Config {
        SimParams running;
        KernelChoice choice;  // kernel_auto only
        const KernelEntry* kernel = nullptr;
        std::vector<LaunchPlan> plans;
        std::vector<DeviceBuffer> partial, counters;  // per part, for the j-split over blocks
        std::vector<DeviceBuffer> groups;             // per part, pairs on several parts (PartBuffers::groups)
        std::vector<long long> group_ends;            // pairs: pairs_group_ends of the plan's strips
        std::vector<std::unique_ptr<FamilyScratch>> scratch;  // per part, the family's own (tensor: the Morton sort)
    };
    // The kernel instance, launch plans and scratch for `p` on m_n bodies, without touching the running
    // configuration (throws ParamError or BackendError; commit() installs it).
    Config configure(const SimParams& p) const;
    const KernelEntry* kernel_for(const SimParams& running) const;  // throws ParamError where none runs
    void commit(Config&& c);
    void allocate(std::size_t n, Precision prec);  // called once, by reset, on a fresh engine
    StepArgs args(std::size_t part, bool prime) const;
    void launch(bool prime);  // one step (or the priming evaluation) on every part, with the exchange
    void exchange(std::size_t from, bool prime);
    void send_positions(std::size_t part, bool prime);  // the exchange, between the part's timing events
    // Pairs on several parts: part `from`'s group sums on each other part's bodies, into that part's received
    // sums (peer copies on `from`'s stream).
    void send_group_sums(std::size_t from);
    float4* pairs_received(std::size_t part) const;  // in PartBuffers::groups: [groups][own bodies]
    std::size_t pairs_group_count() const { return m_group_ends.empty() ? 0 : m_group_ends.size() - 1; }
    bool pairs_over_parts() const { return m_running.variant == KernelVariant::Pairs && m_dev.size() > 1; }
    void gather_over_ranks();  // a distributed run: this rank's new positions out, the other ranks' in
    void build_graph();
    void drop_graph();
    std::size_t body_bytes() const;
    // Every per-body buffer of a part that a step reads or writes: what a snapshot copies.
    static std::vector<const DeviceBuffer*> state_buffers(const PartBuffers& b);
    void copy_state(const std::vector<char*>& slot, bool save);

    DeviceSet& m_dev;
    int m_sm = 0;
    const TuningTable& m_tuning;
    GpuLimits m_limits;  // the first part's GPU: what a family and shape may ask of it
    KernelChoice m_choice;
    std::vector<PartBuffers> m_buf;
    std::vector<IndexRange> m_ranges;   // per part
    std::size_t m_n = 0;
    Precision m_prec = Precision::Fp32;  // what the buffers hold
    SimParams m_params, m_running;      // as asked; with the kernel choice resolved
    const KernelEntry* m_kernel = nullptr;
    std::vector<std::unique_ptr<FamilyScratch>> m_scratch;  // per part, the running family's own; empty if none
    std::vector<LaunchPlan> m_plans;    // one per part
    std::vector<long long> m_group_ends;  // pairs: the diagonal groups (Config::group_ends)
    int m_cur = 0;
    std::vector<uint32_t> m_group;
    double m_time = 0;
    long long m_steps = 0;
    cudaGraphExec_t m_graph = nullptr;
    RangePartition m_partition;          // gather set: this rank integrates [begin, end) only
    std::vector<Double4> m_all;          // a distributed run's host copy of every position
    std::vector<unsigned char> m_staging;  // kept between steps: no allocation per step
    std::vector<Float4> m_staging_hi, m_staging_lo;  // one part only: kGraphSteps steps from m_cur == 0
};

}  // namespace nbody::kernels
