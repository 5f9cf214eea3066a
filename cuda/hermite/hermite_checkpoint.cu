// The Hermite engine's checkpoint state, either order: everything a block step reads (hermite_engine.cuh), so
// an imported run takes the very block steps the exported one would have. Every part holds every body alike,
// so part 0 is exported and the import is uploaded to every part.
#include <string>

#include "core/errors.hpp"
#include "core/rows/integrator.hpp"
#include "hermite/hermite_engine.cuh"

namespace nbody::kernels {

namespace {
// The Dbl4 arrays, their components in this order (pos.w = mass; acc.w = 0 while stepping); a scheme of order
// p carries the position and its first p - 1 derivatives: 4th order the first four, 6th order all six.
constexpr int kArrays = 6;
constexpr const char* kComponents[kArrays][4] = {{"x", "y", "z", "m"},     {"vx", "vy", "vz", "vw"},
                                                 {"ax", "ay", "az", "aw"}, {"jx", "jy", "jz", "jw"},
                                                 {"sx", "sy", "sz", "sw"}, {"cx", "cy", "cz", "cw"}};

int arrays_of(int order) {
    return order;
}

void copy_out(std::vector<Dbl4>& host, const DeviceBuffer& dev, std::size_t n) {
    host.resize(n);
    if (n > 0) NBODY_CUDA_CHECK(cudaMemcpy(host.data(), dev.get(), n * sizeof(Dbl4), cudaMemcpyDeviceToHost));
}
}  // namespace

bool HermiteEngine::export_state(IntegratorState& st) {
    st = {};
    m_dev.synchronize();
    const PartBuffers& b = m_buf.front();
    NBODY_CUDA_CHECK(cudaSetDevice(m_dev.parts().front().device));
    std::vector<Dbl4> v[kArrays];
    const DeviceBuffer* src[kArrays] = {&b.pos, &b.vel, &b.acc, &b.jerk, &b.snap, &b.crackle};
    for (int a = 0; a < arrays_of(order()); ++a) {
        copy_out(v[a], *src[a], m_n);
        for (int c = 0; c < 4; ++c) {
            std::vector<double> col(m_n);
            for (std::size_t i = 0; i < m_n; ++i) col[i] = (&v[a][i].x)[c];
            st.arrays.emplace_back(kComponents[a][c], std::move(col));
        }
    }
    std::vector<long long> t_last(m_n), t_end(m_n);
    if (m_n > 0) {
        NBODY_CUDA_CHECK(
            cudaMemcpy(t_last.data(), b.t_last.get(), m_n * sizeof(Tick), cudaMemcpyDeviceToHost));
        NBODY_CUDA_CHECK(cudaMemcpy(t_end.data(), b.t_end.get(), m_n * sizeof(Tick), cudaMemcpyDeviceToHost));
    }
    put_counts(st, "t_last", t_last);
    put_counts(st, "t_end", t_end);
    put_groups(st, m_group, m_n);
    st.scalars.emplace_back("time_base", m_t0);
    put_count(st, "t_now", m_stats.empty() ? 0 : m_stats.front().t_now);
    return true;
}

void HermiteEngine::import_state(const IntegratorState& st, const SimParams& p) {
    // Everything read and checked before the device is touched.
    const std::size_t n = need_body_count(st);
    const int arrays = arrays_of(integrator_info(p.integrator).order);
    std::vector<Dbl4> v[kArrays];
    for (int a = 0; a < arrays; ++a) {
        v[a].resize(n);
        for (int c = 0; c < 4; ++c) {
            const std::vector<double>& col = need_array(st, kComponents[a][c], n);
            for (std::size_t i = 0; i < n; ++i) (&v[a][i].x)[c] = col[i];
        }
    }
    const std::vector<long long> t_last = need_counts(st, "t_last", n), t_end = need_counts(st, "t_end", n);
    std::vector<uint32_t> group = need_groups(st, n);
    const double time_base = need_scalar(st, "time_base");
    const Tick t_now = need_count(st, "t_now");
    for (std::size_t i = 0; i < n; ++i)
        if (!(t_last[i] <= t_now && t_now < t_end[i] && t_end[i] - t_last[i] <= kHermiteTicks))
            throw Error("integrator state: body " + std::to_string(i) + "'s times (last " +
                        std::to_string(t_last[i]) + ", next " + std::to_string(t_end[i]) +
                        " ticks) do not bracket the block time " + std::to_string(t_now) +
                        " within one step dt");

    // The engine made as a reset makes it (shapes, buffers; its priming evaluation is overwritten below).
    State s;
    s.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        s.pos_mass[i] = {v[0][i].x, v[0][i].y, v[0][i].z, v[0][i].w},
        s.vel[i] = {v[1][i].x, v[1][i].y, v[1][i].z, v[1][i].w};
    s.group = std::move(group);
    s.time = time_base;
    reset(s, p);
    m_t0 = time_base;
    m_carried = {0, 0, integrator_info(p.integrator).flops_per_pair};
    for_each_part(m_dev, [&](const DevicePart& part, std::size_t k) {
        PartBuffers& b = m_buf[k];
        DeviceBuffer* dst[kArrays] = {&b.pos, &b.vel, &b.acc, &b.jerk, &b.snap, &b.crackle};
        for (int a = 0; a < arrays && n > 0; ++a)
            NBODY_CUDA_CHECK(cudaMemcpyAsync(dst[a]->get(), v[a].data(), n * sizeof(Dbl4),
                                             cudaMemcpyHostToDevice, part.stream));
        if (n > 0) {
            NBODY_CUDA_CHECK(cudaMemcpyAsync(b.t_last.get(), t_last.data(), n * sizeof(Tick),
                                             cudaMemcpyHostToDevice, part.stream));
            NBODY_CUDA_CHECK(cudaMemcpyAsync(b.t_end.get(), t_end.data(), n * sizeof(Tick),
                                             cudaMemcpyHostToDevice, part.stream));
        }
        m_stats[k] = HermiteStats{t_now, 0, 0, -1, -1};
        NBODY_CUDA_CHECK(cudaMemcpyAsync(b.stats.get(), &m_stats[k], sizeof(HermiteStats),
                                         cudaMemcpyHostToDevice, part.stream));
    });
    m_dev.synchronize();  // the host arrays go out of scope
}

}  // namespace nbody::kernels
