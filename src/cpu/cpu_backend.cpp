#include "cpu/cpu_backend.hpp"

#include "core/backend/block_levels.hpp"
#include "core/index_range.hpp"
#include "core/errors.hpp"
#include "core/parallel.hpp"
#include "cpu/block_steps.hpp"
#include "cpu/force_f32.hpp"
#include "core/rows/integrator.hpp"
#include "core/rows/force_method.hpp"
#include "core/rows/param_checks.hpp"

namespace nbody {

CpuBackend::CpuBackend(int threads) : m_threads(resolve_threads(threads)) {}

std::string CpuBackend::name() const {
    return "cpu (" + std::to_string(m_threads) + " threads, " + force_f32_isa() + ")";
}

std::string CpuBackend::kernel_label() const {
    if (!method_info(m_params.method).kernel_families)
        return "cpu " + nbody::kernel_label(m_params) + ", " + std::string(integrator_name(m_params.integrator));
    // fp32 runs the vectorised float32 loop; ds and fp64 the float64 loops of force_modes
    const std::string loop = m_params.precision == Precision::Fp32 ? force_f32_isa() : "f64 loop";
    return "cpu " + loop + ", " + std::string(precision_name(m_params.precision)) + ", " +
           std::string(integrator_name(m_params.integrator));
}

double CpuBackend::time() const {
    return m_integrator ? m_time + m_integrator->clock() : m_time;
}

double CpuBackend::block_dt(std::size_t i) const {
    return m_integrator && integrator_info(m_params.integrator).block_steps ? m_integrator->block_dt(i) : 0.0;
}

void CpuBackend::read_out(const ReadoutAsk& ask, Readouts& out) {
    if (ask.cell_depth >= 0) out.tree_cells = m_forces.cells(m_params, ask.cell_depth);
    if (ask.block_levels && m_integrator && integrator_info(m_params.integrator).block_steps)
        out.block_levels = block_levels_of(m_bodies.size(), block_dt_max(m_params), m_last_active,
                                           [this](std::size_t i) { return m_integrator->block_dt(i); });
}

namespace {
// What a distributed run takes today: the leap-frog fp32 loop has a row range; the others are refused.
void check_partitioned(const SimParams& p) {
    const MethodInfo& m = method_info(p.method);
    if (!m.over_ranks)
        throw ParamError("method", "a distributed CPU run takes direct summation only (the " + std::string(m.name) +
                                       " needs every body on every rank); choose method direct, or one rank");
    if (!integrator_info(p.integrator).over_ranks || p.precision != Precision::Fp32)
        throw ParamError("integrator", "a distributed CPU run takes leapfrog in fp32 only so far (got " +
                                           std::string(integrator_name(p.integrator)) + ", " +
                                           std::string(precision_name(p.precision)) + ")");
}
}  // namespace

bool CpuBackend::set_partition(RangePartition p) {
    m_partition = std::move(p);
    return true;
}

std::string CpuBackend::refusal(const SimParams& p) const {
    try {
        check_cpu_reach(p);
    } catch (const ParamError& e) {
        return e.what();
    }
    return {};
}

void CpuBackend::reset(const State& s, const SimParams& p) {
    validate(p);
    check_cpu_reach(p);
    check_state_finite(s);
    const std::size_t n = s.size();
    std::size_t begin = 0, end = n;
    if (m_partition.gather) {
        check_partitioned(p);
        const IndexRange own = checked_range(m_partition.begin, m_partition.end, n);
        begin = own.begin, end = own.end;
    }
    Bodies b;
    b.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const Double4 x = s.pos_mass[i], v = s.vel[i];
        b.x[i] = x.x, b.y[i] = x.y, b.z[i] = x.z, b.m[i] = x.w;
        b.vx[i] = v.x, b.vy[i] = v.y, b.vz[i] = v.z;
    }
    // Built aside first: a refused first block step leaves the running simulation as it was (synchronised,
    // so its own integrator can restart on it).
    synchronise();
    std::swap(m_bodies, b);
    const SimParams old_params = m_params;
    const double old_time = m_time;
    const std::size_t old_begin = m_begin, old_end = m_end;
    m_params = p;
    m_time = s.time;
    m_begin = begin, m_end = end;
    if (p.cpu_threads > 0) m_threads = p.cpu_threads;
    m_forces.forget();  // other bodies
    try {
        prime();
    } catch (...) {
        m_forces.forget();
        std::swap(m_bodies, b);
        m_params = old_params;
        m_time = old_time;
        m_begin = old_begin, m_end = old_end;
        if (m_bodies.size() > 0) prime();
        throw;
    }
    m_group = s.group;
    m_steps = 0;
    m_work = {0, 0, m_work.flops_per_pair};
}

