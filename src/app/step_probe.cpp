#include "app/step_probe.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
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
}  // namespace

double measure_cpu_step(const State& state, const SimParams& params) {
    CpuBackend backend(params.cpu_threads);
    backend.reset(state, params);
    backend.step(1);  // the first step builds what later ones reuse (thread pool, tree buffers)
    std::vector<double> t;
    for (int i = 0; i < 3; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        backend.step(1);
        t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(t.begin(), t.end());
    return t[1];
}

double measure_cpu_step(std::size_t n, ForceMethod method, int threads) {
    SimParams p;
    p.method = method;
    p.cpu_threads = threads;
    p.eps = 0.05;
    return measure_cpu_step(probe_ball(n), p);
}

std::size_t cpu_smooth_bodies(ForceMethod method, int threads, double budget_s) {
    const double at_probe = measure_cpu_step(kProbeBodies, method, threads);
    // The largest N whose scaled step fits: the cost grows with N, so bisect on it.
    double lo = 1, hi = 1e9;
    while (hi - lo > 1) {
        const double mid = std::floor(0.5 * (lo + hi));
        (scaled_step_seconds(at_probe, kProbeBodies, std::size_t(mid), method) <= budget_s ? lo : hi) = mid;
    }
    return std::size_t(std::max(lo, LoadBudget::kFloor));
}

}  // namespace nbody
