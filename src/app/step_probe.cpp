#include "app/step_probe.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <vector>

#include "app/load_plan.hpp"
#include "cpu/cpu_backend.hpp"
#include "ui/load_budget.hpp"

namespace nbody {

namespace {
// A uniform ball of unit mass and radius at rest, from a fixed LCG: the probe's cost, not its physics.
State probe_ball(std::size_t n) {
    State s;
    s.resize(n);
    uint64_t x = 0x9e3779b97f4a7c15ull;
    auto uniform = [&x] {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        return float(x >> 40) / float(1ull << 24) * 2.0f - 1.0f;  // [-1, 1)
    };
    for (std::size_t i = 0; i < n; ++i) {
        float p[3];
        do {
            for (float& c : p) c = uniform();
        } while (p[0] * p[0] + p[1] * p[1] + p[2] * p[2] > 1.0f);
        s.pos_mass[i] = {p[0], p[1], p[2], 1.0f / float(n)};
    }
    return s;
}

double seconds_now(StepClock clock) {
    if (clock == StepClock::Wall)
        return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}
}  // namespace

double measure_cpu_step(const State& state, const SimParams& params, StepClock clock) {
    CpuBackend backend(params.cpu_threads);
    backend.reset(state, params);
    backend.step(1);  // the first step builds what later ones reuse (thread pool, tree buffers)
    std::vector<double> t;
    for (int i = 0; i < 3; ++i) {
        const double t0 = seconds_now(clock);
        backend.step(1);
        t.push_back(seconds_now(clock) - t0);
    }
    std::sort(t.begin(), t.end());
    return t[1];
}

double measure_cpu_step(std::size_t n, ForceMethod method, int threads, StepClock clock) {
    SimParams p;
    p.method = method;
    p.cpu_threads = threads;
    p.eps = 0.05;
    return measure_cpu_step(probe_ball(n), p, clock);
}

std::size_t cpu_smooth_bodies(ForceMethod method, int threads, double budget_s, StepClock clock) {
    const double at_probe = measure_cpu_step(kProbeBodies, method, threads, clock);
    // The largest N whose scaled step fits: the cost grows with N, so bisect on it.
    double lo = 1, hi = 1e9;
    while (hi - lo > 1) {
        const double mid = std::floor(0.5 * (lo + hi));
        (scaled_step_seconds(at_probe, kProbeBodies, std::size_t(mid), method) <= budget_s ? lo : hi) = mid;
    }
    return std::size_t(std::max(lo, LoadBudget::kFloor));
}

}  // namespace nbody
