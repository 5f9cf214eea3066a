// The CUDA backend: device state, the step launches (batched in a CUDA graph), read-back and interop
// output. The kernels themselves are in step_kernel.cuh.
#include "cuda_backend.hpp"

#include <algorithm>
#include <cstring>

#include "core/errors.hpp"
#include "cpu/force_f32.hpp"
#include "cuda_check.cuh"
#include "kernel_table.cuh"
#include "potential_kernel.cuh"

namespace nbody {

// Steps captured in one CUDA graph: an even number, so the double-buffered positions end where they
// began and the graph can be replayed. 32 steps make the ~4 us graph launch negligible.
constexpr int kGraphSteps = 32;

struct CudaBackend::Impl {
    CudaDeviceInfo info;
    cudaStream_t stream = nullptr;
    cudaEvent_t ev_start = nullptr, ev_stop = nullptr;
    float4* pos[2] = {nullptr, nullptr};  // pos[cur] = x_n, pos[1 - cur] = x_{n+1} (see StepArgs)
    float4* vel = nullptr;
    float4* acc = nullptr;
    std::size_t n = 0, capacity = 0;
    int cur = 0;
    SimParams params;
    LaunchPlan plan;
    const kernels::KernelEntry* kernel = nullptr;
    SimParams running;  // params with the kernel choice resolved (kernel_auto replaced by what was chosen)
    std::vector<uint32_t> group;
    double time = 0;
    long long steps = 0;
    cudaGraphExec_t graph = nullptr;  // kGraphSteps steps starting from cur == 0; null when stale

    ~Impl() {
        drop_graph();
        free_buffers(pos[0], pos[1], vel, acc);
        if (ev_start) cudaEventDestroy(ev_start);
        if (ev_stop) cudaEventDestroy(ev_stop);
        if (stream) cudaStreamDestroy(stream);
    }

    static void free_buffers(float4* a, float4* b, float4* c, float4* d) {
        for (float4* p : {a, b, c, d})
            if (p) cudaFree(p);
    }

    void drop_graph() {
        if (graph) cudaGraphExecDestroy(graph);
        graph = nullptr;
    }

    // Allocates for n bodies. On failure (out of memory) frees what it got, keeps the old buffers and
    // state intact, and throws.
    void ensure_capacity(std::size_t want) {
        if (want <= capacity) return;
        float4* fresh[4] = {nullptr, nullptr, nullptr, nullptr};
        const std::size_t bytes = want * sizeof(float4);
        for (float4*& p : fresh) {
            const cudaError_t err = cudaMalloc(&p, bytes);
            if (err != cudaSuccess) {
                cudaGetLastError();  // clear it, or the next launch check would report it
                free_buffers(fresh[0], fresh[1], fresh[2], fresh[3]);
                throw BackendError("cudaMalloc of 4 x " + std::to_string(bytes >> 20) + " MiB for N = " +
                                   std::to_string(want) + " failed: " + cudaGetErrorString(err) +
                                   "; keeping the previous state");
            }
        }
        drop_graph();
        free_buffers(pos[0], pos[1], vel, acc);
        pos[0] = fresh[0], pos[1] = fresh[1], vel = fresh[2], acc = fresh[3];
        capacity = want;
    }

    KernelResources resources(const kernels::KernelEntry& e) const {
        cudaFuncAttributes attr{};
        NBODY_CUDA_CHECK(cudaFuncGetAttributes(&attr, e.function));
        return {attr.numRegs, attr.maxThreadsPerBlock, static_cast<int>(attr.localSizeBytes)};
    }

    // The variant and shape that run: the user's, or for kernel_auto the one chosen for this N.
    // (The tuned per-N choice comes with the auto-tuning work; until then auto is the default shape.)
    SimParams resolved() const {
        SimParams r = params;
        if (r.kernel_auto) {
            r.variant = KernelVariant::IJUnrolled;
            r.shape = variant_info(r.variant).default_shape;
        }
        return r;
    }

