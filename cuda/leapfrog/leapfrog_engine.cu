// LeapfrogEngine, the kernel choice: the family and shape that run (the user's, or the automatic choice), its
// instance, launch plans and scratch (configure), and what the engine reports of them.
#include "leapfrog/leapfrog_engine.cuh"

#include <algorithm>

#include "common/gpu_query.hpp"
#include "core/errors.hpp"
#include "core/kernels/kernel_family.hpp"

namespace nbody::kernels {

using namespace leapfrog;

LeapfrogEngine::LeapfrogEngine(DeviceSet& devices, const GpuLimits& limits, const TuningTable& tuning)
    : m_dev(devices), m_sm(limits.sms), m_tuning(tuning), m_limits(limits) {}

LeapfrogEngine::~LeapfrogEngine() { drop_graph(); }

std::size_t LeapfrogEngine::body_bytes() const { return wide(m_prec) ? sizeof(Dbl4) : sizeof(float4); }

SimParams LeapfrogEngine::resolve(const SimParams& p, std::size_t n, const TuningTable& t, const GpuLimits& limits,
                                  KernelChoice* why, long long scratch_limit) {
    SimParams r = p;
    if (!p.kernel_auto) return r;
    // The tuning table (the cache file nbody-bench --tune wrote for this GPU and driver, else the built-in
    // H200 one, core/kernels/kernel_tuning_h200.txt): the measured winner at the nearest N, or the best
    // interpolated between the two nearest; rows this build cannot run are passed over.
    const KernelChoice c = choose_kernel(t, p.precision, n, [&](KernelVariant v, const KernelShape& s) {
        const KernelEntry* e = find_kernel(p.precision, v, s.k, s.u);
        cudaFuncAttributes attr{};
        if (!e) return false;
        const FamilyInfo& f = variant_info(v);
        if (!gpu_refusal(f, s, limits).empty()) return false;
        if (f.capped_scratch && f.capped_scratch(n, s) > scratch_limit) return false;
        if (cudaFuncGetAttributes(&attr, e->function) != cudaSuccess) return cudaGetLastError(), false;
        return s.block <= attr.maxThreadsPerBlock;
    });
    r.variant = c.variant;
    r.shape = c.shape;
    if (why) *why = c;
    return r;
}

std::string built_refusal(const FamilyInfo& f, const KernelEntry& e) {
    if (f.min_cc <= 75) return {};
    cudaFuncAttributes attr{};
    if (cudaFuncGetAttributes(&attr, e.function) != cudaSuccess) return cudaGetLastError(), std::string();
    // A PTX-only build for an older generation (75-virtual) has this family's kernel without its instructions.
    if (attr.ptxVersion >= f.min_cc) return {};
    return "the " + std::string(f.name) + " kernel needs " + std::string(f.min_cc_needs) + ", which this build lacks: it "
           "was compiled from compute capability " + std::to_string(attr.ptxVersion / 10) + "." +
           std::to_string(attr.ptxVersion % 10) + " code (built for " + built_cuda_architectures() +
           "); rebuild with -DNBODY_CUDA_ARCHS=" + std::to_string(f.min_cc) + " or newer";
}

const KernelEntry* LeapfrogEngine::kernel_for(const SimParams& r) const {
    const KernelVariant v = r.variant;
    const FamilyInfo& f = variant_info(v);
    const std::string prec(precision_name(r.precision));
    validate_variant_precision(v, r.precision);
    if (const std::string why = gpu_refusal(f, r.shape, m_limits); !why.empty()) throw ParamError("variant", why);
    if (m_dev.size() > 1 && !f.several_parts)
        throw ParamError("gpus", "the " + std::string(f.name) + " kernel runs on one GPU in one process (got " +
                                     std::to_string(m_dev.size()) + " GPU parts" +
                                     (m_partition.gather ? std::string(", several MPI ranks") : std::string()) +
                                     "); use --gpus 1, or another variant on several GPUs");
    if (m_partition.gather && !f.over_ranks)
        throw ParamError("gpus", "the " + std::string(f.name) + " kernel runs in one process" +
                                     (f.several_parts ? std::string(" (on one GPU or several)") : std::string()) +
                                     ", not over MPI ranks: run one rank, or another variant over ranks");
    if (f.capped_scratch) {
        const long long cap = scratch_cap(m_dev.parts().front().device), need = f.capped_scratch(m_n, r.shape);
        if (need > cap)
            throw ParamError("variant", std::string(f.name) + " " + std::string(f.scratch_refusal) + ": " +
                                            std::to_string(need >> 20) + " MiB at N = " + std::to_string(m_n) +
                                            ", more than the " + std::to_string(cap >> 20) +
                                            " MiB (a quarter of this GPU's memory) it may take; use ij-unrolled, or a "
                                            "larger block x k");
    }
    const KernelEntry* e = find_kernel(r.precision, v, r.shape.k, r.shape.u);
    if (e)
        if (const std::string why = built_refusal(f, *e); !why.empty()) throw ParamError("variant", why);
    if (!e)
        throw ParamError("k", "no " + prec + " kernel compiled for " + std::string(f.name) + " k " +
                                  std::to_string(r.shape.k) + " u " + std::to_string(r.shape.u) +
                                  " (compiled k x u: " + compiled_shapes(r.precision, v) + ")");
    return e;
}

LeapfrogEngine::Config LeapfrogEngine::configure(const SimParams& p) const {
    Config c;
    NBODY_CUDA_CHECK(cudaSetDevice(m_dev.parts().front().device));
    // Families with a capped scratch (pairs) need every body on every part: not over ranks.
    c.running = resolve(p, m_n, m_tuning, m_limits, &c.choice, m_partition.gather ? 0 : scratch_cap(m_dev.parts().front().device));
    const KernelVariant v = c.running.variant;
    const FamilyInfo& f = variant_info(v);
    const FamilyKernels& fk = family_kernels(v);
    const KernelShape& shape = c.running.shape;
    const std::string prec(precision_name(p.precision));
    c.kernel = kernel_for(c.running);
    cudaFuncAttributes attr{};
    NBODY_CUDA_CHECK(cudaSetDevice(m_dev.parts().front().device));
    if (fk.prepare) fk.prepare(*c.kernel);  // before the occupancy query: it reads the shared-memory opt-in
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
            throw BackendError("no " + std::string(f.alt_instance) +
                               " instance of " + std::string(variant_name(v)) + " k " + std::to_string(shape.k) +
                               " u " + std::to_string(shape.u) + " " + prec);
        // Scratch for partial sums (the j-split over blocks, the pairs family's slots) and, for the j-split, per-group
        // counters, zeroed once; the last block of a group resets its counter, so they stay zero between launches.
        c.partial.emplace_back();
        c.counters.emplace_back();
        if (pl.partial_bytes > 0)
            c.partial.back() = DeviceBuffer::alloc(part.device, static_cast<std::size_t>(pl.partial_bytes),
                                                   std::string(f.partial_name).c_str());
        c.groups.emplace_back();
        if (v == KernelVariant::Pairs && m_dev.size() > 1) {
            const long long parts = static_cast<long long>(m_dev.size()), all = static_cast<long long>(pl.chunk) * pl.tile;
            const long long own = static_cast<long long>(m_ranges[k].size()), groups = pairs_groups(pl.chunk);
            const std::size_t out = pairs_out_groups(static_cast<std::size_t>(groups), static_cast<std::size_t>(parts));
            c.groups.back() = DeviceBuffer::alloc(
                part.device, (out * static_cast<std::size_t>(all) + static_cast<std::size_t>(groups * own) + 1) * sizeof(float4),
                "pairs group sums");
        }
        if (pl.splits > 1) {
            c.counters.back() = DeviceBuffer::alloc(part.device, static_cast<std::size_t>(pl.blocks) * sizeof(unsigned),
                                                    "j-split counters");
            NBODY_CUDA_CHECK(cudaSetDevice(part.device));
            NBODY_CUDA_CHECK(cudaMemsetAsync(c.counters.back().get(), 0, c.counters.back().bytes(), part.stream));
        }
    }
    if (v == KernelVariant::Pairs) c.group_ends = pairs_group_ends(c.plans.front().chunk);
    if (fk.make_scratch)
        for (const DevicePart& part : m_dev.parts()) c.scratch.push_back(fk.make_scratch(part.device, m_n));
    return c;
}

