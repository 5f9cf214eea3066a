// The CPU backend's checkpoint state: everything step() reads, so an imported run continues bit for bit.
#include <string>

#include "core/errors.hpp"
#include "core/rows/integrator.hpp"
#include "core/rows/param_checks.hpp"
#include "cpu/cpu_backend.hpp"

namespace nbody {

namespace {
constexpr const char* kBodyArrays[] = {"x", "y", "z", "vx", "vy", "vz", "m", "ax", "ay", "az"};

std::vector<double>* body_array(Bodies& b, int k) {
    std::vector<double>* v[] = {&b.x, &b.y, &b.z, &b.vx, &b.vy, &b.vz, &b.m, &b.ax, &b.ay, &b.az};
    return v[k];
}

}  // namespace

bool CpuBackend::export_state(IntegratorState& st) {
    m_forces.build_next_tree();
    st = {};
    st.backend = "cpu";
    for (int k = 0; k < 10; ++k) st.arrays.emplace_back(kBodyArrays[k], *body_array(m_bodies, k));
    put_groups(st, m_group, m_bodies.size());
    st.scalars.emplace_back("time_base", m_time);
    if (m_integrator) m_integrator->export_to(st);
    return true;
}

void CpuBackend::import_state(const IntegratorState& st, const SimParams& p, long long steps) {
    need_backend(st, "cpu");
    validate(p);
    check_cpu_reach(p);
    if (m_partition.gather) throw Error("a distributed run cannot import an integrator state");
    const std::size_t n = need_body_count(st);
    Bodies b;
    for (int k = 0; k < 10; ++k) *body_array(b, k) = need_array(st, kBodyArrays[k], n);
    std::vector<uint32_t> group = need_groups(st, n);
    const double time_base = need_scalar(st, "time_base");
    std::unique_ptr<CpuIntegrator> in = make_cpu_integrator(p, m_forces, 0, n, &m_partition);
    in->import_from(st, n);
    m_bodies = std::move(b);
    m_forces.resume(m_bodies, p);
    m_integrator = std::move(in);
    m_last_active = 0;  // a restored state's last block step is not known
    m_group = std::move(group);
    m_params = p;
    if (p.cpu_threads > 0) m_threads = p.cpu_threads;
    m_time = time_base;
    m_begin = 0, m_end = n;
    m_steps = steps;
    m_work = {0, 0, integrator_info(p.integrator).flops_per_pair};
}

}  // namespace nbody