void CpuBackend::set_params(const SimParams& p) {
    validate(p);
    check_cpu_reach(p);
    if (m_partition.gather) check_partitioned(p);
    const SimParams& o = m_params;
    const bool restart = p.eps != o.eps || p.G != o.G || p.precision != o.precision || p.method != o.method ||
                         p.tree != o.tree ||
                         p.integrator != o.integrator || p.eta != o.eta ||
                         (integrator_info(p.integrator).restarts_on_dt && p.dt != o.dt);
    if (p.cpu_threads > 0) m_threads = p.cpu_threads;
    if (!restart) {
        m_params = p;
        return;
    }
    synchronise();
    const SimParams old = m_params;
    m_params = p;
    try {
        prime();
    } catch (...) {
        m_params = old;  // the bodies are where they were; restart the old integrator on them
        prime();
        throw;
    }
}

void CpuBackend::synchronise() {
    if (!m_integrator || !integrator_info(m_params.integrator).own_state) return;
    Bodies now;
    m_integrator->synchronised(m_bodies, now);
    std::swap(m_bodies, now);
    m_time += m_integrator->clock();
}

void CpuBackend::prime() {
    m_integrator.reset();  // a failed start leaves none: synchronise() then has nothing to fold in
    std::unique_ptr<CpuIntegrator> next = make_cpu_integrator(m_params, m_forces, m_begin, m_end, &m_partition);
    m_work.flops_per_pair = integrator_info(m_params.integrator).flops_per_pair;
    next->start(m_bodies, m_params, m_threads, m_work);
    m_integrator = std::move(next);
    m_last_active = 0;
}


void CpuBackend::step(int k) {
    for (int s = 0; s < k; ++s) {
        if (!m_integrator) prime();  // a first reset that failed left none
        m_last_active = m_integrator->step(m_bodies, m_params, m_threads, m_work, m_time);
        ++m_steps;
    }
}

void CpuBackend::read_state(State& out) {
    Bodies synced;
    const Bodies* b = &m_bodies;
    if (m_integrator && integrator_info(m_params.integrator).block_steps) {
        m_integrator->synchronised(m_bodies, synced);
        b = &synced;
    }
    const std::size_t n = b->size();
    out.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        out.pos_mass[i] = {b->x[i], b->y[i], b->z[i], b->m[i]};
        out.vel[i] = {b->vx[i], b->vy[i], b->vz[i], 0.0};
    }
    out.group = m_group;
    out.time = time();
}

void CpuBackend::copy_positions_to_host(Float4* dst) {
    const Bodies& b = m_bodies;  // block steps: each body where its own step ended (drawing needs no more)
    for (std::size_t i = 0; i < b.size(); ++i)
        dst[i] = {float(b.x[i]), float(b.y[i]), float(b.z[i]), float(b.m[i])};
}

namespace {
void check_rows(const std::vector<std::size_t>& rows, std::size_t n) {
    for (std::size_t i : rows)
        if (i >= n) throw Error("row " + std::to_string(i) + " of " + std::to_string(n) + " bodies");
}
}  // namespace

void CpuBackend::read_bodies_of(const std::vector<std::size_t>& rows, std::vector<Double4>& pos_mass,
                                std::vector<Double4>& vel) {
    const Bodies& b = m_bodies;
    check_rows(rows, b.size());
    pos_mass.resize(rows.size());
    vel.resize(rows.size());
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const std::size_t i = rows[r];
        pos_mass[r] = {b.x[i], b.y[i], b.z[i], b.m[i]};
        vel[r] = {b.vx[i], b.vy[i], b.vz[i], 0.0};
    }
}

void CpuBackend::read_accelerations_of(const std::vector<std::size_t>& rows, std::vector<Double4>& out) {
    const Bodies& b = m_bodies;
    check_rows(rows, b.size());
    out.resize(rows.size());
    for (std::size_t r = 0; r < rows.size(); ++r) out[r] = {b.ax[rows[r]], b.ay[rows[r]], b.az[rows[r]], 0.0};
}

void CpuBackend::read_accelerations(std::vector<Double4>& out) {
    const Bodies& b = m_bodies;
    out.resize(b.size());
    for (std::size_t i = 0; i < b.size(); ++i) out[i] = {b.ax[i], b.ay[i], b.az[i], 0.0};
}

}  // namespace nbody
