// The Hermite engine's state going out: the state predicted to the block time (read_state, the potential),
// accelerations, positions for drawing, and the force kernel on its own (evaluate, cuda_hermite_forces).
#include <algorithm>
#include <cstring>

#include "core/backend/block_levels.hpp"
#include "core/errors.hpp"
#include "core/rows/integrator.hpp"
#include "direct/potential_kernel.cuh"
#include "hermite/hermite_engine.cuh"
#include "hermite/hermite_forces.hpp"

namespace nbody::kernels {

void HermiteEngine::predict_now() {
    const DevicePart& first = m_dev.parts().front();
    m_dev.synchronize();
    NBODY_CUDA_CHECK(cudaSetDevice(first.device));
    launch_hermite_predict_now(m_buf.front().bodies(), m_buf.front().stats.as<const HermiteStats>(),
                               static_cast<int>(m_n), m_params.dt / static_cast<double>(kHermiteTicks),
                               m_now_pos.as<Dbl4>(), m_now_vel.as<Dbl4>(), first.stream);
    NBODY_CUDA_CHECK(cudaStreamSynchronize(first.stream));
}

void HermiteEngine::read_state(State& out) {
    out.resize(m_n);
    if (m_n > 0) {
        predict_now();
        NBODY_CUDA_CHECK(
            cudaMemcpy(out.pos_mass.data(), m_now_pos.get(), m_n * sizeof(Dbl4), cudaMemcpyDeviceToHost));
        NBODY_CUDA_CHECK(
            cudaMemcpy(out.vel.data(), m_now_vel.get(), m_n * sizeof(Dbl4), cudaMemcpyDeviceToHost));
    }
    out.group = m_group;
    out.time = time();
}

// The accelerations of the last evaluation of each body (for shared steps: at the current time).
void HermiteEngine::read_accelerations(std::vector<Double4>& out) {
    m_dev.synchronize();
    out.resize(m_n);
    if (m_n == 0) return;
    NBODY_CUDA_CHECK(cudaSetDevice(m_dev.parts().front().device));
    NBODY_CUDA_CHECK(
        cudaMemcpy(out.data(), m_buf.front().acc.get(), m_n * sizeof(Dbl4), cudaMemcpyDeviceToHost));
    for (Double4& a : out) a.w = 0;  // the kernel keeps phi there
}

// Drawing takes the positions at each body's last correction: under block steps the bodies between their
// steps lag by less than their step, which no one sees, and it saves a predictor per frame.
void HermiteEngine::positions_to_device(void* dst) {
    if (m_n == 0) return;
    const DevicePart& first = m_dev.parts().front();
    m_dev.synchronize();
    NBODY_CUDA_CHECK(cudaSetDevice(first.device));
    const int block = 256;
    to_float4_kernel<<<static_cast<unsigned>((m_n + block - 1) / block), block, 0, first.stream>>>(
        m_buf.front().pos.as<const Dbl4>(), static_cast<float4*>(dst), static_cast<int>(m_n));
    NBODY_CUDA_CHECK_LAUNCH("to_float4_kernel");
    NBODY_CUDA_CHECK(cudaStreamSynchronize(first.stream));
}

void HermiteEngine::positions_to_host(Float4* dst) {
    if (m_n == 0) return;
    m_dev.synchronize();
    std::vector<Double4> pos(m_n);
    NBODY_CUDA_CHECK(cudaSetDevice(m_dev.parts().front().device));
    NBODY_CUDA_CHECK(
        cudaMemcpy(pos.data(), m_buf.front().pos.get(), m_n * sizeof(Dbl4), cudaMemcpyDeviceToHost));
    for (std::size_t i = 0; i < m_n; ++i) dst[i] = to_float4(pos[i]);
}

std::optional<double> HermiteEngine::potential_energy() {
    if (m_n == 0) return 0.0;
    predict_now();  // the same state read_state returns
    const DevicePart& first = m_dev.parts().front();
    PotentialSum phi;
    phi.launch(m_now_pos.get(), true, static_cast<int>(m_n), 0, static_cast<int>(m_n),
               m_params.eps * m_params.eps, first.device, first.stream);
    const double sum = phi.sum();
    return -0.5 * m_params.G * sum;
}

// Part 0 holds every body's times (each part's corrector stores the bodies it advanced into every part's
// copy), and every part selects the same active list, so part 0 answers for all N.
std::optional<BlockLevels> HermiteEngine::block_levels() {
    if (!block_steps()) return std::nullopt;
    std::vector<Tick> t_last(m_n), t_end(m_n);
    int n_active = 0;
    if (m_n > 0) {
        const PartBuffers& b = m_buf.front();
        m_dev.synchronize();
        NBODY_CUDA_CHECK(cudaSetDevice(m_dev.parts().front().device));
        const std::size_t bytes = m_n * sizeof(Tick);
        NBODY_CUDA_CHECK(cudaMemcpy(t_last.data(), b.t_last.get(), bytes, cudaMemcpyDeviceToHost));
        NBODY_CUDA_CHECK(cudaMemcpy(t_end.data(), b.t_end.get(), bytes, cudaMemcpyDeviceToHost));
        NBODY_CUDA_CHECK(
            cudaMemcpy(&n_active, b.scalars.as<Tick>() + 1, sizeof(int), cudaMemcpyDeviceToHost));
    }
    // The priming evaluation leaves every body on the list: no block step has run yet.
    const bool stepped = !m_stats.empty() && m_stats.front().block_steps > 0;
    const double tick = m_params.dt / static_cast<double>(kHermiteTicks);
    return block_levels_of(m_n, m_params.dt, stepped ? static_cast<std::size_t>(n_active) : 0,
                           [&](std::size_t i) { return static_cast<double>(t_end[i] - t_last[i]) * tick; });
}

// Installs `active` as the active list of every part, for evaluations at the state as it is.
void HermiteEngine::load_active(const std::vector<int>& active) {
    for (int i : active)
        if (i < 0 || static_cast<std::size_t>(i) >= m_n)
            throw ParamError("active",
                             "body " + std::to_string(i) + " out of range (N = " + std::to_string(m_n) + ")");
    // The priming state: t_next = t_last = 0, so the predictor copies the state unchanged.
    if (m_stats.front().t_now != 0 || m_stats.front().block_steps != 0)
        throw ParamError("active", "a bare force evaluation runs on a freshly reset engine only");
    const int na = static_cast<int>(active.size());
    for_each_part(m_dev, [&](const DevicePart& part, std::size_t k) {
        PartBuffers& b = m_buf[k];
        NBODY_CUDA_CHECK(cudaMemcpyAsync(b.active.get(), active.data(), active.size() * sizeof(int),
                                         cudaMemcpyHostToDevice, part.stream));
        NBODY_CUDA_CHECK(
            cudaMemcpyAsync(b.scalars.as<Tick>() + 1, &na, sizeof(int), cudaMemcpyHostToDevice, part.stream));
        // 6th order keeps the accelerations: they are the j-bodies' inputs to snap.
        for (DeviceBuffer* buf : {&b.acc, &b.jerk, &b.snap})
            if (buf->get() && !(sixth() && buf == &b.acc))
                NBODY_CUDA_CHECK(cudaMemsetAsync(buf->get(), 0, buf->bytes(), part.stream));
        NBODY_CUDA_CHECK(cudaEventRecord(part.done, part.stream));
    });
    m_dev.synchronize();
}

void HermiteEngine::evaluate(const std::vector<int>& active, std::vector<Double4>& acc,
                             std::vector<Double4>& jerk, std::vector<Double4>* snap) {
    load_active(active);
    m_potential = true;  // the one reader of phi (acc.w)
    block_step(true, false);
    m_potential = false;
    m_dev.synchronize();
    std::vector<Double4> all_acc(m_n), all_jerk(m_n);
    NBODY_CUDA_CHECK(cudaSetDevice(m_dev.parts().front().device));
    NBODY_CUDA_CHECK(
        cudaMemcpy(all_acc.data(), m_buf.front().acc.get(), m_n * sizeof(Dbl4), cudaMemcpyDeviceToHost));
    NBODY_CUDA_CHECK(
        cudaMemcpy(all_jerk.data(), m_buf.front().jerk.get(), m_n * sizeof(Dbl4), cudaMemcpyDeviceToHost));
    acc.clear(), jerk.clear();
    for (int i : active) acc.push_back(all_acc[i]), jerk.push_back(all_jerk[i]);
    if (!snap) return;
    snap->clear();
    if (!sixth()) return;
    std::vector<Double4> all_snap(m_n);
    NBODY_CUDA_CHECK(
        cudaMemcpy(all_snap.data(), m_buf.front().snap.get(), m_n * sizeof(Dbl4), cudaMemcpyDeviceToHost));
    for (int i : active) snap->push_back(all_snap[i]);
}

// The predictor, force and corrector of one block step on a fixed active list, `repeats` times between two
// CUDA events on the first part (the others are waited for): milliseconds per evaluation.
double HermiteEngine::time_evaluations(const std::vector<int>& active, int repeats) {
    load_active(active);
    auto& parts = m_dev.parts();
    const DevicePart& first = parts.front();
    NBODY_CUDA_CHECK(cudaSetDevice(first.device));
    cudaEvent_t start = nullptr, stop = nullptr;
    NBODY_CUDA_CHECK(cudaEventCreate(&start));
    NBODY_CUDA_CHECK(cudaEventCreate(&stop));
    block_step(true, false);  // warm-up
    NBODY_CUDA_CHECK(cudaSetDevice(first.device));
    NBODY_CUDA_CHECK(cudaEventRecord(start, first.stream));
    for (int r = 0; r < repeats; ++r) block_step(true, false);
    m_dev.wait_for_peers();  // the first part's stream waits for every part's last corrector
    NBODY_CUDA_CHECK(cudaSetDevice(first.device));
    NBODY_CUDA_CHECK(cudaEventRecord(stop, first.stream));
    NBODY_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    NBODY_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return static_cast<double>(ms) / std::max(1, repeats);
}

}  // namespace nbody::kernels