    // What this backend runs today; the others are refused with the reason, keeping the running state.
    static void check_supported(const SimParams& p) {
        if (p.precision != Precision::Fp32)
            throw ParamError("precision", "the CUDA backend runs fp32 only so far (got " +
                                              std::string(precision_name(p.precision)) + ")");
        if (p.integrator != Integrator::LeapFrog)
            throw ParamError("integrator", "the CUDA backend runs leapfrog only so far (got " +
                                               std::string(integrator_name(p.integrator)) + ")");
        if (p.gpus != 1)
            throw ParamError("gpus", "the CUDA backend runs on one GPU only so far (got " + std::to_string(p.gpus) + ")");
    }

    // Picks the kernel instance and launch shape for the current params and N.
    void configure() {
        const SimParams use = resolved();
        const kernels::KernelEntry* e = kernels::find_kernel(use.variant, use.shape.k, use.shape.u);
        if (!e) throw ParamError("k", "no kernel compiled for this variant with k " + std::to_string(use.shape.k) +
                                          ", u " + std::to_string(use.shape.u));
        const KernelResources r = resources(*e);
        // Automatic q aims at one full wave: as many threads as the SMs can hold at once with this
        // kernel's registers and shared memory.
        int resident = 1;
        if (use.shape.block <= r.max_block)
            NBODY_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                &resident, e->function, use.shape.block, 2 * use.shape.block * sizeof(float4)));
        const LaunchPlan p =
            plan_launch(use.variant, use.shape, n, info.sm_count, std::max(1, resident) * use.shape.block);
        if (p.block > r.max_block)
            throw ParamError("block", "at most " + std::to_string(r.max_block) + " for " +
                                          std::string(variant_name(use.variant)) + " k " + std::to_string(p.k) +
                                          " u " + std::to_string(p.u) + " (" + std::to_string(r.registers) +
                                          " registers per thread); got " + std::to_string(p.block));
        plan = p;
        kernel = e;
        running = use;
        drop_graph();
    }

    kernels::StepArgs args(bool prime) const {
        kernels::StepArgs a{};
        // prime: forces at x_n = pos[cur], predicted x_{n+1} into pos[1 - cur].
        // step:  forces at x_{n+1} = pos[1 - cur], x_{n+2} into pos[cur].
        a.pos_in = prime ? pos[cur] : pos[1 - cur];
        a.pos_out = prime ? pos[1 - cur] : pos[cur];
        a.vel = vel;
        a.acc = acc;
        a.n = static_cast<int>(n);
        a.q = plan.q;
        a.tile = plan.tile;
        a.soft2 = static_cast<float>(params.eps * params.eps) + kSelfInteractionFloor;
        a.G = static_cast<float>(params.G);
        a.half_dt = static_cast<float>(0.5 * params.dt);
        a.dt = static_cast<float>(params.dt);
        a.prime = prime;
        return a;
    }

    void launch(bool prime) {
        if (n == 0) return;
        const dim3 grid(static_cast<unsigned>(plan.blocks)), block(static_cast<unsigned>(plan.block));
        kernel->launch(grid, block, 2 * plan.tile * sizeof(float4), stream, args(prime));  // double-buffered tiles
        NBODY_CUDA_CHECK_LAUNCH(prime ? "step_kernel (prime)" : "step_kernel");
        if (!prime) cur = 1 - cur;
    }

    void build_graph() {
        NBODY_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
        for (int s = 0; s < kGraphSteps; ++s) launch(false);
        cudaGraph_t g = nullptr;
        NBODY_CUDA_CHECK(cudaStreamEndCapture(stream, &g));
        const cudaError_t err = cudaGraphInstantiate(&graph, g, 0);
        cudaGraphDestroy(g);
        NBODY_CUDA_CHECK(err);
    }

    void step(int k) {
        while (k > 0) {
            if (cur == 0 && k >= kGraphSteps) {
                if (!graph) build_graph();  // capture records launches without running them; cur is back at 0
                NBODY_CUDA_CHECK(cudaGraphLaunch(graph, stream));
                k -= kGraphSteps;
                steps += kGraphSteps;
                time += kGraphSteps * params.dt;
            } else {
                launch(false);
                --k;
                ++steps;
                time += params.dt;
            }
        }
    }

    void download(const float4* src, Float4* dst) const {
        NBODY_CUDA_CHECK(cudaMemcpyAsync(dst, src, n * sizeof(float4), cudaMemcpyDeviceToHost, stream));
        NBODY_CUDA_CHECK(cudaStreamSynchronize(stream));
    }
};

