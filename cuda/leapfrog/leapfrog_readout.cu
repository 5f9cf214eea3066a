// LeapfrogEngine, read-out: the state, accelerations and positions back to the host or to GL, the potential
// energy, and the per-part timings of a multi-GPU step.
#include <cstring>

#include "cpu/force_f32.hpp"
#include "direct/potential_kernel.cuh"
#include "leapfrog/leapfrog_engine.cuh"

namespace nbody::kernels {

using namespace leapfrog;

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
        const IndexRange r = m_ranges[k];
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
        const IndexRange r = m_ranges[k];
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

std::optional<double> LeapfrogEngine::potential_energy() {
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

}  // namespace nbody::kernels
