#include "bench/bench_runner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include "core/rows/integrator.hpp"
#include "core/rows/force_method.hpp"

namespace nbody {

std::string utc_now() {
    char buf[32];
    const std::time_t t = std::time(nullptr);
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return buf;
}

double host_clock_ms(Backend& b, int k) {
    const auto t0 = std::chrono::steady_clock::now();
    b.step(k);
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

double backend_clock_ms(Backend& b, int k) {
    return b.timed_steps(k);
}

std::vector<double> time_repeats(Backend& backend, const StepTimer& timer, const BenchTiming& timing, BenchRow& row) {
    // Warm-up: grow the batch until it takes warmup_seconds; that also estimates the time per step.
    long long k = 1;
    double ms = timer(backend, 1);
    while (ms < timing.warmup_seconds * 1e3 && k < (1 << 22)) {
        k *= 4;
        ms = timer(backend, static_cast<int>(k));
    }
    const double est = ms / static_cast<double>(k);
    // Even batch sizes of at least 32 let the CUDA backend replay its graph for every step.
    long long steps = std::max<long long>(1, std::llround(timing.seconds_per_repeat * 1e3 / std::max(est, 1e-6)));
    if (steps >= 32) steps = (steps + 31) / 32 * 32;
    if (steps >= 32 && k < 32) timer(backend, 32);  // capture the CUDA graph before, not inside, the first repeat

    // Each repeat's work comes from the backend's own count (N^2 per shared step, active x N per block step).
    std::vector<double> per_step;
    std::vector<Throughput> rates;
    for (int r = 0; r < timing.repeats; ++r) {
        const WorkCount w0 = backend.work();
        const double repeat_ms = timer(backend, static_cast<int>(steps));
        per_step.push_back(repeat_ms / static_cast<double>(steps));
        rates.push_back(throughput(backend.work() - w0, repeat_ms * 1e-3));
    }
    std::vector<double> each;
    for (const Throughput& t : rates) each.push_back(t.interactions_per_s);
    std::sort(per_step.begin(), per_step.end());
    std::sort(rates.begin(), rates.end(),
              [](const Throughput& a, const Throughput& b) { return a.interactions_per_s < b.interactions_per_s; });
    row.n = backend.size();
    row.ms_per_step = per_step[per_step.size() / 2];
    row.ms_spread = (per_step.back() - per_step.front()) / row.ms_per_step;
    row.steps_per_repeat = steps;
    row.repeats = timing.repeats;
    row.rate = rates[rates.size() / 2];
    const Readouts r = backend.readouts(ReadoutAsk::launch());
    row.stages = r.stage_times;  // averaged since the reset: the warm-up and every repeat
    row.kernel = backend.kernel_label();
    const LaunchShape l = r.launch_shape;
    row.k = l.k, row.u = l.u, row.block = l.block, row.q = l.q, row.s = l.s, row.registers = l.registers;
    const SimParams& params = backend.params();
    row.precision = std::string(precision_name(params.precision));
    row.method = std::string(method_name(params.method));
    row.integrator = std::string(integrator_name(params.integrator));
    row.gpus = l.parts > 0 ? l.parts : params.gpus;
    return each;
}

BenchRow measure(Backend& backend, const StepTimer& timer, const State& state, const SimParams& params,
                 const ForceReference& reference, const BenchTiming& timing) {
    BenchRow row;
    backend.reset(state, params);
    if (!reference.acc.empty()) {
        std::vector<Double4> acc;
        backend.read_accelerations(acc);
        row.error = compare_forces(acc, reference);
    } else {
        row.error.max_rel = -1;
    }
    time_repeats(backend, timer, timing, row);
    return row;
}

}  // namespace nbody
