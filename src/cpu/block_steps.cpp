#include "cpu/block_steps.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "core/errors.hpp"
#include "core/physics/hermite.hpp"
#include "core/rows/integrator.hpp"

namespace nbody {

double block_dt_max(const SimParams& p) { return hermite::floor_pow2(p.dt); }

double next_active(const SimParams& p, double clock, const std::vector<double>& t, std::vector<double>& dt,
                   std::vector<std::size_t>& active) {
    const std::size_t n = t.size();
    active.clear();
    const bool block = integrator_info(p.integrator).block_steps;
    if (n == 0) return clock + (block ? block_dt_max(p) : p.dt);
    if (!block) {
        for (std::size_t i = 0; i < n; ++i) active.push_back(i), dt[i] = p.dt;
        return clock + p.dt;
    }
    double t_next = HUGE_VAL;
    for (std::size_t i = 0; i < n; ++i) t_next = std::min(t_next, t[i] + dt[i]);
    for (std::size_t i = 0; i < n; ++i)
        if (t[i] + dt[i] == t_next) active.push_back(i);
    return t_next;
}

double first_block_step(std::size_t i, double want, double dt_max) {
    const double dt = hermite::block_step(want, 0.0, 0.0, dt_max);
    if (dt == 0.0) block_underflow(i, 0.0, want);
    return dt;
}

void BlockStepUpdate::next(std::size_t i, double want, double& dt) {
    const double next = hermite::block_step(want, dt, m_t, m_dt_max);
    if (next > 0.0)
        dt = next;
    else if (m_bad < 0)
        m_bad = static_cast<long>(i), m_bad_want = want;
}

void BlockStepUpdate::finish() const {
    if (m_bad >= 0) block_underflow(static_cast<std::size_t>(m_bad), m_t, m_bad_want);
}

namespace {
constexpr const char* kStepArrays[] = {"t", "dt"};
}  // namespace

void BlockClock::start(std::size_t n) {
    m_t.assign(n, 0.0);
    m_dt.assign(n, 0.0);
    m_clock = 0;
    m_active.resize(n);
    for (std::size_t i = 0; i < n; ++i) m_active[i] = i;
}

void BlockClock::export_to(IntegratorState& st) const {
    st.arrays.emplace_back(kStepArrays[0], m_t);
    st.arrays.emplace_back(kStepArrays[1], m_dt);
    st.scalars.emplace_back("clock", m_clock);
}

BlockClock BlockClock::from_state(const IntegratorState& st, std::size_t n) {
    BlockClock c;
    c.m_t = need_array(st, kStepArrays[0], n);
    c.m_dt = need_array(st, kStepArrays[1], n);
    c.m_clock = need_scalar(st, "clock");
    return c;
}

void BlockClock::check_steps_hold_clock() const {
    for (std::size_t i = 0; i < m_t.size(); ++i)
        if (!(m_dt[i] > 0.0) || m_t[i] > m_clock || m_t[i] + m_dt[i] < m_clock)
            throw Error("integrator state: body " + std::to_string(i) + "'s step (t, dt) does not hold the clock");
}

}  // namespace nbody
