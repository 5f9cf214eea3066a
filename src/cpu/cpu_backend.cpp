#include "cpu/cpu_backend.hpp"

#include "core/index_range.hpp"
#include "core/errors.hpp"
#include "core/leapfrog.hpp"
#include "core/parallel.hpp"
#include "cpu/force_f32.hpp"

namespace nbody {

CpuBackend::CpuBackend(int threads) : m_threads(resolve_threads(threads)) {}

std::string CpuBackend::name() const {
    return "cpu (" + std::to_string(m_threads) + " threads, " + force_f32_isa() + ")";
}

std::string CpuBackend::kernel_label() const {
    if (m_params.method == ForceMethod::Tree) return "cpu " + tree_label(m_params.tree) + ", leapfrog";
    // fp32 runs the vectorised float32 loop; ds and fp64 the float64 loops of force_modes
    const std::string loop = m_params.precision == Precision::Fp32 ? force_f32_isa() : "f64 loop";
    return "cpu " + loop + ", " + std::string(precision_name(m_params.precision)) + ", " +
           std::string(integrator_name(m_params.integrator));
}

double CpuBackend::time() const {
    return m_params.integrator == Integrator::LeapFrog ? m_time : m_time + m_hermite.clock();
}

double CpuBackend::block_dt(std::size_t i) const {
    return m_params.integrator == Integrator::HermiteBlock ? m_hermite.block_dt(i) : 0.0;
}

namespace {
// What a distributed run takes today: the leap-frog fp32 loop has a row range; the others are refused.
void check_partitioned(const SimParams& p) {
    if (p.method != ForceMethod::Direct)
        throw ParamError("method", "a distributed CPU run takes direct summation only (the tree needs every "
                                   "body on every rank); choose method direct, or one rank");
    if (p.integrator != Integrator::LeapFrog || p.precision != Precision::Fp32)
        throw ParamError("integrator", "a distributed CPU run takes leapfrog in fp32 only so far (got " +
                                           std::string(integrator_name(p.integrator)) + ", " +
                                           std::string(precision_name(p.precision)) + ")");
}
}  // namespace

bool CpuBackend::set_partition(RangePartition p) {
    m_partition = std::move(p);
    return true;
}

void CpuBackend::reset(const State& s, const SimParams& p) {
    validate(p);
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
    m_tree_acc_current = false;  // other bodies
    try {
        prime();
    } catch (...) {
        m_tree_acc_current = false;
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
    if (m_partition.gather) check_partitioned(p);
    const SimParams& o = m_params;
    const bool restart = p.eps != o.eps || p.G != o.G || p.precision != o.precision || p.method != o.method ||
                         p.tree != o.tree ||
                         p.integrator != o.integrator || p.eta != o.eta ||
                         (p.integrator != Integrator::LeapFrog && p.dt != o.dt);
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
    if (m_params.integrator == Integrator::LeapFrog) return;
    Bodies now;
    m_hermite.synchronised(m_bodies, now);
    std::swap(m_bodies, now);
    m_time += m_hermite.clock();
}

void CpuBackend::prime() {
    if (m_params.integrator == Integrator::LeapFrog) {
        m_work.flops_per_pair = kFlopsPerInteractionNvidia;
        compute_accelerations();
        return;
    }
    m_work.flops_per_pair = kFlopsPerInteractionHermite;
    m_hermite.start(m_bodies, m_params, m_threads, m_work);
}

void CpuBackend::gather_positions() {
    Bodies& b = m_bodies;
    m_gather_buf.resize(b.size());
    for (std::size_t i = m_begin; i < m_end; ++i) m_gather_buf[i] = {b.x[i], b.y[i], b.z[i], b.m[i]};
    m_partition.gather(m_gather_buf);
    auto take = [&](std::size_t lo, std::size_t hi) {
        for (std::size_t i = lo; i < hi; ++i) {
            const Double4 d = m_gather_buf[i];
            b.x[i] = d.x, b.y[i] = d.y, b.z[i] = d.z, b.m[i] = d.w;
        }
    };
    take(0, m_begin);
    take(m_end, b.size());
}

void CpuBackend::tree_accelerations() {
    Bodies& b = m_bodies;
    const std::size_t n = b.size();
    if (!m_tree) m_tree = std::make_unique<CpuTree>(m_threads);
    m_tree_pos.resize(n);
    m_tree_acc.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        m_tree_pos[i] = {float(b.x[i]), float(b.y[i]), float(b.z[i]), float(b.m[i])};
    m_tree->evaluate(m_tree_pos.data(), n, m_params.tree, m_params.eps, m_tree_acc.data(), &m_tree_stats,
                     m_tree_acc_current);
    m_tree_acc_current = true;
    for (std::size_t i = 0; i < n; ++i) b.ax[i] = m_tree_acc[i].x, b.ay[i] = m_tree_acc[i].y, b.az[i] = m_tree_acc[i].z;
}

std::vector<TreeCellBox> CpuBackend::tree_cells(int depth) {
    if (m_params.method != ForceMethod::Tree || !m_tree) return {};
    return cell_boxes(m_tree->cells().data(), m_tree->cells().size(), m_tree->key_box(), depth);
}

StepWork CpuBackend::step_work() const {
    if (m_params.method != ForceMethod::Tree) return direct_work(m_bodies.size());
    const double n = double(m_bodies.size());
    return {double(m_tree_stats.body_body), double(m_tree_stats.body_cell), n * n};
}

void CpuBackend::compute_accelerations() {
    const std::size_t n = m_bodies.size(), b0 = m_begin, rows = m_end - m_begin;
    Bodies& b = m_bodies;
    if (m_params.method != ForceMethod::Tree) m_tree_acc_current = false;  // the bodies move on without the tree
    if (m_params.method == ForceMethod::Tree) {
        tree_accelerations();
    } else if (m_params.precision != Precision::Fp32) {
        accelerations(b.sources(), m_params.precision, m_params.eps * m_params.eps, m_threads, b.ax.data(),
                      b.ay.data(), b.az.data());
    } else {
        for (auto* v : {&m_fx, &m_fy, &m_fz, &m_fm, &m_fax, &m_fay, &m_faz}) v->resize(n);
        for (std::size_t i = 0; i < n; ++i)
            m_fx[i] = float(b.x[i]), m_fy[i] = float(b.y[i]), m_fz[i] = float(b.z[i]),
            m_fm[i] = float(b.m[i]);
        const SourcesF32 src{m_fx.data(), m_fy.data(), m_fz.data(), m_fm.data(), n};
        const float eps2 = static_cast<float>(m_params.eps * m_params.eps);
        // Each i row is summed by one thread in a fixed j order, so the result is bit-identical for any
        // thread count, and for any split of the rows over ranks (a distributed run equals one rank).
        // Rows are cheap to hand out in chunks of 16 or more.
        parallel_for(
            rows, m_threads,
            [&](std::size_t lo, std::size_t hi) {
                accelerations_f32(src, b0 + lo, b0 + hi, eps2, m_fax.data(), m_fay.data(), m_faz.data());
            },
            16);
        for (std::size_t i = m_begin; i < m_end; ++i) b.ax[i] = m_fax[i], b.ay[i] = m_fay[i], b.az[i] = m_faz[i];
    }
    if (m_params.G != 1.0)
        for (std::size_t i = m_begin; i < m_end; ++i)
            b.ax[i] *= m_params.G, b.ay[i] *= m_params.G, b.az[i] *= m_params.G;
}

void CpuBackend::leapfrog_step() {
    Bodies& b = m_bodies;
    const std::size_t n = m_end - m_begin, o = m_begin;  // the own rows (all unless partitioned)
    const double dt = m_params.dt, h = 0.5 * dt;
    kick(n, b.vx.data() + o, b.vy.data() + o, b.vz.data() + o, b.ax.data() + o, b.ay.data() + o, b.az.data() + o, h);
    drift(n, b.x.data() + o, b.y.data() + o, b.z.data() + o, b.vx.data() + o, b.vy.data() + o, b.vz.data() + o, dt);
    if (m_partition.gather) gather_positions();
    compute_accelerations();
    kick(n, b.vx.data() + o, b.vy.data() + o, b.vz.data() + o, b.ax.data() + o, b.ay.data() + o, b.az.data() + o, h);
    m_time += dt;
    m_work.evaluations += 1;
    m_work.add(step_work(), 1);  // the whole simulation's work, every rank's share
}

void CpuBackend::step(int k) {
    for (int s = 0; s < k; ++s) {
        if (m_params.integrator == Integrator::LeapFrog)
            leapfrog_step();
        else
            m_hermite.step(m_bodies, m_params, m_threads, m_work);
        ++m_steps;
    }
}

void CpuBackend::read_state(State& out) {
    Bodies synced;
    const Bodies* b = &m_bodies;
    if (m_params.integrator == Integrator::HermiteBlock) {
        m_hermite.synchronised(m_bodies, synced);
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

void CpuBackend::read_accelerations(std::vector<Double4>& out) {
    const Bodies& b = m_bodies;
    out.resize(b.size());
    for (std::size_t i = 0; i < b.size(); ++i) out[i] = {b.ax[i], b.ay[i], b.az[i], 0.0};
}

}  // namespace nbody
