// The tree engine's block time line (tree_block_steps.cuh). Kicks and drifts are the shared engine's
// (tree_kick, tree_drift) with the same float factors: float(G dt / 2) and float(t_next - clock), so one level
// reproduces it bit for bit. The step rule is the CPU's (core/physics/leapfrog.hpp, core/physics/hermite.hpp),
// in double from the float state.
#include <cub/device/device_reduce.cuh>

#include <climits>
#include <cmath>

#include "common/cuda_check.cuh"
#include "core/backend/block_levels.hpp"
#include "core/physics/block_underflow.hpp"
#include "core/errors.hpp"
#include "core/physics/hermite.hpp"
#include "core/physics/leapfrog.hpp"
#include "tree/tree_block_steps.cuh"

namespace nbody::kernels {

namespace {

constexpr int kBlock = 256;

int blocks_for(std::size_t n) { return static_cast<int>((n + kBlock - 1) / kBlock); }

// A body's wanted step from its acceleration (without G: times G here) and velocity.
__device__ inline double wanted_step(const float4& a, const float4& v, const BlockRule& r) {
    const double ax = r.G * a.x, ay = r.G * a.y, az = r.G * a.z;
    const double vx = v.x, vy = v.y, vz = v.z;
    return block_leapfrog_step(r.eta, r.eps, ax * ax + ay * ay + az * az, vx * vx + vy * vy + vz * vz);
}

// The first refused body (the lowest index) and its wanted step. Two refusals rarely race; the lower index
// wins the atomicMin, and its wanted step is written by whoever wrote last among equal indices (one).
__device__ inline void refuse(BlockScalars* sc, int i, double want) {
    if (atomicMin(&sc->bad, i) > i) sc->bad_want = want;
}

__global__ void first_steps_kernel(TreeBodies b, BlockRule r, double* t, double* dt, double* t_end,
                                   BlockScalars* sc) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= b.n) return;
    const double want = wanted_step(b.acc[i], b.vel[i], r);
    const double step = hermite::block_step(want, 0.0, 0.0, r.dt_max);
    if (step == 0.0) refuse(sc, i, want);
    t[i] = 0.0, dt[i] = step, t_end[i] = step;
}

// One pass over the bodies after the next block time is known: v += G dt / 2 a for the bodies whose steps
// start at the clock (6 flops a body so kicked), then x += (t_next - clock) v for every body (6 flops), and the
// active flags of the bodies due at t_next, counted a block at a time. One launch, not two: a sub-step of a few
// due bodies is launches and waits more than arithmetic. Nothing where the closing step just before refused a
// body (end_and_begin_step): the run stays at the closed step, where the refusal is reported.
// One atomic a block, not a warp: with every body due (2,097,152) a warp's atomic on the one count made 65,536
// atomics on one word, and the pass took 111 us on an H200 against the closing kicks' 41 over more bytes.
__global__ void kick_drift_mark_kernel(TreeBodies b, const double* t, const double* dt, const double* t_end,
                                       double clock, double G, BlockScalars* sc, uint8_t* active) {
    if (sc->bad != INT_MAX) return;  // the same for every thread
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const double t_next = sc->t_next;
    bool due = false;
    if (i < b.n) {
        float4 v = b.vel[i];
        if (t[i] == clock) {
            tree_kick(v, b.acc[i], static_cast<float>(0.5 * dt[i] * G));
            b.vel[i] = v;
        }
        const float h = static_cast<float>(t_next - clock);
        float4 x = b.pos[i];
        tree_drift(x, v, h);
        b.pos[i] = x;
        due = t_end[i] == t_next;
        active[i] = due;
    }
    const int block_due = __syncthreads_count(due);
    if (threadIdx.x == 0 && block_due) atomicAdd(&sc->active, unsigned(block_due));
}

