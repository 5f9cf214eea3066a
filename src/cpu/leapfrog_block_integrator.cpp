#include "cpu/leapfrog_block_integrator.hpp"

#include <utility>

#include "core/errors.hpp"
#include "core/leapfrog.hpp"
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

constexpr const char* kStepArrays[] = {"t", "dt"};

}  // namespace

void LeapfrogBlockCpu::start(Bodies& b, const SimParams& p, int threads, WorkCount& work) {
    const std::size_t n = b.size();
    m_t.assign(n, 0.0);
    m_dt.assign(n, 0.0);
    m_clock = 0;
    m_forces.evaluate(b, p, 0, n, threads);
    work.evaluations += 1;
    work.add(m_forces.last_work(p, n), 1);
    const double dt_max = block_dt_max(p);
    for (std::size_t i = 0; i < n; ++i) m_dt[i] = first_block_step(i, wanted_step(b, p, i), dt_max);
}

std::size_t LeapfrogBlockCpu::step(Bodies& b, const SimParams& p, int threads, WorkCount& work, double&) {
    const std::size_t n = b.size();
    // The opening half kicks of the steps that start now (all of them at the first step after start): done
    // here, not at the end of the last step, so between steps a body that just closed holds its true
    // velocity.
    for (std::size_t i = 0; i < n; ++i)
        if (m_t[i] == m_clock) kick_body(b, i, 0.5 * m_dt[i]);
    const double t_next = next_active(p, m_clock, m_t, m_dt, m_active);
    if (n == 0) {
        m_clock = t_next;
        return 0;
    }
    // Every body drifts to the block time (exact differences: both are multiples of the smallest step used).
    drift(n, b.x.data(), b.y.data(), b.z.data(), b.vx.data(), b.vy.data(), b.vz.data(), t_next - m_clock);
    const std::size_t na = m_active.size();
    m_forces.evaluate_rows(b, p, m_active, threads);
    work.evaluations += 1;
    work.add(m_forces.rows_work(p, na, n), 1);

    BlockStepUpdate steps(p, t_next);
    for (std::size_t i : m_active) {
        kick_body(b, i, 0.5 * m_dt[i]);  // the closing half kick, with the acceleration at t_next
        m_t[i] = t_next;
        steps.next(i, held_leapfrog_want(wanted_step(b, p, i), m_dt[i]), m_dt[i]);
    }
    m_clock = t_next;
    steps.finish();
    return na;
}

void LeapfrogBlockCpu::synchronised(const Bodies& b, Bodies& out) const {
    out = b;
    for (std::size_t i = 0; i < b.size(); ++i) {
        if (m_t[i] == m_clock) continue;
        const double g = (m_clock - m_t[i]) - 0.5 * m_dt[i];  // from the half-kicked velocity to clock()
        out.vx[i] += b.ax[i] * g, out.vy[i] += b.ay[i] * g, out.vz[i] += b.az[i] * g;
    }
}

void LeapfrogBlockCpu::export_to(IntegratorState& st) const {
    st.arrays.emplace_back(kStepArrays[0], m_t);
    st.arrays.emplace_back(kStepArrays[1], m_dt);
    st.scalars.emplace_back("clock", m_clock);
}

void LeapfrogBlockCpu::import_from(const IntegratorState& st, std::size_t n) {
    std::vector<double> t = need_array(st, kStepArrays[0], n), dt = need_array(st, kStepArrays[1], n);
    const double clock = need_scalar(st, "clock");
    for (std::size_t i = 0; i < n; ++i)
        if (!(dt[i] > 0.0) || t[i] > clock || t[i] + dt[i] < clock)
            throw Error("integrator state: body " + std::to_string(i) +
                        "'s step (t, dt) does not hold the clock");
    m_t = std::move(t), m_dt = std::move(dt);
    m_clock = clock;
    m_active.clear();
}

}  // namespace nbody
