#include "cpu/leapfrog_block_integrator.hpp"

#include <utility>

#include "core/errors.hpp"
#include "core/physics/leapfrog.hpp"
#include "cpu/block_steps.hpp"

namespace nbody {

namespace {

// v += a h for body i: the shared leap-frog's kick, one body (3 multiply-adds).
void kick_body(Bodies& b, std::size_t i, double h) {
    b.vx[i] += b.ax[i] * h;
    b.vy[i] += b.ay[i] * h;
    b.vz[i] += b.az[i] * h;
}

double wanted_step(const Bodies& b, const SimParams& p, std::size_t i) {
    const double a2 = b.ax[i] * b.ax[i] + b.ay[i] * b.ay[i] + b.az[i] * b.az[i];
    const double v2 = b.vx[i] * b.vx[i] + b.vy[i] * b.vy[i] + b.vz[i] * b.vz[i];
    return block_leapfrog_step(p.eta, p.eps, a2, v2);
}

}  // namespace

void LeapfrogBlockCpu::start(Bodies& b, const SimParams& p, int threads, WorkCount& work) {
    const std::size_t n = b.size();
    m_steps.start(n);
    m_forces.evaluate(b, p, 0, n, threads);
    work.evaluations += 1;
    work.add(m_forces.last_work(p, n), 1);
    const double dt_max = block_dt_max(p);
    for (std::size_t i = 0; i < n; ++i) m_steps.dt(i) = first_block_step(i, wanted_step(b, p, i), dt_max);
}

std::size_t LeapfrogBlockCpu::step(Bodies& b, const SimParams& p, int threads, WorkCount& work, double&) {
    const std::size_t n = b.size();
    // The opening half kicks of the steps that start now (all of them at the first step after start): done
    // here, not at the end of the last step, so between steps a body that just closed holds its true
    // velocity.
    for (std::size_t i = 0; i < n; ++i)
        if (m_steps.t(i) == m_steps.clock()) kick_body(b, i, 0.5 * m_steps.dt(i));
    const double t_next = m_steps.next(p);
    if (n == 0) {
        m_steps.advance(t_next);
        return 0;
    }
    // Every body drifts to the block time (exact differences: both are multiples of the smallest step used).
    drift(n, b.x.data(), b.y.data(), b.z.data(), b.vx.data(), b.vy.data(), b.vz.data(), t_next - m_steps.clock());
    const std::vector<std::size_t>& active = m_steps.active();
    const std::size_t na = active.size();
    m_forces.evaluate_rows(b, p, active, threads);
    work.evaluations += 1;
    work.add(m_forces.rows_work(p, na, n), 1);

    BlockStepUpdate steps(p, t_next);
    for (std::size_t i : active) {
        kick_body(b, i, 0.5 * m_steps.dt(i));  // the closing half kick, with the acceleration at t_next
        m_steps.finish_body(i, t_next);
        steps.next(i, held_leapfrog_want(wanted_step(b, p, i), m_steps.dt(i)), m_steps.dt(i));
    }
    m_steps.advance(t_next);
    steps.finish();
    return na;
}

void LeapfrogBlockCpu::synchronised(const Bodies& b, Bodies& out) const {
    out = b;
    const double clock = m_steps.clock();
    for (std::size_t i = 0; i < b.size(); ++i) {
        if (m_steps.t(i) == clock) continue;
        const double g = (clock - m_steps.t(i)) - 0.5 * m_steps.dt(i);  // from the half-kicked velocity to clock()
        out.vx[i] += b.ax[i] * g, out.vy[i] += b.ay[i] * g, out.vz[i] += b.az[i] * g;
    }
}

void LeapfrogBlockCpu::export_to(IntegratorState& st) const { m_steps.export_to(st); }

void LeapfrogBlockCpu::import_from(const IntegratorState& st, std::size_t n) {
    BlockClock steps = BlockClock::from_state(st, n);
    steps.check_steps_hold_clock();
    m_steps = std::move(steps);
}

}  // namespace nbody
