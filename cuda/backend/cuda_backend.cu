// The CUDA backend: the devices (one or several parts), the engine for the integrator and precision in use,
// switching engines at a step boundary, and the timing the benchmark uses. The kernels and the stepping
// are in the engines (leapfrog_engine.cu).
#include "cuda_backend.hpp"

#include <algorithm>
#include <cstdio>

#include "backend/device_snapshots.cuh"
#include "backend/finite_check.cuh"
#include "common/cuda_check.cuh"
#include "common/device_set.cuh"
#include "common/gpu_query.hpp"
#include "core/errors.hpp"
#include "core/kernels/shape_model.hpp"
#include "hermite/hermite_engine.cuh"
#include "leapfrog/leapfrog_engine.cuh"
#include "interop/gl_interop.hpp"
#include "tree/tree_engine.cuh"
#include "core/rows/integrator.hpp"
#include "core/rows/force_method.hpp"
#include "core/rows/param_checks.hpp"

namespace nbody {

using kernels::DeviceSet;
using kernels::GpuEngine;

bool cuda_runs_method(ForceMethod m) {
    switch (m) {  // every method with an engine in engine_for below
        case ForceMethod::Direct:
        case ForceMethod::Tree: return true;
    }
    return false;
}

namespace {
std::string method_refusal(const SimParams& p) {
    if (cuda_runs_method(p.method)) return {};
    return method_reach_words("the cuda backend", methods_where(cuda_runs_method), p.method);
}
}  // namespace

struct CudaBackend::Impl {
    CudaDeviceInfo info;
    GpuLimits limits;  // the first part's GPU (core/kernels/gpu_limits.hpp)
    std::unique_ptr<DeviceSet> devices;
    std::unique_ptr<GpuEngine> engine;
    long long steps_before = 0;  // steps of the engines this run had before the current one
    SimParams params;
    std::size_t n = 0;
    TuningKey tuning_key;
    TuningTable tuning;  // the engines' kernel_auto reads it (by reference: it lives as long as they do)
    cudaEvent_t ev_start = nullptr, ev_stop = nullptr;  // on the first part's GPU
    kernels::DeviceSnapshots snaps;  // rewind slots (leap-frog engines)
    kernels::DeviceBuffer check_pos, check_first;  // the NaN check's copy of the positions and its answer

    ~Impl() {
        snaps.clear();
        engine.reset();  // its buffers before the streams they were used on
        if (ev_start) cudaEventDestroy(ev_start);
        if (ev_stop) cudaEventDestroy(ev_stop);
    }

    // Every precision and integrator runs; an engine refuses what it cannot (ParamError from its reset),
    // keeping the running state. The GPU count is the backend's own, fixed when it was made: Simulation
    // makes a new backend when p.gpus changes.
    // One engine per (method, scheme) pair there is code for; a switch over both, so the compiler names this
    // place when a method or scheme is added.
    std::unique_ptr<GpuEngine> engine_for(const SimParams& p) {
        // A method row added without an engine here (no enumerator below): a BackendError in words, so the
        // factory hands it to the CPU, which runs every method.
        if (const std::string why = method_refusal(p); !why.empty()) throw BackendError(why);
        const Scheme scheme = integrator_info(p.integrator).scheme;
        switch (p.method) {
            case ForceMethod::Tree:  // one engine, shared or block steps
                if (scheme == Scheme::KickDriftKick || scheme == Scheme::KickDriftKickBlock)
                    return std::make_unique<kernels::TreeEngine>(*devices);
                break;
            case ForceMethod::Direct:
                switch (scheme) {
                    case Scheme::KickDriftKick:
                        return std::make_unique<kernels::LeapfrogEngine>(*devices, limits, tuning);
                    case Scheme::Hermite4:  // one engine for both orders: the order picks its kernels
                    case Scheme::Hermite6: return std::make_unique<kernels::HermiteEngine>(*devices, info.sm_count);
                    case Scheme::KickDriftKickBlock: break;  // direct summation's block leap-frog: the CPU
                }
                break;
        }
        // A BackendError, not a ParamError: the rows allow the pair, this backend has no code for it yet, so the
        // factory runs it on the CPU with these words (engine/backend_factory.cpp reset_or_cpu).
        throw BackendError("the cuda backend has no engine for " + std::string(integrator_name(p.integrator)) +
                           " with method " + std::string(method_name(p.method)) + " yet");
    }