void LeapfrogEngine::commit(Config&& c) {
    m_running = c.running;
    m_choice = c.choice;
    m_kernel = c.kernel;
    m_plans = std::move(c.plans);
    m_scratch = std::move(c.scratch);
    m_group_ends = std::move(c.group_ends);
    for (std::size_t k = 0; k < m_buf.size(); ++k) {
        m_buf[k].partial = std::move(c.partial[k]);
        m_buf[k].counters = std::move(c.counters[k]);
        m_buf[k].groups = std::move(c.groups[k]);
    }
    drop_graph();
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

void LeapfrogEngine::read_out(const ReadoutAsk& ask, Readouts& out) {
    if (m_params.kernel_auto) out.kernel_choice = describe(m_choice);
    if (ask.device_timings) out.device_timings = timings();
}

WorkCount LeapfrogEngine::work() const {
    // The running family's work a step (direct: N^2 body-body), so a method that evaluates fewer interactions
    // never reports N^2 / time.
    WorkCount w;
    w.evaluations = m_steps;
    w.flops_per_pair = kFlopsPerInteractionNvidia;
    w.add(step_work(m_running.variant, m_n), static_cast<double>(m_steps));
    return w;
}

KernelResources LeapfrogEngine::resources() const {
    if (!m_kernel) return {};
    cudaFuncAttributes attr{};
    NBODY_CUDA_CHECK(cudaFuncGetAttributes(&attr, m_plans.empty() ? m_kernel->function
                                                                   : m_kernel->function_for(m_plans.front())));
    return {attr.numRegs, attr.maxThreadsPerBlock, static_cast<int>(attr.localSizeBytes)};
}

}  // namespace nbody::kernels
