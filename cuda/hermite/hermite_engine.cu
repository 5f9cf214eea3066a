#include "hermite/hermite_engine.cuh"

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "common/graph_capture.cuh"
#include "core/errors.hpp"
#include "core/physics/hermite6.hpp"
#include "core/rows/integrator.hpp"
#include "cpu/force_f32.hpp"

namespace nbody::kernels {

namespace {
// Block steps captured in one CUDA graph (one part): a block step is ~7 small launches, which at a few
// microseconds each would otherwise cost as much as the force of a small active set.
constexpr int kGraphBlockSteps = 16;
}  // namespace

HermiteBodies HermiteEngine::PartBuffers::bodies() const {
    return {pos.as<Dbl4>(),  vel.as<Dbl4>(),     acc.as<Dbl4>(),    jerk.as<Dbl4>(),
            snap.as<Dbl4>(), crackle.as<Dbl4>(), t_last.as<Tick>(), t_end.as<Tick>()};
}

HermiteEngine::HermiteEngine(DeviceSet& devices, int sm_count) : m_dev(devices), m_sm(sm_count) {}

HermiteEngine::~HermiteEngine() {
    drop_graph();
    for (PartBuffers& b : m_buf)
        if (b.predicted) cudaEventDestroy(b.predicted);
    if (m_pinned) cudaFreeHost(m_pinned);
}

void HermiteEngine::drop_graph() {
    if (m_graph) cudaGraphExecDestroy(m_graph);
    m_graph = nullptr;
}

void HermiteEngine::allocate(const State& s) {
    const std::size_t n = m_n, parts = m_dev.size();
    const Precision prec = m_params.precision;
    const std::size_t body = prec == Precision::Fp64 ? sizeof(Dbl4) : sizeof(float4);
    const long long records =
        force_partial_records(static_cast<int>(n), m_force_block, m_force_grid, m_force_k);
    const bool sixth_order = sixth();
    m_buf.resize(parts);
    std::vector<HermiteBodies> table(parts);
    for (std::size_t k = 0; k < parts; ++k) {
        const int d = m_dev.parts()[k].device;
        PartBuffers& b = m_buf[k];
        for (DeviceBuffer* buf : {&b.pos, &b.vel, &b.acc, &b.jerk})
            *buf = DeviceBuffer::alloc(d, std::max<std::size_t>(n, 1) * sizeof(Dbl4), "hermite state");
        if (sixth_order) {
            for (DeviceBuffer* buf : {&b.snap, &b.crackle})
                *buf = DeviceBuffer::alloc(d, std::max<std::size_t>(n, 1) * sizeof(Dbl4), "hermite6 state");
            b.pred_acc =
                DeviceBuffer::alloc(d, std::max<std::size_t>(n, 1) * body, "predicted accelerations");
        }
        b.t_last = DeviceBuffer::alloc(d, std::max<std::size_t>(n, 1) * sizeof(Tick), "hermite times");
        b.t_end = DeviceBuffer::alloc(d, std::max<std::size_t>(n, 1) * sizeof(Tick), "hermite times");
        b.pred_pos = DeviceBuffer::alloc(d, std::max<std::size_t>(n, 1) * body, "predicted positions");
        b.pred_vel = DeviceBuffer::alloc(d, std::max<std::size_t>(n, 1) * body, "predicted velocities");
        if (prec == Precision::DS)
            b.pred_lo = DeviceBuffer::alloc(d, std::max<std::size_t>(n, 1) * sizeof(float4),
                                            "predicted positions (lo)");
        b.iota = DeviceBuffer::alloc(d, std::max<std::size_t>(n, 1) * sizeof(int), "active list");
        b.active = DeviceBuffer::alloc(d, std::max<std::size_t>(n, 1) * sizeof(int), "active list");
        b.scalars = DeviceBuffer::alloc(d, 2 * sizeof(Tick), "block time");
        b.stats = DeviceBuffer::alloc(d, sizeof(HermiteStats), "hermite counters");
        b.table = DeviceBuffer::alloc(d, parts * sizeof(HermiteBodies), "part table");
        b.partial = DeviceBuffer::alloc(
            d, static_cast<std::size_t>(records) * m_kernels->records * m_kernels->record_bytes(prec),
            "j-split partial sums");
        NBODY_CUDA_CHECK(cudaSetDevice(d));
        b.scratch_bytes = HermiteSelect{}.scratch_bytes(static_cast<int>(n));
        b.scratch = DeviceBuffer::alloc(d, std::max<std::size_t>(b.scratch_bytes, 1), "block-time selection");
        NBODY_CUDA_CHECK(cudaEventCreateWithFlags(&b.predicted, cudaEventDisableTiming));
        table[k] = b.bodies();
    }
    if (m_pinned) cudaFreeHost(m_pinned);
    m_pinned = nullptr;
    NBODY_CUDA_CHECK(cudaMallocHost(&m_pinned, parts * sizeof(HermiteStats)));
    m_stats.assign(parts, HermiteStats{0, 0, 0, -1, -1});
    if (n > 0) {
        m_now_pos = DeviceBuffer::alloc(m_dev.parts().front().device, n * sizeof(Dbl4), "predicted state");
        m_now_vel = DeviceBuffer::alloc(m_dev.parts().front().device, n * sizeof(Dbl4), "predicted state");
    }
    // Upload: Double4 and Dbl4 share their layout. Times start at tick 0 with t_end = 0: the priming block
    // step finds every body due.
    for_each_part(m_dev, [&](const DevicePart& part, std::size_t k) {
        PartBuffers& b = m_buf[k];
        NBODY_CUDA_CHECK(cudaMemcpyAsync(b.pos.get(), s.pos_mass.data(), n * sizeof(Dbl4),
                                         cudaMemcpyHostToDevice, part.stream));
        NBODY_CUDA_CHECK(cudaMemcpyAsync(b.vel.get(), s.vel.data(), n * sizeof(Dbl4), cudaMemcpyHostToDevice,
                                         part.stream));
        for (DeviceBuffer* buf : {&b.acc, &b.jerk, &b.snap, &b.crackle, &b.t_last, &b.t_end, &b.scalars})
            if (buf->get()) NBODY_CUDA_CHECK(cudaMemsetAsync(buf->get(), 0, buf->bytes(), part.stream));
        NBODY_CUDA_CHECK(cudaMemcpyAsync(b.stats.get(), &m_stats[k], sizeof(HermiteStats),
                                         cudaMemcpyHostToDevice, part.stream));
        NBODY_CUDA_CHECK(cudaMemcpyAsync(b.table.get(), table.data(), parts * sizeof(HermiteBodies),
                                         cudaMemcpyHostToDevice, part.stream));
        launch_iota(b.iota.as<int>(), static_cast<int>(n), part.stream);
        NBODY_CUDA_CHECK(cudaEventRecord(part.done, part.stream));
    });
    m_dev.synchronize();  // the host arrays (table, the state) go out of scope
}

HermiteArgs HermiteEngine::args(std::size_t k, bool prime, bool prime_acc) const {
    const PartBuffers& b = m_buf[k];
    HermiteArgs a{};
    a.self = b.bodies();
    a.all = b.table.as<const HermiteBodies>();
    a.parts = static_cast<int>(m_dev.size());
    a.part = static_cast<int>(k);
    a.pred = {b.pred_pos.get(), b.pred_vel.get(), b.pred_lo.as<float4>(), b.pred_acc.get()};
    a.active = b.active.as<const int>();
    a.t_next = b.scalars.as<const Tick>();
    a.n_active = reinterpret_cast<const int*>(b.scalars.as<const Tick>() + 1);
    a.partial = b.partial.get();
    a.stats = b.stats.as<HermiteStats>();
    a.n = static_cast<int>(m_n);
    a.force_block = m_force_block;
    a.force_grid = m_force_grid;
    a.force_k = m_force_k;
    a.soft2 = static_cast<float>(m_params.eps * m_params.eps) + kSelfInteractionFloor;
    a.soft2_d = m_params.eps * m_params.eps + static_cast<double>(kSelfInteractionFloor);
    a.G = m_params.G;
    a.tick = m_params.dt / static_cast<double>(kHermiteTicks);
    a.eta = m_params.eta;
    a.step_floor = sixth() && m_params.precision == Precision::DS ? hermite6::kDsStepFloor6 : 0.0;
    a.dt_max = kHermiteTicks;
    a.block_steps = block_steps();
    a.prime = prime;
    a.prime_acc = prime_acc;
    a.potential = m_potential;
    return a;
}

void HermiteEngine::block_step(bool prime, bool select, bool prime_acc) {
    if (m_n == 0) return;
    const int n = static_cast<int>(m_n);
    const bool several = m_dev.size() > 1;
    m_dev.wait_for_peers();  // every part's corrected bodies of the last block step have landed everywhere
    for_each_part(m_dev, [&](DevicePart& part, std::size_t k) {
        PartBuffers& b = m_buf[k];
        const HermiteArgs a = args(k, prime, prime_acc);
        // Every part selects the same active list from the same times (CUB's selection keeps index order).
        if (select)
            HermiteSelect{}.run(b.t_end.as<const Tick>(), b.iota.as<const int>(), n, b.scalars.as<Tick>(),
                                b.active.as<int>(), reinterpret_cast<int*>(b.scalars.as<Tick>() + 1),
                                b.scratch.get(), b.scratch_bytes, a.stats, k == 0, prime, part.stream);
        m_kernels->predict(m_params.precision, a, part.stream);
        if (several) NBODY_CUDA_CHECK(cudaEventRecord(b.predicted, part.stream));
    });
    for_each_part(m_dev, [&](DevicePart& part, std::size_t k) {
        const HermiteArgs a = args(k, prime, prime_acc);
        m_kernels->force(m_params.precision, a, part.stream);
        // The corrector overwrites bodies in the other parts' copies: wait until they have predicted from
        // the old ones.
        for (std::size_t o = 0; several && o < m_dev.size(); ++o)
            if (o != k) NBODY_CUDA_CHECK(cudaStreamWaitEvent(part.stream, m_buf[o].predicted, 0));
        m_kernels->correct(m_params.precision, a, part.stream);
        if (several) NBODY_CUDA_CHECK(cudaEventRecord(part.done, part.stream));
    });
}

void HermiteEngine::build_graph() {
    NBODY_CUDA_CHECK(cudaSetDevice(m_dev.parts().front().device));
    m_graph = capture_graph(m_dev.parts().front().stream, [&] {
        for (int k = 0; k < kGraphBlockSteps; ++k) block_step(false);
    });
}

void HermiteEngine::finish() {
    for_each_part(m_dev, [&](const DevicePart& part, std::size_t k) {
        NBODY_CUDA_CHECK(cudaMemcpyAsync(m_pinned + k, m_buf[k].stats.get(), sizeof(HermiteStats),
                                         cudaMemcpyDeviceToHost, part.stream));
    });
    m_dev.synchronize();
    m_stats.assign(m_pinned, m_pinned + m_dev.size());
    std::string why;
    for (const HermiteStats& st : m_stats) {
        if (st.nonfinite_body >= 0 && why.empty())
            why = std::string(integrator_name(m_params.integrator)) + ": body " +
                  std::to_string(st.nonfinite_body) + " became NaN or infinite (close encounter with eps " +
                  std::to_string(m_params.eps) + "?); reset, or raise eps or lower dt / eta";
        if (st.underflow_body >= 0 && why.empty())
            why = std::string(integrator_name(m_params.integrator)) + ": body " +
                  std::to_string(st.underflow_body) + " needs a step below dt / 2^" +
                  std::to_string(kHermiteLevels) + " = " +
                  std::to_string(m_params.dt / static_cast<double>(kHermiteTicks)) +
                  " at t = " + std::to_string(time()) +
                  " (it took that smallest step); paused: raise eps or eta";
    }
    if (why.empty()) return;
    // Reported once: the flags are cleared, so a run resumed after the pause reports only new trouble.
    const int clear[2] = {-1, -1};
    static_assert(offsetof(HermiteStats, nonfinite_body) ==
                  offsetof(HermiteStats, underflow_body) + sizeof(int));
    for_each_part(m_dev, [&](const DevicePart&, std::size_t k) {
        NBODY_CUDA_CHECK(cudaMemcpy(m_buf[k].stats.as<char>() + offsetof(HermiteStats, underflow_body), clear,
                                    sizeof clear, cudaMemcpyHostToDevice));
        m_stats[k].underflow_body = m_stats[k].nonfinite_body = -1;
    });
    throw BackendError(why);
}

void HermiteEngine::reset(const State& s, const SimParams& p) {
    if (m_dev.size() > 1 && !m_dev.peer_access())
        throw ParamError("gpus",
                         "hermite over several GPUs needs peer access between them (its corrector stores "
                         "into every GPU's copy); these GPUs have none: use --gpus 1");
    drop_graph();
    m_n = s.size();
    m_params = p;
    m_t0 = s.time;
    m_group = s.group;
    m_kernels = sixth() ? &hermite6_kernels() : &hermite4_kernels();
    m_carried.flops_per_pair = integrator_info(p.integrator).flops_per_pair;
    // One wave of force blocks: the grid every block step's (i-group, j-split) items are dealt over.
    const Precision prec = p.precision;
    int resident = 1;
    NBODY_CUDA_CHECK(cudaSetDevice(m_dev.parts().front().device));
    NBODY_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &resident, m_kernels->force_function(prec, false), kForceBlock,
        static_cast<size_t>(kForceBlock) * m_kernels->smem_per_thread(prec)));
    m_force_block = kForceBlock;
    m_force_k = m_kernels->max_k(prec);
    m_force_grid = std::max(1, resident) * std::max(1, m_sm);
    allocate(s);
    prime();
    finish();
}

