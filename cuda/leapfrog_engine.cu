#include "leapfrog_engine.cuh"

#include <algorithm>
#include <cstring>

#include "core/errors.hpp"
#include "cpu/force_f32.hpp"
#include "potential_kernel.cuh"

namespace nbody::kernels {

namespace {
// Steps captured in one CUDA graph: an even number, so the double-buffered positions end where they
// began and the graph can be replayed. 32 steps make the ~4 us graph launch negligible.
constexpr int kGraphSteps = 32;

// The double-single split of a double position: hi = the float rounding, lo = what it left out (mass in hi).
void split_ds(const Double4& d, Float4& hi, Float4& lo) {
    hi = to_float4(d);
    lo = {static_cast<float>(d.x - hi.x), static_cast<float>(d.y - hi.y), static_cast<float>(d.z - hi.z), 0.f};
}

bool wide(Precision p) { return p != Precision::Fp32; }  // positions in double on the device

// A part's share of an array of N elements of `bytes` each.
std::size_t offset(std::size_t i, std::size_t bytes) { return i * bytes; }
}  // namespace

LeapfrogEngine::LeapfrogEngine(DeviceSet& devices, int sm_count, const TuningTable& tuning)
    : m_dev(devices), m_sm(sm_count), m_tuning(tuning) {}

LeapfrogEngine::~LeapfrogEngine() { drop_graph(); }

void LeapfrogEngine::drop_graph() {
    if (m_graph) cudaGraphExecDestroy(m_graph);
    m_graph = nullptr;
}

std::size_t LeapfrogEngine::body_bytes() const { return wide(m_prec) ? sizeof(Dbl4) : sizeof(float4); }

SimParams LeapfrogEngine::resolve(const SimParams& p, std::size_t n, const TuningTable& t, KernelChoice* why,
                                  long long pairs_cap) {
    SimParams r = p;
    if (!p.kernel_auto) return r;
    // The tuning table (the cache file nbody-bench --tune wrote for this GPU and driver, else the built-in
    // H200 one, core/kernel_tuning_h200.txt): the measured winner at the nearest N, or the best
    // interpolated between the two nearest; rows this build cannot run are passed over.
    const KernelChoice c = choose_kernel(t, p.precision, n, [&](KernelVariant v, const KernelShape& s) {
        const KernelEntry* e = find_kernel(p.precision, v, s.k, s.u);
        cudaFuncAttributes attr{};
        if (!e) return false;
        if (v == KernelVariant::Pairs && pairs_scratch_bytes(n, s) > pairs_cap) return false;
        if (cudaFuncGetAttributes(&attr, e->function) != cudaSuccess) return cudaGetLastError(), false;
        return s.block <= attr.maxThreadsPerBlock;
    });
    r.variant = c.variant;
    r.shape = c.shape;
    if (why) *why = c;
    return r;
}

void LeapfrogEngine::allocate(std::size_t n, Precision prec) {
    const std::size_t bb = wide(prec) ? sizeof(Dbl4) : sizeof(float4);
    m_buf.resize(m_dev.size());
    for (std::size_t k = 0; k < m_dev.size(); ++k) {
        const int d = m_dev.parts()[k].device;
        PartBuffers& b = m_buf[k];
        for (int c = 0; c < 2; ++c) {
            // kPairsMaxStrip zeroed (massless) bodies past the last one: the pairs kernel reads whole strips.
            b.pos[c] = DeviceBuffer::alloc(d, (n + kPairsMaxStrip) * bb, "positions");
            NBODY_CUDA_CHECK(cudaSetDevice(d));
            NBODY_CUDA_CHECK(cudaMemset(b.pos[c].get(), 0, b.pos[c].bytes()));
            if (prec == Precision::DS) {
                b.hi[c] = DeviceBuffer::alloc(d, n * sizeof(float4), "double-single positions");
                b.lo[c] = DeviceBuffer::alloc(d, n * sizeof(float4), "double-single positions");
            }
        }
        b.vel = DeviceBuffer::alloc(d, n * bb, "velocities");
        b.acc = DeviceBuffer::alloc(d, n * bb, "accelerations");
    }
}

const KernelEntry* LeapfrogEngine::kernel_for(const SimParams& r) const {
    const KernelVariant v = r.variant;
    const std::string prec(precision_name(r.precision));
    if (v == KernelVariant::Tensor || v == KernelVariant::Pairs) {
        validate_variant_precision(v, r.precision);
        if (m_dev.size() > 1 || m_partition.gather)
            throw ParamError("gpus",
                             "the " + std::string(variant_name(v)) + " kernel runs on one GPU in one process (got " +
                                 std::to_string(m_dev.size()) + " GPU parts" +
                                 (m_partition.gather ? std::string(", several MPI ranks") : std::string()) +
                                 "); use --gpus 1, or another variant on several GPUs");
        if (v == KernelVariant::Tensor) return &tensor_kernel_entry();
        const long long cap = pairs_scratch_cap(m_dev.parts().front().device);
        if (pairs_scratch_bytes(m_n, r.shape) > cap)
            throw ParamError("variant", "pairs keeps one partial sum per body and strip of block x k bodies: " +
                                            std::to_string(pairs_scratch_bytes(m_n, r.shape) >> 20) + " MiB at N = " +
                                            std::to_string(m_n) + ", more than the " + std::to_string(cap >> 20) +
                                            " MiB (a quarter of this GPU's memory) it may take; use ij-unrolled, or a "
                                            "larger block x k");
    }
    const KernelEntry* e = find_kernel(r.precision, v, r.shape.k, r.shape.u);
    if (!e)
        throw ParamError("k", "no " + prec + " kernel compiled for " + std::string(variant_name(v)) + " k " +
                                  std::to_string(r.shape.k) + " u " + std::to_string(r.shape.u) +
                                  " (compiled k x u: " + compiled_shapes(r.precision, v) + ")");
    return e;
}

LeapfrogEngine::Config LeapfrogEngine::configure(const SimParams& p) const {
    Config c;
    NBODY_CUDA_CHECK(cudaSetDevice(m_dev.parts().front().device));
    const bool one_part = m_dev.size() == 1 && !m_partition.gather;
    c.running = resolve(p, m_n, m_tuning, &c.choice, one_part ? pairs_scratch_cap(m_dev.parts().front().device) : 0);
    const KernelVariant v = c.running.variant;
    const KernelShape& shape = c.running.shape;
    const std::string prec(precision_name(p.precision));
    c.kernel = kernel_for(c.running);
    cudaFuncAttributes attr{};
    NBODY_CUDA_CHECK(cudaSetDevice(m_dev.parts().front().device));
    NBODY_CUDA_CHECK(cudaFuncGetAttributes(&attr, c.kernel->function));
    if (shape.block > attr.maxThreadsPerBlock)
        throw ParamError("block", "at most " + std::to_string(attr.maxThreadsPerBlock) + " for " +
                                      std::string(variant_name(v)) + " k " + std::to_string(shape.k) + " u " +
                                      std::to_string(shape.u) + " " + prec + " (" + std::to_string(attr.numRegs) +
                                      " registers per thread); got " + std::to_string(shape.block));
    // Automatic q and s aim at one full wave: as many threads as the SMs can hold at once with this
    // kernel's registers and shared memory.
    int resident = 1;
    NBODY_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &resident, c.kernel->function, shape.block, 2 * static_cast<size_t>(shape.block) * c.kernel->body_bytes));
    for (std::size_t k = 0; k < m_dev.size(); ++k) {
        const DevicePart& part = m_dev.parts()[k];
        const LaunchPlan pl = plan_launch(v, shape, m_ranges[k].size(), m_sm, std::max(1, resident) * shape.block,
                                          m_n, c.kernel->body_bytes);
        c.plans.push_back(pl);
        if (!c.kernel->function_for(pl))  // plans pick the other instance only where the table compiled one
            throw BackendError("no " + std::string(v == KernelVariant::Pairs ? "j-split" : "tile-free") +
                               " instance of " + std::string(variant_name(v)) + " k " + std::to_string(shape.k) +
                               " u " + std::to_string(shape.u) + " " + prec);
        // Scratch for partial sums (the j-split over blocks, the pairs family's slots) and, for the j-split, per-group
        // counters, zeroed once; the last block of a group resets its counter, so they stay zero between launches.
        c.partial.emplace_back();
        c.counters.emplace_back();
        if (pl.partial_bytes > 0)
            c.partial.back() = DeviceBuffer::alloc(part.device, static_cast<std::size_t>(pl.partial_bytes),
                                                   v == KernelVariant::Pairs ? "pairs partial sums" : "j-split partial sums");
        if (pl.splits > 1) {
            c.counters.back() = DeviceBuffer::alloc(part.device, static_cast<std::size_t>(pl.blocks) * sizeof(unsigned),
                                                    "j-split counters");
            NBODY_CUDA_CHECK(cudaSetDevice(part.device));
            NBODY_CUDA_CHECK(cudaMemsetAsync(c.counters.back().get(), 0, c.counters.back().bytes(), part.stream));
        }
    }
    if (v == KernelVariant::Tensor)
        c.tensor = std::make_unique<TensorForce>(m_dev.parts().front().device, m_n);
    return c;
}

