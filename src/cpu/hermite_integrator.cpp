#include "cpu/hermite_integrator.hpp"

#include <string>
#include <utility>

#include "core/errors.hpp"
#include "core/rows/integrator.hpp"

namespace nbody {

using hermite::D3;

namespace {
constexpr const char* kAxis[] = {"x", "y", "z"};
double component(D3 v, int axis) { return axis == 0 ? v.x : axis == 1 ? v.y : v.z; }
}  // namespace

template <class Order>
void HermiteCpu<Order>::start(Bodies& b, const SimParams& p, int threads, WorkCount& work) {
    check_cpu_reach(p);
    const std::size_t n = b.size();
    m_derivatives.assign(n, typename Order::Derivatives{});
    m_steps.start(n);
    m_force.resize(n);
    // The sums run on a copy whose accelerations each pass refreshes (6th order's second pass reads the first's);
    // b's accelerations are set once every pass is done.
    Bodies now = b;
    for (int pass = 0; pass < Order::kStartEvaluations; ++pass) {
        Order::sum(now, m_steps.active().data(), n, p, threads, m_force.data());
        for (std::size_t i = 0; i < n; ++i) now.set_acc(i, p.G * m_force[i].acc);
    }
    work.evaluations += Order::kStartEvaluations;
    work.add_direct(double(n) * double(n), Order::kStartEvaluations);
    const double dt_max = block_dt_max(p);
    const bool block = integrator_info(p.integrator).block_steps;
    for (std::size_t i = 0; i < n; ++i) {
        b.set_acc(i, now.acc(i));
        m_derivatives[i] = Order::started(m_force[i], p.G);
        if (!block) continue;
        const double want = Order::initial_step(p.eta, b.acc(i), m_derivatives[i]);
        m_steps.dt(i) = first_block_step(i, want, dt_max);
    }
}

template <class Order>
void HermiteCpu<Order>::predict_all(const Bodies& b, double t) {
    const std::size_t n = b.size();
    if (m_pred.size() != n) m_pred.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        D3 xp, vp, ap;
        Order::predict(b, i, m_derivatives[i], t - m_steps.t(i), xp, vp, ap);
        m_pred.set_pos(i, xp);
        m_pred.set_vel(i, vp);
        if constexpr (Order::kSumsReadAcceleration) m_pred.set_acc(i, ap);
        m_pred.m[i] = b.m[i];
    }
}

template <class Order>
std::size_t HermiteCpu<Order>::step(Bodies& b, const SimParams& p, int threads, WorkCount& work, double&) {
    const std::size_t n = b.size();
    const bool block = integrator_info(p.integrator).block_steps;
    // The active set: every body (shared steps), or those whose step ends first (block steps).
    const double t_next = m_steps.next(p);
    if (n == 0) {  // nothing to integrate: the clock still moves
        m_steps.advance(t_next);
        return 0;
    }
    predict_all(b, t_next);
    const std::vector<std::size_t>& active = m_steps.active();
    const std::size_t na = active.size();
    m_force.resize(na);
    Order::sum(m_pred, active.data(), na, p, threads, m_force.data());
    work.evaluations += 1;
    work.add_direct(double(na) * double(n));

    BlockStepUpdate steps(p, t_next);
    for (std::size_t k = 0; k < na; ++k) {
        const std::size_t i = active[k];
        const double want =
            Order::correct(b, m_pred, i, m_derivatives[i], m_force[k], p, t_next - m_steps.t(i), block);
        m_steps.finish_body(i, t_next);
        if (block) steps.next(i, want, m_steps.dt(i));
    }
    m_steps.advance(t_next);
    steps.finish();
    return na;
}

template <class Order>
void HermiteCpu<Order>::synchronised(const Bodies& b, Bodies& out) const {
    out = b;
    const double clock = m_steps.clock();
    for (std::size_t i = 0; i < b.size(); ++i) {
        if (m_steps.t(i) == clock) continue;
        D3 xp, vp, ap;
        Order::predict(b, i, m_derivatives[i], clock - m_steps.t(i), xp, vp, ap);
        out.set_pos(i, xp);
        out.set_vel(i, vp);
    }
}

template <class Order>
void HermiteCpu<Order>::export_to(IntegratorState& st) const {
    for (std::size_t k = 0; k < Order::kDerivativeNames.size(); ++k)
        for (int axis = 0; axis < 3; ++axis) {
            std::vector<double> v(m_derivatives.size());
            for (std::size_t i = 0; i < v.size(); ++i) v[i] = component(m_derivatives[i][k], axis);
            st.arrays.emplace_back(std::string(Order::kDerivativeNames[k]) + kAxis[axis], std::move(v));
        }
    m_steps.export_to(st);
}

template <class Order>
void HermiteCpu<Order>::import_from(const IntegratorState& st, std::size_t n) {
    std::vector<typename Order::Derivatives> d(n);
    for (std::size_t k = 0; k < Order::kDerivativeNames.size(); ++k) {
        const std::string name = Order::kDerivativeNames[k];
        const std::vector<double>&x = need_array(st, name + "x", n), &y = need_array(st, name + "y", n),
                                   &z = need_array(st, name + "z", n);
        for (std::size_t i = 0; i < n; ++i) d[i][k] = {x[i], y[i], z[i]};
    }
    BlockClock steps = BlockClock::from_state(st, n);
    m_derivatives = std::move(d);
    m_steps = std::move(steps);
    m_force.clear();
}

template class HermiteCpu<Hermite4Order>;
template class HermiteCpu<Hermite6Order>;

}  // namespace nbody
