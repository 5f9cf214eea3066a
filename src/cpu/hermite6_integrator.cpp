#include "cpu/hermite6_integrator.hpp"

#include <utility>

#include "core/errors.hpp"
#include "cpu/block_steps.hpp"

namespace nbody {

using hermite6::D3;

namespace {
constexpr const char* kDerivative[] = {"j", "s", "c"};  // jerk, snap, crackle: arrays jx .. cz
constexpr const char* kAxis[] = {"x", "y", "z"};

double component(D3 v, int axis) { return axis == 0 ? v.x : axis == 1 ? v.y : v.z; }
}  // namespace

// The forces on the active rows from every body of `at` (positions, velocities and accelerations), G left out.
void Hermite6Cpu::sum_forces(const Bodies& at, const SimParams& p, int threads) {
    m_force.resize(m_active.size());
    const Sources6 src{at.sources(), at.ax.data(), at.ay.data(), at.az.data()};
    hermite6_forces(src, m_active.data(), m_active.size(), p.eps * p.eps, threads, m_force.data());
}

void Hermite6Cpu::start(Bodies& b, const SimParams& p, int threads, WorkCount& work) {
    check_cpu_reach(p);
    const std::size_t n = b.size();
    for (auto* v : {&m_jerk, &m_snap, &m_crackle}) v->assign(n, D3{0, 0, 0});
    m_t.assign(n, 0.0);
    m_dt.assign(n, 0.0);
    m_clock = 0;
    m_active.resize(n);
    for (std::size_t i = 0; i < n; ++i) m_active[i] = i;
    // Snap needs every body's acceleration: a first sum gives them (its snap, from stale ones, is dropped).
    Bodies now = b;
    for (int pass = 0; pass < 2; ++pass) {
        sum_forces(now, p, threads);
        for (std::size_t i = 0; i < n; ++i) now.set_acc(i, p.G * m_force[i].acc);
    }
    work.evaluations += 2;
    work.add_direct(double(n) * double(n), 2);
    const double dt_max = block_dt_max(p);
    const bool block = integrator_info(p.integrator).block_steps;
    for (std::size_t i = 0; i < n; ++i) {
        b.set_acc(i, now.acc(i));
        m_jerk[i] = p.G * m_force[i].jerk;
        m_snap[i] = p.G * m_force[i].snap;
        if (!block) continue;
        const double want = hermite6::initial_step6(p.eta, b.acc(i), m_jerk[i]);
        m_dt[i] = first_block_step(i, want, dt_max);
    }
}

void Hermite6Cpu::predict_all(const Bodies& b, double t) {
    const std::size_t n = b.size();
    if (m_pred.size() != n) m_pred.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        D3 xp, vp, ap;
        hermite6::predict6(b.pos(i), b.vel(i), b.acc(i), m_jerk[i], m_snap[i], m_crackle[i], t - m_t[i], xp, vp,
                           ap);
        m_pred.set_pos(i, xp);
        m_pred.set_vel(i, vp);
        m_pred.set_acc(i, ap);
        m_pred.m[i] = b.m[i];
    }
}

std::size_t Hermite6Cpu::step(Bodies& b, const SimParams& p, int threads, WorkCount& work, double&) {
    const std::size_t n = b.size();
    const bool block = integrator_info(p.integrator).block_steps;
    // The active set: every body (shared steps), or those whose step ends first (block steps).
    const double t_next = next_active(p, m_clock, m_t, m_dt, m_active);
    if (n == 0) {  // nothing to integrate: the clock still moves
        m_clock = t_next;
        return 0;
    }
    predict_all(b, t_next);
    sum_forces(m_pred, p, threads);
    const std::size_t na = m_active.size();
    work.evaluations += 1;
    work.add_direct(double(na) * double(n));

    BlockStepUpdate steps(p, t_next);
    for (std::size_t k = 0; k < na; ++k) {
        const std::size_t i = m_active[k];
        const D3 a1 = p.G * m_force[k].acc, j1 = p.G * m_force[k].jerk, s1 = p.G * m_force[k].snap;
        const hermite6::Corrected6 c = hermite6::correct6(b.pos(i), b.vel(i), b.acc(i), m_jerk[i], m_snap[i], a1,
                                                          j1, s1, t_next - m_t[i]);
        b.set_pos(i, c.x);
        b.set_vel(i, c.v);
        b.set_acc(i, a1);
        m_jerk[i] = j1, m_snap[i] = s1, m_crackle[i] = c.crackle;
        m_t[i] = t_next;
        if (block) steps.next(i, hermite6::next_step6(p.eta, a1, j1, s1, c), m_dt[i]);
    }
    m_clock = t_next;
    steps.finish();
    return na;
}

void Hermite6Cpu::synchronised(const Bodies& b, Bodies& out) const {
    out = b;
    for (std::size_t i = 0; i < b.size(); ++i) {
        if (m_t[i] == m_clock) continue;
        D3 xp, vp, ap;
        hermite6::predict6(b.pos(i), b.vel(i), b.acc(i), m_jerk[i], m_snap[i], m_crackle[i], m_clock - m_t[i], xp,
                           vp, ap);
        out.set_pos(i, xp);
        out.set_vel(i, vp);
    }
}

void Hermite6Cpu::export_to(IntegratorState& st) const {
    const std::vector<D3>* d[] = {&m_jerk, &m_snap, &m_crackle};
    for (int k = 0; k < 3; ++k)
        for (int axis = 0; axis < 3; ++axis) {
            std::vector<double> v(d[k]->size());
            for (std::size_t i = 0; i < v.size(); ++i) v[i] = component((*d[k])[i], axis);
            st.arrays.emplace_back(std::string(kDerivative[k]) + kAxis[axis], std::move(v));
        }
    st.arrays.emplace_back("t", m_t);
    st.arrays.emplace_back("dt", m_dt);
    st.scalars.emplace_back("clock", m_clock);
}

void Hermite6Cpu::import_from(const IntegratorState& st, std::size_t n) {
    std::vector<D3> d[3];
    for (int k = 0; k < 3; ++k) {
        const std::string name = kDerivative[k];
        const std::vector<double>&x = need_array(st, name + "x", n), &y = need_array(st, name + "y", n),
                                   &z = need_array(st, name + "z", n);
        d[k].resize(n);
        for (std::size_t i = 0; i < n; ++i) d[k][i] = {x[i], y[i], z[i]};
    }
    std::vector<double> t = need_array(st, "t", n), dt = need_array(st, "dt", n);
    const double clock = need_scalar(st, "clock");
    m_jerk = std::move(d[0]), m_snap = std::move(d[1]), m_crackle = std::move(d[2]);
    m_t = std::move(t), m_dt = std::move(dt);
    m_clock = clock;
    m_active.clear();
    m_force.clear();
}

}  // namespace nbody