void LeapfrogEngine::commit(Config&& c) {
    m_running = c.running;
    m_choice = c.choice;
    m_kernel = c.kernel;
    m_plans = std::move(c.plans);
    m_tensor = std::move(c.tensor);
    for (std::size_t k = 0; k < m_buf.size(); ++k) {
        m_buf[k].partial = std::move(c.partial[k]);
        m_buf[k].counters = std::move(c.counters[k]);
    }
    drop_graph();
}

StepArgs LeapfrogEngine::args(std::size_t k, bool prime) const {
    const PartBuffers& b = m_buf[k];
    const LaunchPlan& pl = m_plans[k];
    // prime: forces at x_n = pos[cur], predicted x_{n+1} into pos[1 - cur].
    // step:  forces at x_{n+1} = pos[1 - cur], x_{n+2} into pos[cur].
    const int in = prime ? m_cur : 1 - m_cur, out = 1 - in;
    StepArgs a{};
    a.in = {b.pos[in].get(), b.hi[in].as<float4>(), b.lo[in].as<float4>()};
    a.pos_out = b.pos[out].get();
    a.hi_out = b.hi[out].as<float4>();
    a.lo_out = b.lo[out].as<float4>();
    a.vel = b.vel.get();
    a.acc = b.acc.get();
    a.partial = b.partial.get();
    a.counters = b.counters.as<unsigned>();
    a.n = static_cast<int>(m_n);
    a.i_begin = static_cast<int>(m_ranges[k].begin);
    a.i_end = static_cast<int>(m_ranges[k].end);
    a.q = pl.q;
    a.splits = pl.splits;
    a.chunk = static_cast<int>(pl.chunk);
    a.tile = pl.tile;
    a.soft2 = static_cast<float>(m_params.eps * m_params.eps) + kSelfInteractionFloor;
    a.soft2_d = m_params.eps * m_params.eps + static_cast<double>(kSelfInteractionFloor);
    a.G = m_params.G;
    a.half_dt = 0.5 * m_params.dt;
    a.dt = m_params.dt;
    a.prime = prime;
    return a;
}