namespace nbody {

HermiteForces cuda_hermite_forces(const State& s, const std::vector<int>& active, const SimParams& p,
                                  const std::vector<int>& devices) {
    kernels::DeviceSet set(devices);
    int sm = 0;
    NBODY_CUDA_CHECK(
        cudaDeviceGetAttribute(&sm, cudaDevAttrMultiProcessorCount, devices.empty() ? 0 : devices.front()));
    SimParams q = p;
    q.integrator = with_block_steps(p.integrator, false);
    kernels::HermiteEngine engine(set, sm);
    engine.reset(s, q);
    HermiteForces f;
    engine.evaluate(active, f.acc, f.jerk, &f.snap);
    return f;
}

double cuda_hermite_force_ms(const State& s, int active_count, const SimParams& p, int repeats) {
    kernels::DeviceSet set({0});
    int sm = 0;
    NBODY_CUDA_CHECK(cudaDeviceGetAttribute(&sm, cudaDevAttrMultiProcessorCount, 0));
    SimParams q = p;
    q.integrator = with_block_steps(p.integrator, true);
    kernels::HermiteEngine engine(set, sm);
    engine.reset(s, q);
    // Evenly spread over the bodies, as the active set of a block step is (bodies in index order are
    // not neighbours in space).
    const int n = static_cast<int>(s.size()), a = std::min(std::max(active_count, 1), std::max(n, 1));
    std::vector<int> active(static_cast<std::size_t>(a));
    for (int k = 0; k < a; ++k)
        active[static_cast<std::size_t>(k)] = static_cast<int>(static_cast<long long>(k) * n / a);
    return engine.time_evaluations(active, repeats);
}

}  // namespace nbody
