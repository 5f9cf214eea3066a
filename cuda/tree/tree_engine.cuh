#pragma once
// Leap-frog (kick-drift-kick) over the GPU tree's forces, fp32, on one GPU part: the engine the CUDA backend
// makes for method = tree, with shared steps (leapfrog) or block steps (leapfrog-block). A shared step: one
// kernel kicks half a step and drifts, the tree is built afresh from the new positions and walked
// (tree/tree_build.cu, tree/tree_walk.cu), one kernel kicks the second half. A block step
// (tree/tree_block_steps.cuh): every body drifts to the next block time, the tree is built and walked for the
// active bodies' groups, the active bodies kick. The positions stay float4 on the device; the GL buffer gets
// them by one device-to-device copy.
//
// On several parts (GPUs, or parts sharing one GPU in the tests) every part holds every body and builds the
// same tree: the build is deterministic (the keys, a stable radix sort, multipoles summed in child order), so
// the parts' trees agree bit for bit. Each part walks a share of the groups (core/tree/walk_shares.hpp), the
// parts exchange the accelerations they walked, peer to peer (tree_exchange.cuh), and every part kicks and
// drifts every body. A body's acceleration is the same bits whichever part walked it, so a run on several parts
// is the run on one. The exchange moves 16 bytes a body to each other part a step; the build (a tenth of the
// step at 10M) is done on every part. Domains along the key curve with the cells each needs from the others
// would move less, but would walk other lists than one GPU's, and the walk is nine tenths of the step.
#include <memory>
#include <string>
#include <vector>

#include "backend/gpu_engine.cuh"
#include "common/pinned.cuh"
#include "core/tree/tree_params.hpp"
#include "core/tree/walk_shares.hpp"
#include "core/worker_pool.hpp"
#include "direct/potential_kernel.cuh"
#include "tree/gpu_tree.hpp"
#include "tree/tree_active_direct.cuh"
#include "tree/tree_block_steps.cuh"

namespace nbody::kernels {

class RankLinks;  // tree_exchange.cuh

// One part's copy of the run: its bodies, its tree, its block clock.
struct TreeReplica {
    // The tree works on the part's stream: its build follows the drift on the GPU, with no wait on the host.
    explicit TreeReplica(const DevicePart& p) : part(&p), tree(p.device, p.stream), direct(p.device) {}
    const DevicePart* part;
    GpuTree tree;
    DeviceBuffer pos, vel, acc;  // float4, input order; acc without G
    DeviceBuffer keyed;          // several parts not mirrored: accelerations in key order, each part's run (the copy)
    Pinned<float4> host_keyed;   // over ranks: the same on the host, for the gather between processes
    TreeBlockSteps clock;        // block steps' time line
    TreeActiveDirect direct;     // block steps with few bodies due (core/tree/sub_step_rule.hpp)
    TreeStats stats;             // its last evaluation's
    TreeBodies bodies(std::size_t n) const {
        return {pos.as<float4>(), vel.as<float4>(), acc.as<float4>(), static_cast<int>(n)};
    }
};

class TreeEngine final : public GpuEngine {
public:
    explicit TreeEngine(DeviceSet& devices);
    ~TreeEngine() override;
    // Throws ParamError for what the tree does not run (Hermite, ds or fp64, MPI ranks).
    void reset(const State& s, const SimParams& p) override;
    void set_params(const SimParams& p) override;
    void step(int k) override;
    void read_state(State& out) override;
    void read_accelerations(std::vector<Double4>& out) override;
    bool read_rows_alone(const std::vector<std::size_t>& rows, std::vector<Double4>& out) override;
    bool read_bodies_alone(const std::vector<std::size_t>& rows, std::vector<Double4>& pos_mass,
                           std::vector<Double4>& vel) override;
    void positions_to_device(void* dst) override;
    void positions_to_host(Float4* dst) override;
    std::optional<double> potential_energy() override;
    std::string kernel_label() const override;
    // MPI ranks, one part each: every rank holds every body and walks the rank's share (RangePartition's
    // gather_runs and values_of_ranks carry the exchange); several parts a rank are refused.
    bool set_partition(const RangePartition& p) override;
    WorkCount work() const override { return m_work; }
    double time() const override { return m_block ? m_time + front().clock.clock() : m_time; }
    long long steps() const override { return m_steps; }
    LaunchPlan plan() const override { return {}; }
    KernelResources resources() const override { return {}; }

    // Rewind on the device: positions, velocities and accelerations (48 bytes a body), copied device to
    // device. Through the host (the default) a 1M-body save was a 64 MB read-back every few steps, and the
    // window's steps ran at 58 a second against the engine's 100.
    std::size_t snapshot_bytes() const override {
        return 3 * m_n * sizeof(float4) + (m_block ? front().clock.snapshot_bytes() : 0);
    }
    EngineMark save_snapshot(const std::vector<char*>& dst) override;
    void restore_snapshot(const std::vector<char*>& src, const EngineMark& mark) override;

    // Checkpoints (tree_checkpoint.cu): positions, velocities and accelerations as held (the acceleration
    // criterion reads the last ones), and with block steps each body's time line and the clock.
    bool export_state(IntegratorState& st) override;
    void import_state(const IntegratorState& st, const SimParams& p) override;