// Part `from` copies the bodies it just updated into every other part's buffers, on its own stream after
// its kernel; each other part waits for that (DeviceSet::wait_for_peers) before it reads them.
void LeapfrogEngine::exchange(std::size_t from, bool prime) {
    const int out = prime ? 1 - m_cur : m_cur;
    const DevicePart& src = m_dev.parts()[from];
    const std::size_t first = m_ranges[from].begin, count = m_ranges[from].size();
    for (std::size_t to = 0; to < m_dev.size(); ++to) {
        if (to == from || count == 0) continue;
        const DevicePart& dst = m_dev.parts()[to];
        auto copy = [&](const DeviceBuffer& s, const DeviceBuffer& d, std::size_t bytes) {
            NBODY_CUDA_CHECK(cudaMemcpyPeerAsync(static_cast<char*>(d.get()) + offset(first, bytes), dst.device,
                                                 static_cast<const char*>(s.get()) + offset(first, bytes), src.device,
                                                 count * bytes, src.stream));
        };
        copy(m_buf[from].pos[out], m_buf[to].pos[out], body_bytes());
        if (m_prec == Precision::DS) {
            copy(m_buf[from].hi[out], m_buf[to].hi[out], sizeof(float4));
            copy(m_buf[from].lo[out], m_buf[to].lo[out], sizeof(float4));
        }
    }
}