// 6th order's snap needs every j-body's acceleration: a first pass stores the accelerations alone (the
// predictor then hands them to the force kernel), the second is the priming evaluation proper.
void HermiteEngine::prime() {
    if (sixth()) block_step(true, true, true);
    block_step(true);
}

void HermiteEngine::set_params(const SimParams& p) {
    const SimParams old = m_params;
    const bool same = p.dt == old.dt && p.eps == old.eps && p.G == old.G && p.eta == old.eta &&
                      p.integrator == old.integrator && p.precision == old.precision;
    if (same) {
        m_params = p;  // steps per frame, kernel shape (the Hermite kernel plans its own launch)
        return;
    }
    // A new step, softening or criterion: restart the integration from the state at the block time (bodies
    // between their steps are predicted to it, as read_state does).
    State s;
    read_state(s);
    const WorkCount done = work();  // the run goes on: its step count and work with it
    HermiteEngine fresh(m_dev, m_sm);
    fresh.reset(s, p);  // all or nothing: this engine is untouched if it throws
    std::swap(m_buf, fresh.m_buf);
    std::swap(m_now_pos, fresh.m_now_pos);
    std::swap(m_now_vel, fresh.m_now_vel);
    std::swap(m_pinned, fresh.m_pinned);
    std::swap(m_graph, fresh.m_graph);
    m_kernels = fresh.m_kernels;
    m_stats = fresh.m_stats;
    m_params = fresh.m_params;
    m_force_block = fresh.m_force_block;
    m_force_k = fresh.m_force_k;
    m_force_grid = fresh.m_force_grid;
    m_t0 = fresh.m_t0;
    m_carried = done;
}