    // The cells down to the asked depth copied to the host (GpuTree::cells_to_depth) with the key cube, as
    // boxes; block levels; stage times.
    void read_out(const ReadoutAsk& ask, Readouts& out) override;
    std::vector<TreeCellBox> tree_cells(int depth);
    std::optional<BlockLevels> block_levels();
    std::string stage_times() const;
    // The last evaluation's tree: cells, depth, interactions a body and stage times.
    const TreeStats& last_tree() const { return m_stats; }

private:
    // acc from pos on every part: build and walk (block: only the active bodies' accelerations, from each
    // part's clock; may_refit: the last tree refitted instead, core/tree/sub_step_rule.hpp). On several parts
    // the walk is shared out and exchanged where that pays (shares_walk).
    void evaluate(bool block = false, bool may_refit = false);
    // The two halves of evaluate: one part's walk (on its thread), then the exchange of a shared walk and the
    // step's counts (after every part's walk).
    void walk_part(TreeReplica& r, std::size_t k, bool block, bool may_refit, bool share, bool mirrored);
    void after_walks(bool block, bool share, bool mirrored);
    bool shares_walk(std::size_t active) const;
    // Calls fn(replica, k) for every part k at once, each on a host thread of its own (m_workers) with its GPU
    // current (a tree's build waits on its GPU once a level), and rethrows the first exception once all have
    // ended.
    template <class Fn>
    void on_every_part(Fn&& fn);
    TreeReplica& front() { return *m_parts.front(); }
    const TreeReplica& front() const { return *m_parts.front(); }
    void block_steps(int k);
    void synchronise_velocities(State& out);
    // Block steps: body i's velocity v (held from its opening half kick) brought to the clock, from its
    // acceleration a (without G) and its step's start t and length dt.
    Double4 synchronised(Double4 v, const Float4& a, double t, double dt) const;
    // Whether `rows` rows are read one copy each rather than all N at once; row i of a float4 buffer (`what`
    // names it in the refusal of a row past the end).
    bool reads_rows_alone(std::size_t rows) const;
    Float4 row_of(const DeviceBuffer& b, std::size_t i, const char* what) const;
    BlockRule rule() const;

    DeviceSet& m_dev;
    WorkerPool m_workers;  // a thread a part past the first, kept: a step forks and joins two or three times
    std::vector<std::unique_ptr<TreeReplica>> m_parts;  // one a device part, the same bodies in each
    tree::WalkShares m_shares;  // several parts, or ranks: each one's share of the walk
    RangePartition m_ranks;     // over MPI ranks: this rank and the exchange's hooks (ranks 1: none)
    std::unique_ptr<RankLinks> m_links;  // over ranks on one host: the other ranks' buffers
    std::size_t sharers() const { return m_ranks.ranks > 1 ? std::size_t(m_ranks.ranks) : m_parts.size(); }
    // Over ranks: the walk's counts and times from every rank, the runs gathered, the shares moved.
    void exchange_over_ranks(bool block, bool mirrored);
    bool decide_mirrors() const;
    void set_mirrors(WalkShare& share, std::size_t k) const;  // the other parts' (ranks') buffers
    bool m_mirrored = false;  // the shared walks write into the other parts' buffers (decide_mirrors)
    // One share's walk: where its run ends in key order, its seconds and its counts.
    struct ShareReport {
        std::size_t run_end;
        double seconds;
        uint64_t body_body, body_cell, walked;
    };
    static ShareReport report_of(const TreeReplica& r);
    void combine_shares(const std::vector<ShareReport>& reports);
    bool m_acc_current = false;  // m_acc is the last evaluation of these bodies (the opening test reads it)
    std::size_t m_n = 0;
    SimParams m_params;
    TreeStats m_stats;
    WorkCount m_work;
    std::vector<uint32_t> m_group;
    double m_time = 0;  // shared steps: the time; block steps: the time at the reset, the clock counting on
    long long m_steps = 0;
    bool m_block = false;     // leapfrog-block
    std::size_t m_last_active = 0;
    // The tree may be refitted at the next block step: not after a snapshot or checkpoint is taken or put
    // back, so the step after one builds its tree in the saved run and in the restored one alike, and a
    // restored run goes on bit for bit.
    bool m_refittable = false;
    // Block steps since the reset that refitted the tree, and that summed the due bodies directly.
    long long m_refits = 0, m_direct_steps = 0;
    // Seconds since the reset: the tree's stages summed from each evaluation's stats, and whole steps on the
    // host clock (the rest is the kicks, drifts, block-time selection and the waits between them).
    struct StageSums {
        double keys = 0, sort = 0, build = 0, multipoles = 0, walk = 0, exchange = 0, total = 0;
        long long steps = 0;
        // Block steps: bodies evaluated, and the bodies of the groups walked for them (the lanes spent), summed
        // over the steps; the steps with under 1/64 of the bodies active, and their time.
        double active = 0, walked = 0, small_total = 0;
        long long small = 0;
        // Several parts: evaluations that shared out the walk, and the bytes their exchanges moved.
        long long shared = 0;
        double exchanged_bytes = 0;
        std::vector<double> share_walks;  // each part's (rank's) walks, summed
        void add_share_walks(const std::vector<double>& seconds) {
            share_walks.resize(seconds.size());
            for (std::size_t k = 0; k < seconds.size(); ++k) share_walks[k] += seconds[k];
        }
    } m_sums;
    double m_exchange_seconds = 0;  // the last evaluation's exchange, on the host clock
    void add_stages(double step_seconds, std::size_t active);
};

}  // namespace nbody::kernels