void LeapfrogEngine::launch(bool prime) {
    if (m_n == 0) return;
    m_dev.wait_for_peers();
    for (std::size_t k = 0; k < m_dev.size(); ++k) {
        DevicePart& part = m_dev.parts()[k];
        const LaunchPlan& pl = m_plans[k];
        NBODY_CUDA_CHECK(cudaSetDevice(part.device));
        const bool timed = m_dev.size() > 1;  // one GPU: the steps run in a graph, timed as a whole
        if (timed) NBODY_CUDA_CHECK(cudaEventRecord(part.t_start, part.stream));
        if (pl.blocks > 0) {
            const dim3 grid(static_cast<unsigned>(pl.blocks), static_cast<unsigned>(pl.splits));
            const dim3 block(static_cast<unsigned>(pl.block));
            if (m_tensor) {
                m_tensor->launch(args(k, prime), pl, part.stream);  // the sort, then the tensor-core step
            } else {  // tiled or not; pairs: the tiles, then each body's sums and the update
                m_kernel->launcher_for(pl)(grid, block, static_cast<size_t>(pl.shared_bytes), part.stream,
                                           args(k, prime));
                NBODY_CUDA_CHECK_LAUNCH(prime ? "step_kernel (prime)" : "step_kernel");
            }
        }
        if (timed) NBODY_CUDA_CHECK(cudaEventRecord(part.t_kernel, part.stream));
        exchange(k, prime);
        if (timed) {
            NBODY_CUDA_CHECK(cudaEventRecord(part.t_copied, part.stream));
            NBODY_CUDA_CHECK(cudaEventRecord(part.done, part.stream));
        }
    }
    if (!prime) m_cur = 1 - m_cur;
}

void LeapfrogEngine::build_graph() {
    cudaStream_t s = m_dev.parts().front().stream;
    NBODY_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    for (int k = 0; k < kGraphSteps; ++k) launch(false);
    cudaGraph_t g = nullptr;
    NBODY_CUDA_CHECK(cudaStreamEndCapture(s, &g));
    const cudaError_t err = cudaGraphInstantiate(&m_graph, g, 0);
    cudaGraphDestroy(g);
    NBODY_CUDA_CHECK(err);
}

void LeapfrogEngine::reset(const State& s, const SimParams& p) {
    m_n = s.size();
    m_params = p;
    m_prec = p.precision;
    m_ranges = split_ranges(m_n, m_dev.size());
    if (m_partition.gather) {
        if (m_partition.begin > m_partition.end || m_partition.end > m_n)
            throw ParamError("partition", "range [" + std::to_string(m_partition.begin) + ", " +
                                              std::to_string(m_partition.end) + ") outside the " +
                                              std::to_string(m_n) + " bodies");
        // This rank's bodies over its GPUs; the other ranks' arrive through gather_over_ranks.
        m_ranges = split_ranges(m_partition.end - m_partition.begin, m_dev.size());
        for (Range& r : m_ranges) r.begin += m_partition.begin, r.end += m_partition.begin;
    }
    Config c = configure(p);  // may throw: this engine is then dropped, the running one kept
    allocate(m_n, m_prec);
    commit(std::move(c));
    m_cur = 0;
    const std::size_t n = m_n;
    // The float32 kernels take the float64 host state rounded; ds and fp64 keep it whole (Double4 and Dbl4
    // share their layout).
    std::vector<Float4> pos32, vel32;
    std::vector<Float4> hi, lo;
    if (!wide(m_prec)) {
        pos32.resize(n), vel32.resize(n);
        for (std::size_t i = 0; i < n; ++i) pos32[i] = to_float4(s.pos_mass[i]), vel32[i] = to_float4(s.vel[i]);
    } else if (m_prec == Precision::DS) {
        hi.resize(n), lo.resize(n);
        for (std::size_t i = 0; i < n; ++i) split_ds(s.pos_mass[i], hi[i], lo[i]);
    }
    const void* pos_src = wide(m_prec) ? static_cast<const void*>(s.pos_mass.data()) : pos32.data();
    const void* vel_src = wide(m_prec) ? static_cast<const void*>(s.vel.data()) : vel32.data();
    for (std::size_t k = 0; k < m_dev.size(); ++k) {
        const DevicePart& part = m_dev.parts()[k];
        PartBuffers& b = m_buf[k];
        NBODY_CUDA_CHECK(cudaSetDevice(part.device));
        NBODY_CUDA_CHECK(cudaMemcpyAsync(b.pos[0].get(), pos_src, n * body_bytes(), cudaMemcpyHostToDevice, part.stream));
        NBODY_CUDA_CHECK(cudaMemcpyAsync(b.vel.get(), vel_src, n * body_bytes(), cudaMemcpyHostToDevice, part.stream));
        if (m_prec == Precision::DS) {
            NBODY_CUDA_CHECK(cudaMemcpyAsync(b.hi[0].get(), hi.data(), n * sizeof(float4), cudaMemcpyHostToDevice, part.stream));
            NBODY_CUDA_CHECK(cudaMemcpyAsync(b.lo[0].get(), lo.data(), n * sizeof(float4), cudaMemcpyHostToDevice, part.stream));
        }
        NBODY_CUDA_CHECK(cudaEventRecord(part.done, part.stream));
    }
    m_group = s.group;
    m_time = s.time;
    m_steps = 0;
    launch(true);
    if (m_partition.gather) gather_over_ranks();  // every rank's predicted positions, before the first step
    m_dev.synchronize();  // the host arrays above go out of scope
}