void HermiteEngine::step(int k) {
    const bool graphs = m_dev.size() == 1;
    while (k > 0) {
        if (graphs && k >= kGraphBlockSteps) {
            if (!m_graph) build_graph();
            NBODY_CUDA_CHECK(cudaSetDevice(m_dev.parts().front().device));
            NBODY_CUDA_CHECK(cudaGraphLaunch(m_graph, m_dev.parts().front().stream));
            k -= kGraphBlockSteps;
        } else {
            block_step(false);
            --k;
        }
    }
    finish();  // one small read per call, not per block step
}

double HermiteEngine::time() const {
    if (m_stats.empty()) return m_t0;
    return m_t0 +
           static_cast<double>(m_stats.front().t_now) * (m_params.dt / static_cast<double>(kHermiteTicks));
}

LaunchPlan HermiteEngine::plan() const {
    // The all-active plan (shared steps; the priming evaluation of block steps). Block steps replan on the
    // device from each active count.
    const std::size_t share = (m_n + m_dev.size() - 1) / std::max<std::size_t>(1, m_dev.size());
    const ForcePlan f =
        force_plan(static_cast<int>(share), static_cast<int>(m_n), m_force_block, m_force_grid, m_force_k);
    LaunchPlan pl;
    pl.k = f.k, pl.u = 1, pl.block = m_force_block, pl.q = f.q;
    pl.splits = f.splits;
    pl.chunk = f.chunk;
    pl.tile = m_force_block;
    pl.blocks = f.groups;
    return pl;
}

