#include "multi/distributed_backend.hpp"

#include "core/errors.hpp"
#include "core/leapfrog.hpp"
#include "core/parallel.hpp"
#include "cpu/force_f32.hpp"

namespace nbody {

DistributedBackend::DistributedBackend(std::unique_ptr<RankExchange> exchange, int threads)
    : m_ex(std::move(exchange)), m_threads(resolve_threads(threads)) {}

std::string DistributedBackend::name() const {
    return "cpu over " + m_ex->name() + " (" + std::to_string(m_threads) + " threads each, " +
           force_f32_isa() + ")";
}

std::string DistributedBackend::kernel_label() const {
    return "cpu " + std::string(force_f32_isa()) + " over " + std::to_string(m_ex->size()) + " ranks, " +
           std::string(precision_name(m_params.precision));
}

namespace {
void check_supported(const SimParams& p) {
    if (p.precision != Precision::Fp32)
        throw ParamError("precision",
                         "a run over MPI ranks uses the CPU force loop, which runs fp32 only so "
                         "far (got " +
                             std::string(precision_name(p.precision)) + ")");
    if (p.integrator != Integrator::LeapFrog)
        throw ParamError("integrator", "a run over MPI ranks runs leapfrog only (got " +
                                           std::string(integrator_name(p.integrator)) +
                                           "); Hermite over ranks would also exchange velocities and jerks");
}
}  // namespace

void DistributedBackend::reset(const State& s, const SimParams& p) {
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
    m_buf.assign(n, Double4{});
    m_ranges = split_body_ranges(n, static_cast<std::size_t>(m_ex->size()));
    m_group = s.group;
    m_time = s.time;
    m_steps = 0;
    compute_own_accelerations();
}

void DistributedBackend::set_params(const SimParams& p) {
    validate(p);
    check_supported(p);
    const bool force_changed = p.eps != m_params.eps || p.G != m_params.G;
    m_params = p;
    if (p.cpu_threads > 0) m_threads = p.cpu_threads;
    if (force_changed) compute_own_accelerations();  // positions are whole on every rank: no exchange
}

// The CPU backend's rows for [begin, end) against all N, then G, as CpuBackend::compute_accelerations.
void DistributedBackend::compute_own_accelerations() {
    const BodyRange r = own_range();
    const SourcesF32 src{m_x.data(), m_y.data(), m_z.data(), m_m.data(), m_x.size()};
    const float eps2 = static_cast<float>(m_params.eps * m_params.eps);
    parallel_for(
        r.size(), m_threads,
        [&](std::size_t b, std::size_t e) {
            accelerations_f32(src, r.begin + b, r.begin + e, eps2, m_ax.data(), m_ay.data(), m_az.data());
        },
        16);
    if (m_params.G != 1.0) {
        const float g = static_cast<float>(m_params.G);
        for (std::size_t i = r.begin; i < r.end; ++i) m_ax[i] *= g, m_ay[i] *= g, m_az[i] *= g;
    }
}

void DistributedBackend::gather(const float* a, const float* b, const float* c, const float* d) {
    const BodyRange r = own_range();
    for (std::size_t i = r.begin; i < r.end; ++i) m_buf[i] = {a[i], b[i], c[i], d ? d[i] : 0.f};
    m_ex->all_gather(m_buf, m_ranges);  // float -> double -> float is exact
}

void DistributedBackend::step(int k) {
    const BodyRange r = own_range();
    const std::size_t n = r.size(), b = r.begin;
    const float dt = static_cast<float>(m_params.dt), h = 0.5f * dt;
    for (int s = 0; s < k; ++s) {
        kick(n, &m_vx[b], &m_vy[b], &m_vz[b], &m_ax[b], &m_ay[b], &m_az[b], h);
        drift(n, &m_x[b], &m_y[b], &m_z[b], &m_vx[b], &m_vy[b], &m_vz[b], dt);
        gather(m_x.data(), m_y.data(), m_z.data(), m_m.data());  // 32 N bytes received per rank
        for (std::size_t i = 0; i < m_x.size(); ++i)
            m_x[i] = static_cast<float>(m_buf[i].x), m_y[i] = static_cast<float>(m_buf[i].y),
            m_z[i] = static_cast<float>(m_buf[i].z);
        compute_own_accelerations();
        kick(n, &m_vx[b], &m_vy[b], &m_vz[b], &m_ax[b], &m_ay[b], &m_az[b], h);
        m_time += m_params.dt;
        ++m_steps;
    }
}

void DistributedBackend::read_state(State& out) {
    gather(m_vx.data(), m_vy.data(), m_vz.data(), nullptr);  // velocities live on their owner only
    const std::size_t n = m_x.size();
    out.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        out.pos_mass[i] = {m_x[i], m_y[i], m_z[i], m_m[i]};
        out.vel[i] = {static_cast<float>(m_buf[i].x), static_cast<float>(m_buf[i].y),
                      static_cast<float>(m_buf[i].z), 0.0};
    }
    out.group = m_group;
    out.time = m_time;
}

void DistributedBackend::read_accelerations(std::vector<Double4>& out) {
    gather(m_ax.data(), m_ay.data(), m_az.data(), nullptr);
    out.assign(m_buf.begin(), m_buf.end());
    for (auto& a : out) a.w = 0.0;
}

void DistributedBackend::copy_positions_to_host(Float4* dst) {
    for (std::size_t i = 0; i < m_x.size(); ++i) dst[i] = {m_x[i], m_y[i], m_z[i], m_m[i]};
}

}  // namespace nbody