// The active bodies' closing kicks (6 flops) and next steps.
__global__ void close_kernel(TreeBodies b, BlockRule r, const uint8_t* active, double* t, double* dt,
                             double* t_end, BlockScalars* sc) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= b.n || !active[i]) return;
    const double t_next = sc->t_next;
    float4 v = b.vel[i];
    const float4 a = b.acc[i];
    tree_kick(v, a, static_cast<float>(0.5 * dt[i] * r.G));
    b.vel[i] = v;
    const double want = wanted_step(a, v, r);
    const double step = hermite::block_step(held_leapfrog_want(want, dt[i]), dt[i], t_next, r.dt_max);
    if (step > 0.0)
        dt[i] = step;
    else
        refuse(sc, i, want);
    t[i] = t_next;
    t_end[i] = t_next + dt[i];
}

__global__ void ends_kernel(const double* t, const double* dt, double* t_end, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) t_end[i] = t[i] + dt[i];
}

// The level histogram (core/backend/block_levels.hpp's block_level): per block in shared memory, then into the 64
// global counts, so the panels read 512 bytes instead of every body's step.
__global__ void level_count_kernel(const double* dt, int n, double dt_max, unsigned long long* bins) {
    __shared__ unsigned s_bins[kMaxBlockLevel + 1];
    for (int k = int(threadIdx.x); k <= kMaxBlockLevel; k += blockDim.x) s_bins[k] = 0;
    __syncthreads();
    for (int i = int(blockIdx.x * blockDim.x + threadIdx.x); i < n; i += int(gridDim.x * blockDim.x))
        atomicAdd(&s_bins[block_level(dt[i], dt_max)], 1u);
    __syncthreads();
    for (int k = int(threadIdx.x); k <= kMaxBlockLevel; k += blockDim.x)
        if (s_bins[k] != 0) atomicAdd(&bins[k], static_cast<unsigned long long>(s_bins[k]));
}
}  // namespace

void TreeBlockSteps::allocate(int device, std::size_t n) {
    m_device = device;
    m_n = n;
    const std::size_t bytes = std::max<std::size_t>(1, n) * sizeof(double);
    m_t = DeviceBuffer::alloc(device, bytes, "tree block steps: step starts");
    m_dt = DeviceBuffer::alloc(device, bytes, "tree block steps: steps");
    m_t_end = DeviceBuffer::alloc(device, bytes, "tree block steps: step ends");
    m_active = DeviceBuffer::alloc(device, std::max<std::size_t>(1, n), "tree block steps: active flags");
    m_scalars = DeviceBuffer::alloc(device, sizeof(BlockScalars), "tree block steps: scalars");
    m_level_bins = DeviceBuffer::alloc(device, (kMaxBlockLevel + 1) * sizeof(unsigned long long),
                                       "tree block steps: level counts");
    std::size_t scratch = 0;
    NBODY_CUDA_CHECK(cub::DeviceReduce::Min(nullptr, scratch, static_cast<const double*>(nullptr),
                                            static_cast<double*>(nullptr), int(std::max<std::size_t>(1, n))));
    m_scratch = DeviceBuffer::alloc(device, std::max<std::size_t>(1, scratch), "tree block steps: reduction");
    m_scratch_bytes = scratch;
    if (!m_host_scalars.get()) m_host_scalars = Pinned<BlockScalars>(1);
    m_clock = m_t_next = 0;
}

void TreeBlockSteps::read_scalars(cudaStream_t s) {
    NBODY_CUDA_CHECK(
        cudaMemcpyAsync(m_host_scalars.get(), m_scalars.get(), sizeof(BlockScalars), cudaMemcpyDeviceToHost, s));
    NBODY_CUDA_CHECK(cudaStreamSynchronize(s));
    const BlockScalars& sc = m_host_scalars[0];
    m_t_next = sc.t_next;
    m_active_count = sc.active;
    m_bad = sc.bad == INT_MAX ? -1 : sc.bad;
    m_bad_want = sc.bad_want;
}