std::string HermiteEngine::kernel_label() const {
    const LaunchPlan pl = plan();
    std::string s = std::string(integrator_name(m_params.integrator)) + " " +
                    std::string(precision_name(m_params.precision)) + " (block " +
                    std::to_string(m_force_block) + ", grid " + std::to_string(m_force_grid);
    if (block_steps())
        s += ", q and j split per block step";
    else
        s += ", k " + std::to_string(pl.k) + ", q " + std::to_string(pl.q) + ", j split " +
             std::to_string(pl.splits);
    s += ")";
    if (m_dev.size() > 1) s += ", " + std::to_string(m_dev.size()) + " parts";
    return s;
}

WorkCount HermiteEngine::work() const {
    WorkCount w = m_carried;
    if (!m_stats.empty()) {
        w.evaluations += m_stats.front().block_steps;
        w.add_direct(static_cast<double>(m_stats.front().active) * static_cast<double>(m_n));
    }
    return w;
}

KernelResources HermiteEngine::resources() const {
    cudaFuncAttributes attr{};
    NBODY_CUDA_CHECK(cudaFuncGetAttributes(&attr, m_kernels->force_function(m_params.precision, false)));
    return {attr.numRegs, attr.maxThreadsPerBlock, static_cast<int>(attr.localSizeBytes)};
}

}  // namespace nbody::kernels