void LeapfrogEngine::set_params(const SimParams& p) {
    const SimParams old = m_params;
    if (p.kernel_auto != old.kernel_auto || p.variant != old.variant || p.shape != old.shape)
        commit(configure(p));  // all or nothing
    m_params = p;
    // The predicted positions depend on dt and the stored accelerations on eps and G: re-prime.
    if (p.dt != old.dt || p.eps != old.eps || p.G != old.G) {
        drop_graph();
        launch(true);
        if (m_partition.gather) gather_over_ranks();  // every rank re-primes: DistributedBackend forwards to all
    }
}

void LeapfrogEngine::step(int k) {
    const bool graphs = m_dev.size() == 1 && !m_partition.gather;
    while (k > 0) {
        if (graphs && m_cur == 0 && k >= kGraphSteps) {
            if (!m_graph) build_graph();  // capture records launches without running them; m_cur is back at 0
            NBODY_CUDA_CHECK(cudaSetDevice(m_dev.parts().front().device));
            NBODY_CUDA_CHECK(cudaGraphLaunch(m_graph, m_dev.parts().front().stream));
            k -= kGraphSteps;
            m_steps += kGraphSteps;
            for (int i = 0; i < kGraphSteps; ++i) m_time += m_params.dt;  // as the single steps add it
        } else {
            launch(false);
            if (m_partition.gather) gather_over_ranks();
            --k;
            ++m_steps;
            m_time += m_params.dt;
        }
    }
}

void LeapfrogEngine::read_state(State& out) {
    m_dev.synchronize();
    const std::size_t n = m_n;
    out.resize(n);
    const std::size_t bb = body_bytes();
    std::vector<unsigned char> pos(n * bb), vel(n * bb);
    const DevicePart& first = m_dev.parts().front();
    NBODY_CUDA_CHECK(cudaSetDevice(first.device));
    NBODY_CUDA_CHECK(cudaMemcpy(pos.data(), m_buf.front().pos[m_cur].get(), n * bb, cudaMemcpyDeviceToHost));
    // Velocities are current only on the part that owns each body.
    for (std::size_t k = 0; k < m_dev.size(); ++k) {
        const Range r = m_ranges[k];
        if (r.size() == 0) continue;
        NBODY_CUDA_CHECK(cudaSetDevice(m_dev.parts()[k].device));
        NBODY_CUDA_CHECK(cudaMemcpy(vel.data() + r.begin * bb, m_buf[k].vel.as<char>() + r.begin * bb, r.size() * bb,
                                    cudaMemcpyDeviceToHost));
    }
    if (wide(m_prec)) {
        std::memcpy(out.pos_mass.data(), pos.data(), n * bb);
        std::memcpy(out.vel.data(), vel.data(), n * bb);
    } else {
        const auto* p = reinterpret_cast<const Float4*>(pos.data());
        const auto* v = reinterpret_cast<const Float4*>(vel.data());
        for (std::size_t i = 0; i < n; ++i) out.pos_mass[i] = to_double4(p[i]), out.vel[i] = to_double4(v[i]);
    }
    out.group = m_group;
    out.time = m_time;
}

void LeapfrogEngine::read_accelerations(std::vector<Double4>& out) {
    m_dev.synchronize();
    const std::size_t bb = body_bytes();
    std::vector<unsigned char> acc(m_n * bb);
    for (std::size_t k = 0; k < m_dev.size(); ++k) {
        const Range r = m_ranges[k];
        if (r.size() == 0) continue;
        NBODY_CUDA_CHECK(cudaSetDevice(m_dev.parts()[k].device));
        NBODY_CUDA_CHECK(cudaMemcpy(acc.data() + r.begin * bb, m_buf[k].acc.as<char>() + r.begin * bb, r.size() * bb,
                                    cudaMemcpyDeviceToHost));
    }
    out.resize(m_n);
    if (wide(m_prec)) {
        std::memcpy(out.data(), acc.data(), m_n * bb);
    } else {
        const auto* a = reinterpret_cast<const Float4*>(acc.data());
        for (std::size_t i = 0; i < m_n; ++i) out[i] = to_double4(a[i]);
    }
}

