#include "app/load_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/kernels/kernel_tuning.hpp"  // with_commas
#include "core/rows/force_method.hpp"

namespace nbody {

namespace {
// Steps measured before the estimate is given: about a second of them, and at least a few.
constexpr double kMeasureSeconds = 1.0;
constexpr int kMeasureSteps = 5;
constexpr int kWarmupFrames = 2;
// A scene up to twice the smooth count loads whole: a few percent fewer bodies would change nothing one
// can see, and its steps take at most four times the budget (direct summation).
constexpr double kSlack = 2.0;

// Work a step of n bodies, up to a constant: the method's row (core/rows/force_method.cpp says how each grows).
double step_work(double n, ForceMethod method) { return method_info(method).relative_work(n); }

// "4.12 s", "2.5 min", "1.97 h": a duration a person reads at a glance (three significant digits).
std::string duration_text(double s) {
    char buf[32];
    if (s < 60)
        std::snprintf(buf, sizeof buf, "%.3g s", s);
    else if (s < 3600)
        std::snprintf(buf, sizeof buf, "%.3g min", s / 60);
    else
        std::snprintf(buf, sizeof buf, "%.3g h", s / 3600);
    return buf;
}
}  // namespace

double scaled_step_seconds(double seconds_at, std::size_t n_from, std::size_t n_to, ForceMethod method) {
    if (n_from == 0) return 0;
    return seconds_at * step_work(double(n_to), method) / step_work(double(n_from), method);
}

LoadRequest LoadPlan::plan(const LoadRequest& asked, std::size_t scene_bodies, double smooth_bodies,
                           const std::string& what) {
    clear();
    const double n = double(scene_bodies) * asked.multiplier;
    if (!(n > kSlack * smooth_bodies)) return asked;
    m_full = asked;
    m_full_bodies = std::size_t(std::llround(n));
    m_loaded_bodies = std::size_t(std::llround(smooth_bodies));
    m_what = what;
    return {asked.path, asked.multiplier * smooth_bodies / n};
}

void LoadPlan::clear() {
    m_full.reset();
    m_full_bodies = m_loaded_bodies = 0;
    m_seconds = m_estimate_s = 0;
    m_per_step.clear();
    m_skipped = 0;
}

void LoadPlan::add_measurement(int steps, double step_seconds, std::size_t n, ForceMethod method) {
    if (!m_full || steps <= 0 || n == 0) return;
    if (n != m_loaded_bodies)
        m_loaded_bodies = n, m_seconds = 0, m_per_step.clear();  // the scene's own rounding
    // The first frames' steps build what later ones reuse (threads, tree buffers): not counted.
    if (m_skipped < kWarmupFrames) {
        ++m_skipped;
        return;
    }
    m_seconds += step_seconds;
    m_per_step.push_back(step_seconds / steps);
    if (m_seconds < kMeasureSeconds || int(m_per_step.size()) < kMeasureSteps) return;
    // The median frame's step: a frame whose step was held up by another program does not move it.
    std::vector<double> sorted = m_per_step;
    std::nth_element(sorted.begin(), sorted.begin() + std::ptrdiff_t(sorted.size() / 2), sorted.end());
    m_estimate_s = scaled_step_seconds(sorted[sorted.size() / 2], n, m_full_bodies, method);
}

void LoadPlan::set_measured_step(double seconds, std::size_t n, ForceMethod method) {
    if (!m_full || n == 0) return;
    m_loaded_bodies = n;
    m_estimate_s = scaled_step_seconds(seconds, n, m_full_bodies, method);
}

std::string LoadPlan::note() const {
    if (!m_full) return "";
    std::string s = "Loaded with " + with_commas(m_loaded_bodies) + " of " + with_commas(m_full_bodies) +
                    " bodies so the window stays smooth on " + m_what + "; ";
    if (m_estimate_s > 0)
        s += "a step of all of them would take about " + duration_text(m_estimate_s) + " here (measured at " +
             with_commas(m_loaded_bodies) + " bodies).";
    else
        s += "measuring how long a step of all of them would take here...";
    return s;
}

}  // namespace nbody
