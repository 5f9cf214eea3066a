#include "cpu/cpu_backend.hpp"

#include "core/errors.hpp"
#include "core/leapfrog.hpp"
#include "core/parallel.hpp"
#include "cpu/force_f32.hpp"

namespace nbody {

CpuBackend::CpuBackend(int threads) : m_threads(resolve_threads(threads)) {}

std::string CpuBackend::name() const {
    return "cpu (" + std::to_string(m_threads) + " threads, " + force_f32_isa() + ")";
}

namespace {
// What this backend runs today; the others are refused with the reason, keeping the running state.
void check_supported(const SimParams& p) {
    if (p.precision != Precision::Fp32)
        throw ParamError("precision", "the CPU backend runs fp32 only so far (got " +
                                          std::string(precision_name(p.precision)) + ")");
    if (p.integrator != Integrator::LeapFrog)
        throw ParamError("integrator", "the CPU backend runs leapfrog only so far (got " +
                                           std::string(integrator_name(p.integrator)) + ")");
}
}  // namespace

std::string CpuBackend::kernel_label() const {
    return "cpu " + std::string(force_f32_isa()) + ", " + std::string(precision_name(m_params.precision));
}

void CpuBackend::reset(const State& s, const SimParams& p) {
    validate(p);
    check_supported(p);
    check_state_finite(s);
    m_params = p;
    if (p.cpu_threads > 0) m_threads = p.cpu_threads;
    const std::size_t n = s.size();
    for (auto* v : {&m_x, &m_y, &m_z, &m_m, &m_vx, &m_vy, &m_vz, &m_ax, &m_ay, &m_az}) v->assign(n, 0.f);
    for (std::size_t i = 0; i < n; ++i) {
        const Float4 x = to_float4(s.pos_mass[i]), v = to_float4(s.vel[i]);
        m_x[i] = x.x, m_y[i] = x.y, m_z[i] = x.z, m_m[i] = x.w;
        m_vx[i] = v.x, m_vy[i] = v.y, m_vz[i] = v.z;
    }
    m_group = s.group;
    m_begin = 0, m_end = n;
    if (m_partition.gather) {
        if (m_partition.begin > m_partition.end || m_partition.end > n)
            throw ParamError("partition", "range [" + std::to_string(m_partition.begin) + ", " +
                                              std::to_string(m_partition.end) + ") outside the " +
                                              std::to_string(n) + " bodies");
        m_begin = m_partition.begin, m_end = m_partition.end;
        m_gather_buf.assign(n, Double4{});
    }
    m_time = s.time;
    m_steps = 0;
    compute_accelerations();
}

void CpuBackend::set_params(const SimParams& p) {
    validate(p);
    check_supported(p);
    const bool force_changed = p.eps != m_params.eps || p.G != m_params.G;
    m_params = p;
    if (p.cpu_threads > 0) m_threads = p.cpu_threads;
    if (force_changed) compute_accelerations();
}

bool CpuBackend::set_partition(RangePartition p) {
    m_partition = std::move(p);
    return true;
}

void CpuBackend::gather_positions() {
    // float -> double -> float is exact, so every rank ends with the same float32 bits as the owner.
    for (std::size_t i = m_begin; i < m_end; ++i) m_gather_buf[i] = {m_x[i], m_y[i], m_z[i], m_m[i]};
    m_partition.gather(m_gather_buf);
    auto take = [&](std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i) {
            const Float4 f = to_float4(m_gather_buf[i]);
            m_x[i] = f.x, m_y[i] = f.y, m_z[i] = f.z, m_m[i] = f.w;
        }
    };
    take(0, m_begin);
    take(m_end, m_x.size());
}

void CpuBackend::compute_accelerations() {
    const std::size_t n = m_x.size(), b0 = m_begin, rows = m_end - m_begin;
    const SourcesF32 src{m_x.data(), m_y.data(), m_z.data(), m_m.data(), n};
    const float eps2 = static_cast<float>(m_params.eps * m_params.eps);
    // Each i row is summed by one thread in a fixed j order, so the result is bit-identical for any
    // thread count. Rows are cheap to hand out in chunks of 16 or more.
    // The same holds for any split of the rows over ranks (a distributed run is bit-identical to one rank).
    parallel_for(rows, m_threads, [&](std::size_t b, std::size_t e) {
        accelerations_f32(src, b0 + b, b0 + e, eps2, m_ax.data(), m_ay.data(), m_az.data());
    }, 16);
    if (m_params.G != 1.0) {
        const float g = static_cast<float>(m_params.G);
        for (std::size_t i = m_begin; i < m_end; ++i) m_ax[i] *= g, m_ay[i] *= g, m_az[i] *= g;
    }
}

void CpuBackend::step(int k) {
    const std::size_t n = m_end - m_begin, b = m_begin;
    const float dt = static_cast<float>(m_params.dt), h = 0.5f * dt;
    float *x = m_x.data() + b, *y = m_y.data() + b, *z = m_z.data() + b;
    float *vx = m_vx.data() + b, *vy = m_vy.data() + b, *vz = m_vz.data() + b;
    const float *ax = m_ax.data() + b, *ay = m_ay.data() + b, *az = m_az.data() + b;
    for (int s = 0; s < k; ++s) {
        kick(n, vx, vy, vz, ax, ay, az, h);
        drift(n, x, y, z, vx, vy, vz, dt);
        if (m_partition.gather) gather_positions();
        compute_accelerations();
        kick(n, vx, vy, vz, ax, ay, az, h);
        m_time += m_params.dt;
        ++m_steps;
    }
}

void CpuBackend::read_state(State& out) {
    const std::size_t n = m_x.size();
    out.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        out.pos_mass[i] = {m_x[i], m_y[i], m_z[i], m_m[i]};
        out.vel[i] = {m_vx[i], m_vy[i], m_vz[i], 0.0};
    }
    out.group = m_group;
    out.time = m_time;
}

void CpuBackend::copy_positions_to_host(Float4* dst) {
    for (std::size_t i = 0; i < m_x.size(); ++i) dst[i] = {m_x[i], m_y[i], m_z[i], m_m[i]};
}

void CpuBackend::read_accelerations(std::vector<Double4>& out) {
    out.resize(m_x.size());
    for (std::size_t i = 0; i < m_x.size(); ++i) out[i] = {m_ax[i], m_ay[i], m_az[i], 0.0};
}

}  // namespace nbody