CudaBackend::CudaBackend() : m(std::make_unique<Impl>()) {
    int count = 0;
    NBODY_CUDA_CHECK(cudaGetDeviceCount(&count));
    if (count == 0) throw BackendError("no CUDA device found");
    cudaDeviceProp prop{};
    NBODY_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    if (prop.major < 9)
        throw BackendError(std::string(prop.name) + " has compute capability " + std::to_string(prop.major) + "." +
                           std::to_string(prop.minor) + "; this build has kernels for sm_90 and newer "
                           "(reconfigure with -DCMAKE_CUDA_ARCHITECTURES=" + std::to_string(prop.major) +
                           std::to_string(prop.minor) + ")");
    NBODY_CUDA_CHECK(cudaSetDevice(0));
    int clock_khz = 0;
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
    m->info = {prop.name, prop.multiProcessorCount, prop.major, prop.minor, clock_khz * 1e-6, prop.totalGlobalMem};
    NBODY_CUDA_CHECK(cudaStreamCreateWithFlags(&m->stream, cudaStreamNonBlocking));
    NBODY_CUDA_CHECK(cudaEventCreate(&m->ev_start));
    NBODY_CUDA_CHECK(cudaEventCreate(&m->ev_stop));
}

CudaBackend::~CudaBackend() = default;

std::string CudaBackend::name() const {
    return "cuda (" + m->info.name + ", " + std::to_string(m->info.sm_count) + " SMs)";
}

void CudaBackend::reset(const State& s, const SimParams& p) {
    validate(p);
    Impl::check_supported(p);
    check_state_finite(s);
    reserve(s.size());
    const SimParams old_params = m->params;
    const std::size_t old_n = m->n;
    m->n = s.size();
    m->params = p;
    try {
        m->configure();
    } catch (...) {
        m->n = old_n, m->params = old_params;
        throw;
    }
    m->cur = 0;
    // The float32 kernels take the float64 host state rounded.
    std::vector<Float4> pos(m->n), vel(m->n);
    for (std::size_t i = 0; i < m->n; ++i) pos[i] = to_float4(s.pos_mass[i]), vel[i] = to_float4(s.vel[i]);
    NBODY_CUDA_CHECK(cudaMemcpyAsync(m->pos[0], pos.data(), m->n * sizeof(float4), cudaMemcpyHostToDevice, m->stream));
    NBODY_CUDA_CHECK(cudaMemcpyAsync(m->vel, vel.data(), m->n * sizeof(float4), cudaMemcpyHostToDevice, m->stream));
    m->group = s.group;
    m->time = s.time;
    m->steps = 0;
    m->launch(true);
    NBODY_CUDA_CHECK(cudaStreamSynchronize(m->stream));
}

void CudaBackend::set_params(const SimParams& p) {
    validate(p);
    Impl::check_supported(p);
    const SimParams old = m->params;
    m->params = p;
    try {
        if (p.kernel_auto != old.kernel_auto || p.variant != old.variant || p.shape != old.shape) m->configure();
    } catch (...) {
        m->params = old;
        throw;
    }
    // The predicted positions depend on dt and the stored accelerations on eps and G: re-prime.
    if (p.dt != old.dt || p.eps != old.eps || p.G != old.G) {
        m->drop_graph();
        m->launch(true);
    }
}

const SimParams& CudaBackend::params() const { return m->params; }
void CudaBackend::step(int k) {
    // Synchronous like the CPU backend, so a host clock around step() (the UI's counters, the headless
    // runner) measures the steps, not their launch. timed_steps() stays asynchronous between its events.
    m->step(k);
    NBODY_CUDA_CHECK(cudaStreamSynchronize(m->stream));
}