    // Over MPI ranks the engine says whether it runs there: a sub-range of the bodies (direct leap-frog) or
    // every body on every rank (the tree).
    std::unique_ptr<GpuEngine> make_engine(const SimParams& p) {
        std::unique_ptr<GpuEngine> e = engine_for(p);
        if (partition.gather && !e->set_partition(partition))
            throw ParamError("integrator", std::string(integrator_name(p.integrator)) + " with method " +
                                               std::string(method_name(p.method)) +
                                               " does not run over MPI ranks yet; leapfrog does, with direct "
                                               "summation or the tree (one GPU a rank)");
        return e;
    }
    RangePartition partition;  // a distributed run (set before the reset that applies it)
};

CudaBackend::CudaBackend(std::vector<int> devices) : m(std::make_unique<Impl>()) {
    std::string why;
    const int count = usable_cuda_devices(&why);
    if (count == 0) throw BackendError(why);
    if (devices.empty()) devices.push_back(0);
    for (int d : devices)
        if (d < 0 || d >= count)
            throw BackendError("CUDA device " + std::to_string(d) + " does not exist (this machine has " +
                               std::to_string(count) + ")");
    // Every GPU must load this build's code (SASS for its architecture, or PTX the driver can compile), or the
    // first kernel would fail with a CUDA error instead of these words and the CPU taking over.
    for (int d : devices)
        if (const std::string refusal = cuda_device_refusal(d); !refusal.empty()) throw BackendError(refusal);
    // The first part's GPU, asked once: its identity, what the engines may ask of it, and its tuning table.
    const GpuLimits& g = m->limits = query_gpu_limits(devices.front());
    int driver = 0;
    cudaDriverGetVersion(&driver);
    m->info = {g.name, g.sms, g.cc_major, g.cc_minor, g.clock_ghz, g.memory_bytes, driver, count};
    m->tuning_key = device_tuning_key(m->info.name, m->info.sm_count, driver);
    LoadedTuning tuning = load_tuning_for(m->tuning_key, tuning_cache_dir(), g);
    if (!tuning.note.empty()) std::fprintf(stderr, "nbody: %s\n", tuning.note.c_str());
    m->tuning = std::move(tuning.table);
    m->devices = std::make_unique<DeviceSet>(devices);
    NBODY_CUDA_CHECK(cudaSetDevice(devices.front()));
    NBODY_CUDA_CHECK(cudaEventCreate(&m->ev_start));
    NBODY_CUDA_CHECK(cudaEventCreate(&m->ev_stop));
}

CudaBackend::~CudaBackend() = default;

int CudaBackend::reserve_snapshots(int count, std::string* note) {
    m->snaps.clear();
    const std::size_t bytes = m->engine ? m->engine->snapshot_bytes() : 0;
    if (bytes == 0) return Backend::reserve_snapshots(count, note);  // through the host (Hermite)
    Backend::reserve_snapshots(0);
    return m->snaps.reserve(*m->devices, bytes, count, note);
}

void CudaBackend::save_snapshot(int slot) {
    if (m->snaps.count() == 0) return Backend::save_snapshot(slot);
    kernels::DeviceSnapshots::Meta& meta = m->snaps.meta(slot);
    if (!m->engine || m->engine->snapshot_bytes() != m->snaps.bytes())
        throw Error("rewind: the slots were reserved for another N, precision or integrator");
    meta.mark = m->engine->save_snapshot(m->snaps.slot(slot));
    meta.steps_before = m->steps_before;
    meta.saved = true;
}

void CudaBackend::restore_snapshot(int slot) {
    if (m->snaps.count() == 0) return Backend::restore_snapshot(slot);
    const kernels::DeviceSnapshots::Meta meta = m->snaps.meta(slot);
    if (!meta.saved) throw Error("rewind slot " + std::to_string(slot) + " holds no saved state");
    if (!m->engine || m->engine->snapshot_bytes() != m->snaps.bytes())
        throw Error("rewind: the saved states were made for another N, precision or integrator");
    m->engine->restore_snapshot(m->snaps.slot(slot), meta.mark);
    m->steps_before = meta.steps_before;
}

bool CudaBackend::export_state(IntegratorState& st) {
    if (!m->engine || !m->engine->export_state(st)) return false;
    st.backend = "cuda";
    return true;
}

void CudaBackend::import_state(const IntegratorState& st, const SimParams& p, long long steps) {
    need_backend(st, "cuda");
    validate(p);
    if (m->partition.gather) throw Error("a distributed run cannot import an integrator state");
    // A fresh engine, swapped in only when the import succeeded: a bad state keeps the running one.
    auto fresh = m->make_engine(p);
    fresh->import_state(st, p);
    m->engine = std::move(fresh);
    m->params = p;
    m->n = need_body_count(st);
    m->steps_before = steps - m->engine->steps();
}

std::string CudaBackend::name() const {
    std::string s = "cuda (" + m->info.name + ", " + std::to_string(m->info.sm_count) + " SMs";
    if (m->devices->size() > 1) s += ", x" + std::to_string(m->devices->size());
    return s + ")";
}

std::string CudaBackend::refusal(const SimParams& p) const { return method_refusal(p); }

void CudaBackend::reset(const State& s, const SimParams& p) {
    validate(p);
    check_state_finite(s);
    if (s.size() > static_cast<std::size_t>(1) << 30)  // kernel indices are int; 2^30 bodies is 32 GiB per buffer
        throw BackendError("N = " + std::to_string(s.size()) +
                           " is more than this backend supports (2^30); keeping the previous state");
    // A fresh engine: one that fails (out of memory, a shape that does not fit) leaves the running one as it was.
    auto fresh = m->make_engine(p);
    fresh->reset(s, p);
    m->engine = std::move(fresh);
    m->params = p;
    m->n = s.size();
    m->steps_before = 0;
}

void CudaBackend::set_params(const SimParams& p) {
    validate(p);
    if (!m->engine) {
        m->params = p;
        return;
    }
    if (p.precision != m->params.precision || p.integrator != m->params.integrator || p.method != m->params.method) {
        // Another engine (or buffers of another width): carry the particles across.
        State s;
        m->engine->read_state(s);
        const long long steps = steps_taken();
        reset(s, p);
        m->steps_before = steps;  // the run goes on: its step count with it
        return;
    }
    m->engine->set_params(p);
    m->params = p;
}

const SimParams& CudaBackend::params() const { return m->params; }

void CudaBackend::step(int k) {
    // Synchronous like the CPU backend, so a host clock around step() (the UI's counters, the headless
    // runner) measures the steps, not their launch. timed_steps() stays asynchronous between its events.
    if (!m->engine) return;
    m->engine->step(k);
    m->devices->synchronize();
}

void CudaBackend::read_state(State& out) {
    if (m->engine) m->engine->read_state(out);
    else out = State{};
}

void CudaBackend::read_accelerations(std::vector<Double4>& out) {
    if (m->engine) m->engine->read_accelerations(out);
    else out.clear();
}

void CudaBackend::read_accelerations_of(const std::vector<std::size_t>& rows, std::vector<Double4>& out) {
    if (!m->engine) out.clear();
    else if (!m->engine->read_rows_alone(rows, out)) Backend::read_accelerations_of(rows, out);
}

void CudaBackend::read_bodies_of(const std::vector<std::size_t>& rows, std::vector<Double4>& pos_mass,
                                 std::vector<Double4>& vel) {
    if (!m->engine) pos_mass.clear(), vel.clear();
    else if (!m->engine->read_bodies_alone(rows, pos_mass, vel)) Backend::read_bodies_of(rows, pos_mass, vel);
}

void CudaBackend::copy_positions_to_host(Float4* dst) {
    if (m->engine) m->engine->positions_to_host(dst);
}

std::optional<std::size_t> CudaBackend::first_nonfinite_position() {
    if (!m->engine || m->n == 0) return std::nullopt;
    const kernels::DevicePart& first = m->devices->parts().front();
    NBODY_CUDA_CHECK(cudaSetDevice(first.device));
    if (m->check_pos.bytes() < m->n * sizeof(float4))
        m->check_pos = kernels::DeviceBuffer::alloc(first.device, m->n * sizeof(float4), "NaN check positions");
    if (m->check_first.bytes() == 0)
        m->check_first = kernels::DeviceBuffer::alloc(first.device, sizeof(unsigned long long), "NaN check answer");
    m->engine->positions_to_device(m->check_pos.get());  // every part's bodies, in order; synchronised
    return kernels::first_nonfinite(m->check_pos.as<const float4>(), m->n, m->check_first.as<unsigned long long>(),
                                    first.stream);
}

void CudaBackend::write_positions_to_device(void* device_dst) {
    if (m->engine) m->engine->positions_to_device(device_dst);
}

namespace {
// The GL buffer is mapped only while the positions are written: GL must not draw from a mapped buffer.
class InteropLink final : public PositionLink {
  public:
    InteropLink(CudaBackend& b, std::unique_ptr<GlInteropBuffer> buffer)
        : m_backend(b), m_buffer(std::move(buffer)) {}
    PositionPath path() const override { return PositionPath::Interop; }
    void write() override {
        void* dst = m_buffer->map();
        try {
            m_backend.write_positions_to_device(dst);
        } catch (...) {
            m_buffer->unmap();
            throw;
        }
        m_buffer->unmap();
    }