void LeapfrogEngine::positions_to_device(void* dst) {
    const DevicePart& first = m_dev.parts().front();
    NBODY_CUDA_CHECK(cudaSetDevice(first.device));
    if (wide(m_prec)) {
        const int block = 256;
        to_float4_kernel<<<static_cast<unsigned>((m_n + block - 1) / block), block, 0, first.stream>>>(
            m_buf.front().pos[m_cur].as<const Dbl4>(), static_cast<float4*>(dst), static_cast<int>(m_n));
        NBODY_CUDA_CHECK_LAUNCH("to_float4_kernel");
    } else {
        // Device to device on our stream; the caller's unmap (stream 0) orders GL after it.
        NBODY_CUDA_CHECK(cudaMemcpyAsync(dst, m_buf.front().pos[m_cur].get(), m_n * sizeof(float4),
                                         cudaMemcpyDeviceToDevice, first.stream));
    }
    m_dev.synchronize();
}

void LeapfrogEngine::positions_to_host(Float4* dst) {
    m_dev.synchronize();
    NBODY_CUDA_CHECK(cudaSetDevice(m_dev.parts().front().device));
    if (!wide(m_prec)) {
        NBODY_CUDA_CHECK(cudaMemcpy(dst, m_buf.front().pos[m_cur].get(), m_n * sizeof(float4), cudaMemcpyDeviceToHost));
        return;
    }
    std::vector<Double4> pos(m_n);
    NBODY_CUDA_CHECK(cudaMemcpy(pos.data(), m_buf.front().pos[m_cur].get(), m_n * sizeof(Dbl4), cudaMemcpyDeviceToHost));
    for (std::size_t i = 0; i < m_n; ++i) dst[i] = to_float4(pos[i]);
}

double LeapfrogEngine::potential_energy() {
    if (m_n == 0) return 0.0;
    m_dev.synchronize();
    // Each part sums its own bodies against all N (every part holds every position), the parts in parallel.
    std::vector<PotentialSum> parts(m_dev.size());
    const int n = static_cast<int>(m_n);
    for (std::size_t k = 0; k < m_dev.size(); ++k) {
        const DevicePart& part = m_dev.parts()[k];
        parts[k].launch(m_buf[k].pos[m_cur].get(), wide(m_prec), n, static_cast<int>(m_ranges[k].begin),
                        static_cast<int>(m_ranges[k].end), m_params.eps * m_params.eps, part.device, part.stream);
    }
    double sum = 0;
    for (PotentialSum& p : parts) sum += p.sum();
    return -0.5 * m_params.G * sum;
}

std::string LeapfrogEngine::kernel_label() const {
    const LaunchPlan pl = plan();
    KernelShape shown = m_running.shape;
    shown.q = pl.q;  // what the planner chose for "auto"
    shown.s = pl.splits;
    std::string s = nbody::kernel_label(m_running.variant, shown) + (m_params.kernel_auto ? " (auto)" : "") + ", " +
                    std::string(precision_name(m_params.precision));
    if (m_dev.size() > 1)
        s += ", " + std::to_string(m_dev.size()) + " parts" + (m_dev.peer_access() ? "" : " (no peer access)");
    return s;
}

std::string LeapfrogEngine::kernel_choice() const { return m_params.kernel_auto ? describe(m_choice) : std::string(); }

WorkCount LeapfrogEngine::work() const {
    const double n = static_cast<double>(m_n);
    return {m_steps, static_cast<double>(m_steps) * n * n, kFlopsPerInteractionNvidia};
}

KernelResources LeapfrogEngine::resources() const {
    if (!m_kernel) return {};
    cudaFuncAttributes attr{};
    NBODY_CUDA_CHECK(cudaFuncGetAttributes(&attr, m_plans.empty() ? m_kernel->function
                                                                   : m_kernel->function_for(m_plans.front())));
    return {attr.numRegs, attr.maxThreadsPerBlock, static_cast<int>(attr.localSizeBytes)};
}

