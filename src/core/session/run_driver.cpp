#include "core/session/run_driver.hpp"

#include <algorithm>
#include <climits>
#include <cmath>

#include "core/errors.hpp"
#include "core/limits.hpp"
#include "core/rows/integrator.hpp"

namespace nbody {

namespace {
constexpr long long kMaxChunk = 1LL << 20;
constexpr double kGrowBelowSeconds = 0.1;
}  // namespace

bool reached_time(double t, double t_end) {
    return t >= t_end - 1e-9 * std::max(1.0, std::fabs(t_end));
}

long long steps_towards(double t_end, double t, const SimParams& p) {
    if (integrator_info(p.integrator).block_steps) return 1;
    return std::max(1LL, static_cast<long long>(std::ceil((t_end - t) / p.dt - 1e-9)));
}

std::string blow_up_message(long long step, std::size_t body, double dt, double eps) {
    return "the state became NaN or infinite at step " + std::to_string(step) + " (body " +
           std::to_string(body) + "): dt " + limits::format_number(dt) + " is too large for eps " +
           limits::format_number(eps) + "; lower dt or raise eps";
}

std::optional<std::string> blow_up(Backend& b) {
    const std::optional<std::size_t> bad = b.first_nonfinite_position();
    if (!bad) return std::nullopt;
    return blow_up_message(b.steps_taken(), *bad, b.params().dt, b.params().eps);
}

RunDriver::RunDriver(Backend& b, RunGoal goal, long long first_chunk)
    : m_backend(b), m_goal(goal), m_chunk(std::max(1LL, first_chunk)) {}

bool RunDriver::reached_end_time() const {
    return m_goal.t_end && reached_time(m_backend.time(), *m_goal.t_end);
}

bool RunDriver::finished() const {
    return m_done >= m_goal.steps || reached_end_time() || m_stalled;
}

long long RunDriver::next_chunk(std::optional<double> land_on) const {
    long long k = std::min(m_chunk, m_goal.steps - m_done);
    const double t = m_backend.time();
    if (m_goal.t_end) k = std::min(k, steps_towards(*m_goal.t_end, t, m_backend.params()));
    if (land_on && !reached_time(t, *land_on))
        k = std::min(k, steps_towards(*land_on, t, m_backend.params()));
    return std::max(1LL, k);
}

void RunDriver::advance(long long k) {
    const double before = m_backend.time();
    for (long long left = k; left > 0; left -= INT_MAX)
        m_backend.step(static_cast<int>(std::min<long long>(left, INT_MAX)));
    m_done += k;
    if (std::optional<std::string> why = blow_up(m_backend)) throw Error(*why);
    if (m_goal.t_end && !(m_backend.time() > before)) m_stalled = true;
}

void RunDriver::adapt(double chunk_seconds) {
    if (chunk_seconds < kGrowBelowSeconds) m_chunk = std::min(m_chunk, kMaxChunk / 2) * 2;
}

void RunDriver::run() {
    while (!finished()) advance(next_chunk());
}

}  // namespace nbody