  private:
    CudaBackend& m_backend;
    std::unique_ptr<GlInteropBuffer> m_buffer;
};
}  // namespace

std::unique_ptr<PositionLink> CudaBackend::link_gl_buffer(unsigned gl_buffer, std::size_t bytes,
                                                          bool allow_interop, std::string* why) {
    std::string failed;
    if (!allow_interop) {
        failed = "interop turned off";
    } else if (auto buffer = GlInteropBuffer::try_register(gl_buffer, bytes, &failed)) {
        return std::make_unique<InteropLink>(*this, std::move(buffer));
    } else {
        failed = "interop registration failed: " + failed;
    }
    if (why) *why = failed;
    return nullptr;
}

std::optional<double> CudaBackend::potential_energy() {
    return m->engine ? m->engine->potential_energy() : std::optional<double>(0.0);
}

bool CudaBackend::set_partition(RangePartition p) {
    m->partition = std::move(p);
    return true;
}

void CudaBackend::read_out(const ReadoutAsk& ask, Readouts& out) {
    if (m->engine) {
        if (ask.device_timings) m->devices->synchronize();  // the last step's events are recorded
        m->engine->read_out(ask, out);
    }
    if (ask.launch_shape) {  // not for the window's facts each frame: the registers are a driver query
        const LaunchPlan p = plan();
        out.launch_shape = {p.k, p.u, p.block, p.q, p.splits, kernel_resources().registers,
                            static_cast<int>(parts())};
    }
    out.tuning_key = m->tuning_key;
}
std::string CudaBackend::kernel_label() const { return m->engine ? m->engine->kernel_label() : name(); }
const TuningTable& CudaBackend::tuning_table() const { return m->tuning; }
WorkCount CudaBackend::work() const { return m->engine ? m->engine->work() : WorkCount{}; }
std::size_t CudaBackend::size() const { return m->n; }
double CudaBackend::time() const { return m->engine ? m->engine->time() : 0.0; }
long long CudaBackend::steps_taken() const { return m->steps_before + (m->engine ? m->engine->steps() : 0); }
void CudaBackend::set_steps_taken(long long n) { m->steps_before = n - (m->engine ? m->engine->steps() : 0); }

double CudaBackend::timed_steps(int k) {
    auto& parts = m->devices->parts();
    const kernels::DevicePart& first = parts.front();
    NBODY_CUDA_CHECK(cudaSetDevice(first.device));
    NBODY_CUDA_CHECK(cudaEventRecord(m->ev_start, first.stream));
    // The other parts start after the start event and the first part ends after all of them.
    for (std::size_t i = 1; i < parts.size(); ++i) NBODY_CUDA_CHECK(cudaStreamWaitEvent(parts[i].stream, m->ev_start, 0));
    if (m->engine) m->engine->step(k);
    for (std::size_t i = 1; i < parts.size(); ++i) {
        NBODY_CUDA_CHECK(cudaSetDevice(parts[i].device));
        NBODY_CUDA_CHECK(cudaEventRecord(parts[i].done, parts[i].stream));
        NBODY_CUDA_CHECK(cudaStreamWaitEvent(first.stream, parts[i].done, 0));
    }
    NBODY_CUDA_CHECK(cudaSetDevice(first.device));
    NBODY_CUDA_CHECK(cudaEventRecord(m->ev_stop, first.stream));
    NBODY_CUDA_CHECK(cudaEventSynchronize(m->ev_stop));
    float ms = 0;
    NBODY_CUDA_CHECK(cudaEventElapsedTime(&ms, m->ev_start, m->ev_stop));
    return ms;
}

const CudaDeviceInfo& CudaBackend::device() const { return m->info; }

std::string CudaBackend::family_refusal(KernelVariant v) const {
    const FamilyInfo& f = variant_info(v);
    if (std::string why = gpu_refusal(f, f.default_shape, m->limits); !why.empty()) return why;
    for (const auto& pr : precision_table())
        if (runs_in(f, pr.value))
            if (const kernels::KernelEntry* e = kernels::find_kernel(pr.value, v, f.default_shape.k, f.default_shape.u))
                return kernels::built_refusal(f, *e);
    return {};
}
std::size_t CudaBackend::parts() const { return m->devices->size(); }
LaunchPlan CudaBackend::plan() const { return m->engine ? m->engine->plan() : LaunchPlan{}; }
KernelResources CudaBackend::kernel_resources() const { return m->engine ? m->engine->resources() : KernelResources{}; }

std::unique_ptr<CudaBackend> try_make_cuda_backend(const SimParams& p, std::string* why, std::string* note,
                                                   int parts_per_gpu) {
    try {
        std::string none;
        const int count = usable_cuda_devices(&none);
        if (count == 0) throw BackendError(none);
        std::string n;
        std::vector<int> devices;
        for (int d : devices_for(p.gpus, count, &n))
            for (int k = 0; k < std::max(1, parts_per_gpu); ++k) devices.push_back(d);
        auto b = std::make_unique<CudaBackend>(devices);
        if (note) *note = n;
        return b;
    } catch (const std::exception& e) {
        if (why) *why = e.what();
        return nullptr;
    }
}

}  // namespace nbody