std::vector<DeviceTiming> LeapfrogEngine::timings() const {
    std::vector<DeviceTiming> out;
    if (m_dev.size() < 2) return out;
    for (const DevicePart& part : m_dev.parts()) {
        DeviceTiming t;
        t.device = "GPU " + std::to_string(part.device);
        float kernel = 0, copy = 0;
        // The events of a step still running (or never recorded) have no time yet: report zeros.
        if (cudaEventElapsedTime(&kernel, part.t_start, part.t_kernel) == cudaSuccess &&
            cudaEventElapsedTime(&copy, part.t_kernel, part.t_copied) == cudaSuccess)
            t.kernel_ms = kernel, t.exchange_ms = copy;
        else
            cudaGetLastError();
        out.push_back(t);
    }
    return out;
}

// After a step (or the priming evaluation) of a distributed run: each part's new positions (its share of this rank's range) to the host
// as float64, the all-gather over ranks, and every other rank's bodies uploaded to every part. 16 or 32 bytes
// per body each way over PCIe; a CUDA-aware MPI could gather device buffers instead.
void LeapfrogEngine::gather_over_ranks() {
    // The copies below queue on each part's stream after its kernel; one wait after them. The positions the last launch wrote (a step's x_{n+2}, the prime's predicted x_{n+1}): pos[1 - cur], the
    // next step's input (args()).
    const int fresh = 1 - m_cur;
    const std::size_t n = m_n, bb = body_bytes(), pb = m_partition.begin, pe = m_partition.end;
    m_staging.resize(n * bb);
    m_all.resize(n);
    for (std::size_t k = 0; k < m_dev.size(); ++k) {
        const Range r = m_ranges[k];
        const DevicePart& part = m_dev.parts()[k];
        NBODY_CUDA_CHECK(cudaSetDevice(part.device));
        NBODY_CUDA_CHECK(cudaMemcpyAsync(m_staging.data() + r.begin * bb,
                                         static_cast<const char*>(m_buf[k].pos[fresh].get()) + r.begin * bb,
                                         r.size() * bb, cudaMemcpyDeviceToHost, part.stream));
    }
    m_dev.synchronize();
    for (std::size_t i = pb; i < pe; ++i)
        m_all[i] = wide(m_prec) ? reinterpret_cast<const Double4*>(m_staging.data())[i]
                                : to_double4(reinterpret_cast<const Float4*>(m_staging.data())[i]);
    m_partition.gather(m_all);
    std::vector<Float4>& hi = m_staging_hi;
    std::vector<Float4>& lo = m_staging_lo;
    if (m_prec == Precision::DS) hi.resize(n), lo.resize(n);
    auto convert = [&](std::size_t i) {
        const Double4 d = m_all[i];
        if (wide(m_prec)) reinterpret_cast<Double4*>(m_staging.data())[i] = d;
        else reinterpret_cast<Float4*>(m_staging.data())[i] = to_float4(d);
        if (m_prec == Precision::DS) split_ds(d, hi[i], lo[i]);
    };
    for (std::size_t i = 0; i < pb; ++i) convert(i);
    for (std::size_t i = pe; i < n; ++i) convert(i);
    // On each part's own stream (created non-blocking: a plain cudaMemcpy on the default stream would not be
    // ordered before the next step's kernel), then waited for: the host buffers are reused.
    for (std::size_t k = 0; k < m_dev.size(); ++k) {
        PartBuffers& b = m_buf[k];
        const DevicePart& part = m_dev.parts()[k];
        NBODY_CUDA_CHECK(cudaSetDevice(part.device));
        auto upload = [&](const DeviceBuffer& d, const void* src, std::size_t first, std::size_t count, std::size_t w) {
            NBODY_CUDA_CHECK(cudaMemcpyAsync(static_cast<char*>(d.get()) + first * w,
                                             static_cast<const char*>(src) + first * w, count * w,
                                             cudaMemcpyHostToDevice, part.stream));
        };
        for (const Range r : {Range{0, pb}, Range{pe, n}}) {
            if (r.size() == 0) continue;
            upload(b.pos[fresh], m_staging.data(), r.begin, r.size(), bb);
            if (m_prec != Precision::DS) continue;
            upload(b.hi[fresh], hi.data(), r.begin, r.size(), sizeof(float4));
            upload(b.lo[fresh], lo.data(), r.begin, r.size(), sizeof(float4));
        }
    }
    m_dev.synchronize();
}

}  // namespace nbody::kernels