void TreeBlockSteps::start(const TreeBodies& b, const BlockRule& r, cudaStream_t s) {
    const BlockScalars init{0.0, 0u, INT_MAX, 0.0};
    NBODY_CUDA_CHECK(cudaMemcpyAsync(m_scalars.get(), &init, sizeof init, cudaMemcpyHostToDevice, s));
    m_clock = 0;
    if (b.n > 0) {
        first_steps_kernel<<<blocks_for(b.n), kBlock, 0, s>>>(b, r, m_t.as<double>(), m_dt.as<double>(),
                                                               m_t_end.as<double>(), m_scalars.as<BlockScalars>());
        NBODY_CUDA_CHECK_LAUNCH("first_steps_kernel");
    }
    read_scalars(s);
    if (m_bad >= 0) block_underflow(std::size_t(m_bad), 0.0, m_bad_want);
}

std::size_t TreeBlockSteps::begin_step(const TreeBodies& b, double G, cudaStream_t s) {
    const unsigned none[2] = {0u, unsigned(INT_MAX)};  // active, bad
    NBODY_CUDA_CHECK(cudaMemcpyAsync(&m_scalars.as<BlockScalars>()->active, none, sizeof none,
                                     cudaMemcpyHostToDevice, s));
    enqueue_begin(b, G, s);
    read_scalars(s);
    return m_active_count;
}

void TreeBlockSteps::enqueue_begin(const TreeBodies& b, double G, cudaStream_t s) {
    BlockScalars* sc = m_scalars.as<BlockScalars>();
    std::size_t bytes = m_scratch_bytes;
    NBODY_CUDA_CHECK(cub::DeviceReduce::Min(m_scratch.get(), bytes, m_t_end.as<const double>(), &sc->t_next,
                                            b.n, s));
    kick_drift_mark_kernel<<<blocks_for(b.n), kBlock, 0, s>>>(b, m_t.as<const double>(), m_dt.as<const double>(),
                                                               m_t_end.as<const double>(), m_clock, G, sc,
                                                               m_active.as<uint8_t>());
    NBODY_CUDA_CHECK_LAUNCH("kick_drift_mark_kernel");
}

void TreeBlockSteps::enqueue_close(const TreeBodies& b, const BlockRule& r, cudaStream_t s) {
    close_kernel<<<blocks_for(b.n), kBlock, 0, s>>>(b, r, m_active.as<const uint8_t>(), m_t.as<double>(),
                                                     m_dt.as<double>(), m_t_end.as<double>(),
                                                     m_scalars.as<BlockScalars>());
    NBODY_CUDA_CHECK_LAUNCH("close_kernel");
}

void TreeBlockSteps::end_step(const TreeBodies& b, const BlockRule& r, cudaStream_t s) {
    enqueue_close(b, r, s);
    read_scalars(s);
    m_clock = m_t_next;
    if (m_bad >= 0) block_underflow(std::size_t(m_bad), m_clock, m_bad_want);
}

std::size_t TreeBlockSteps::end_and_begin_step(const TreeBodies& b, const BlockRule& r, cudaStream_t s) {
    // The active count is zeroed first; the refusal flag, which begin_step also clears, stays as the close
    // leaves it (it was clear when the step began), so the opening sees a refusal and does nothing.
    NBODY_CUDA_CHECK(cudaMemsetAsync(&m_scalars.as<BlockScalars>()->active, 0, sizeof(unsigned), s));
    enqueue_close(b, r, s);
    m_clock = m_t_next;
    enqueue_begin(b, r.G, s);
    read_scalars(s);
    if (m_bad >= 0) {
        m_t_next = m_clock;  // the next step did not begin
        block_underflow(std::size_t(m_bad), m_clock, m_bad_want);
    }
    return m_active_count;
}

void TreeBlockSteps::read(std::vector<double>& t, std::vector<double>& dt) const {
    t.resize(m_n);
    if (m_n) NBODY_CUDA_CHECK(cudaMemcpy(t.data(), m_t.get(), m_n * sizeof(double), cudaMemcpyDeviceToHost));
    dt.resize(m_n);
    if (m_n) NBODY_CUDA_CHECK(cudaMemcpy(dt.data(), m_dt.get(), m_n * sizeof(double), cudaMemcpyDeviceToHost));
}