void CudaBackend::read_state(State& out) {
    out.resize(m->n);
    std::vector<Float4> pos(m->n), vel(m->n);
    m->download(m->pos[m->cur], pos.data());
    m->download(m->vel, vel.data());
    for (std::size_t i = 0; i < m->n; ++i) out.pos_mass[i] = to_double4(pos[i]), out.vel[i] = to_double4(vel[i]);
    out.group = m->group;
    out.time = m->time;
}

void CudaBackend::read_accelerations(std::vector<Double4>& out) {
    std::vector<Float4> acc(m->n);
    m->download(m->acc, acc.data());
    out.resize(m->n);
    for (std::size_t i = 0; i < m->n; ++i) out[i] = to_double4(acc[i]);
}

void CudaBackend::copy_positions_to_host(Float4* dst) { m->download(m->pos[m->cur], dst); }

void CudaBackend::write_positions_to_device(void* device_dst) {
    // Device to device on our stream; the caller's unmap (stream 0) orders GL after it.
    NBODY_CUDA_CHECK(cudaMemcpyAsync(device_dst, m->pos[m->cur], m->n * sizeof(float4), cudaMemcpyDeviceToDevice,
                                     m->stream));
    NBODY_CUDA_CHECK(cudaStreamSynchronize(m->stream));
}

std::optional<double> CudaBackend::potential_energy() {
    if (m->n == 0) return 0.0;
    float* phi = nullptr;
    NBODY_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&phi), m->n * sizeof(float), m->stream));
    const int block = 256;
    const unsigned grid = static_cast<unsigned>((m->n + block - 1) / block);
    const float eps2 = static_cast<float>(m->params.eps * m->params.eps);
    kernels::potential_kernel<<<grid, block, block * sizeof(float4), m->stream>>>(m->pos[m->cur], static_cast<int>(m->n),
                                                                                    eps2, phi);
    NBODY_CUDA_CHECK_LAUNCH("potential_kernel");
    std::vector<float> host(m->n);
    NBODY_CUDA_CHECK(cudaMemcpyAsync(host.data(), phi, m->n * sizeof(float), cudaMemcpyDeviceToHost, m->stream));
    NBODY_CUDA_CHECK(cudaFreeAsync(phi, m->stream));
    NBODY_CUDA_CHECK(cudaStreamSynchronize(m->stream));
    double sum = 0;
    for (float v : host) sum += v;
    return -0.5 * m->params.G * sum;
}

std::string CudaBackend::kernel_label() const {
    return nbody::kernel_label(m->running.variant, m->running.shape) + (m->params.kernel_auto ? " (auto)" : "") + ", " +
           std::string(precision_name(m->params.precision));
}

std::size_t CudaBackend::size() const { return m->n; }
double CudaBackend::time() const { return m->time; }
long long CudaBackend::steps_taken() const { return m->steps; }

double CudaBackend::timed_steps(int k) {
    NBODY_CUDA_CHECK(cudaEventRecord(m->ev_start, m->stream));
    m->step(k);
    NBODY_CUDA_CHECK(cudaEventRecord(m->ev_stop, m->stream));
    NBODY_CUDA_CHECK(cudaEventSynchronize(m->ev_stop));
    float ms = 0;
    NBODY_CUDA_CHECK(cudaEventElapsedTime(&ms, m->ev_start, m->ev_stop));
    return ms;
}

void CudaBackend::reserve(std::size_t n) {
    if (n > static_cast<std::size_t>(1) << 30)  // kernel indices are int; 2^30 bodies is 16 GiB per buffer
        throw BackendError("N = " + std::to_string(n) + " is more than this backend supports (2^30); keeping the previous state");
    m->ensure_capacity(n);
}

const CudaDeviceInfo& CudaBackend::device() const { return m->info; }
const LaunchPlan& CudaBackend::plan() const { return m->plan; }
KernelResources CudaBackend::kernel_resources() const { return m->kernel ? m->resources(*m->kernel) : KernelResources{}; }

std::unique_ptr<CudaBackend> try_make_cuda_backend(std::string* why) {
    try {
        return std::make_unique<CudaBackend>();
    } catch (const std::exception& e) {
        if (why) *why = e.what();
        return nullptr;
    }
}

}  // namespace nbody
