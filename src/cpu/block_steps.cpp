#include "cpu/block_steps.hpp"

#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "core/hermite.hpp"
#include "core/integrator.hpp"

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

}  // namespace nbody