void TreeBlockSteps::read_row(std::size_t i, double& t, double& dt) const {
    NBODY_CUDA_CHECK(cudaMemcpy(&t, m_t.as<const double>() + i, sizeof(double), cudaMemcpyDeviceToHost));
    NBODY_CUDA_CHECK(cudaMemcpy(&dt, m_dt.as<const double>() + i, sizeof(double), cudaMemcpyDeviceToHost));
}

std::vector<std::size_t> TreeBlockSteps::level_counts(double dt_max, cudaStream_t s) {
    std::vector<std::size_t> out;
    if (m_n == 0) return out;
    unsigned long long bins[kMaxBlockLevel + 1];
    NBODY_CUDA_CHECK(cudaMemsetAsync(m_level_bins.get(), 0, sizeof bins, s));
    level_count_kernel<<<std::min(blocks_for(m_n), 1024), kBlock, 0, s>>>(
        m_dt.as<const double>(), int(m_n), dt_max, m_level_bins.as<unsigned long long>());
    NBODY_CUDA_CHECK_LAUNCH("level_count_kernel");
    NBODY_CUDA_CHECK(cudaMemcpyAsync(bins, m_level_bins.get(), sizeof bins, cudaMemcpyDeviceToHost, s));
    NBODY_CUDA_CHECK(cudaStreamSynchronize(s));
    int deepest = kMaxBlockLevel;
    while (deepest > 0 && bins[deepest] == 0) --deepest;
    out.assign(bins, bins + deepest + 1);
    return out;
}

void TreeBlockSteps::refresh_ends(cudaStream_t s) {
    if (m_n == 0) return;
    ends_kernel<<<blocks_for(m_n), kBlock, 0, s>>>(m_t.as<const double>(), m_dt.as<const double>(),
                                                    m_t_end.as<double>(), int(m_n));
    NBODY_CUDA_CHECK_LAUNCH("ends_kernel");
    NBODY_CUDA_CHECK(cudaStreamSynchronize(s));
}

void TreeBlockSteps::write(const std::vector<double>& t, const std::vector<double>& dt, double clock,
                           cudaStream_t s) {
    if (t.size() != m_n || dt.size() != m_n) throw Error("tree block steps: one step start and step a body");
    NBODY_CUDA_CHECK(cudaMemcpyAsync(m_t.get(), t.data(), m_n * sizeof(double), cudaMemcpyHostToDevice, s));
    NBODY_CUDA_CHECK(cudaMemcpyAsync(m_dt.get(), dt.data(), m_n * sizeof(double), cudaMemcpyHostToDevice, s));
    m_clock = m_t_next = clock;
    refresh_ends(s);
}

void TreeBlockSteps::save(char* dst, cudaStream_t s) const {
    const std::size_t bytes = m_n * sizeof(double);
    NBODY_CUDA_CHECK(cudaMemcpyAsync(dst, m_t.get(), bytes, cudaMemcpyDeviceToDevice, s));
    NBODY_CUDA_CHECK(cudaMemcpyAsync(dst + bytes, m_dt.get(), bytes, cudaMemcpyDeviceToDevice, s));
}

void TreeBlockSteps::restore(const char* src, double clock, cudaStream_t s) {
    const std::size_t bytes = m_n * sizeof(double);
    NBODY_CUDA_CHECK(cudaMemcpyAsync(m_t.get(), src, bytes, cudaMemcpyDeviceToDevice, s));
    NBODY_CUDA_CHECK(cudaMemcpyAsync(m_dt.get(), src + bytes, bytes, cudaMemcpyDeviceToDevice, s));
    m_clock = m_t_next = clock;
    refresh_ends(s);
}

}  // namespace nbody::kernels
