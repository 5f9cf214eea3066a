#include "cpu/hermite_integrator.hpp"

#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "core/hermite.hpp"
#include "cpu/block_steps.hpp"

namespace nbody {

using hermite::D3;

namespace {

D3 times(double g, D3 v) {
    return g * v;
}

}  // namespace

void HermiteCpu::start(Bodies& b, const SimParams& p, int threads, WorkCount& work) {
    const std::size_t n = b.size();
    for (auto* v : {&m_jx, &m_jy, &m_jz, &m_t, &m_dt}) v->assign(n, 0.0);
    m_clock = 0;
    m_active.resize(n);
    for (std::size_t i = 0; i < n; ++i) m_active[i] = i;
    m_force.resize(n);
    hermite_forces(b.sources(), m_active.data(), n, p.precision, p.eps * p.eps, threads, m_force.data());
    work.evaluations += 1;
    work.add_direct(double(n) * double(n));
    const double dt_max = block_dt_max(p);
    for (std::size_t i = 0; i < n; ++i) {
        b.set_acc(i, times(p.G, m_force[i].acc));
        const D3 j = times(p.G, m_force[i].jerk);
        m_jx[i] = j.x, m_jy[i] = j.y, m_jz[i] = j.z;
        if (!integrator_info(p.integrator).block_steps) continue;
        const double want = hermite::initial_step(p.eta, b.acc(i), j);
        m_dt[i] = first_block_step(i, want, dt_max);
    }
}

void HermiteCpu::predict_all(const Bodies& b, double t) {
    const std::size_t n = b.size();
    if (m_pred.size() != n) m_pred.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        D3 xp, vp;
        hermite::predict(b.pos(i), b.vel(i), b.acc(i), {m_jx[i], m_jy[i], m_jz[i]}, t - m_t[i], xp, vp);
        m_pred.set_pos(i, xp);
        m_pred.set_vel(i, vp);
        m_pred.m[i] = b.m[i];
    }
}

std::size_t HermiteCpu::step(Bodies& b, const SimParams& p, int threads, WorkCount& work, double&) {
    const std::size_t n = b.size();
    const bool block = integrator_info(p.integrator).block_steps;
    // The active set: every body (shared steps), or those whose step ends first (block steps).
    const double t_next = next_active(p, m_clock, m_t, m_dt, m_active);
    if (n == 0) {  // nothing to integrate: the clock still moves
        m_clock = t_next;
        return 0;
    }
    predict_all(b, t_next);
    const std::size_t na = m_active.size();
    m_force.resize(na);
    hermite_forces(m_pred.sources(), m_active.data(), na, p.precision, p.eps * p.eps, threads,
                   m_force.data());
    work.evaluations += 1;
    work.add_direct(double(na) * double(n));

    BlockStepUpdate steps(p, t_next);
    for (std::size_t k = 0; k < na; ++k) {
        const std::size_t i = m_active[k];
        const D3 a1 = times(p.G, m_force[k].acc), j1 = times(p.G, m_force[k].jerk);
        const double dt = t_next - m_t[i];
        const hermite::Corrected c =
            hermite::correct(m_pred.pos(i), m_pred.vel(i), b.acc(i), {m_jx[i], m_jy[i], m_jz[i]}, a1, j1, dt);
        b.set_pos(i, c.x);
        b.set_vel(i, c.v);
        b.set_acc(i, a1);
        m_jx[i] = j1.x, m_jy[i] = j1.y, m_jz[i] = j1.z;
        m_t[i] = t_next;
        if (block) steps.next(i, hermite::aarseth_step(p.eta, a1, j1, c.a2, c.a3), m_dt[i]);
    }
    m_clock = t_next;
    steps.finish();
    return na;
}

void HermiteCpu::synchronised(const Bodies& b, Bodies& out) const {
    const std::size_t n = b.size();
    out = b;
    for (std::size_t i = 0; i < n; ++i) {
        if (m_t[i] == m_clock) continue;
        D3 xp, vp;
        hermite::predict(b.pos(i), b.vel(i), b.acc(i), {m_jx[i], m_jy[i], m_jz[i]}, m_clock - m_t[i], xp, vp);
        out.set_pos(i, xp);
        out.set_vel(i, vp);
    }
}

}  // namespace nbody
