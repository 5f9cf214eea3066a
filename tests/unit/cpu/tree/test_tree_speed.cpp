// The CPU tree's speed against the CPU direct loop at N = 131,072 (issue 21's goal: >= 10x the direct steps/s
// on two cores). Timing-only, so it runs when NBODY_TREE_BENCH is set (a shared CI machine's timings assert
// nothing); it prints both rates and the tree's stage breakdown.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "core/parallel.hpp"
#include "cpu/force_f32.hpp"
#include "test_util.hpp"
#include "tree_test_util.hpp"

using namespace nbody;

namespace {
// CPU seconds of the whole process: on a shared machine wall time measures the neighbours too.
double cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}
}  // namespace

TEST(TreeSpeed, AgainstDirectAt131072) {
    const char* env = std::getenv("NBODY_TREE_BENCH");
    if (!env) GTEST_SKIP() << "set NBODY_TREE_BENCH=N (0 = 131,072) to time the tree against the direct loop";
    const std::size_t n = std::atoi(env) > 0 ? std::size_t(std::atoi(env)) : 131072;
    const State s = rounded_to_float32(test::plummer_state(n, 21));
    const int threads = resolve_threads(0);
    TreeParams p;  // the defaults, or NBODY_TREE_THETA / _LEAF / _GROUP to explore
    if (const char* v = std::getenv("NBODY_TREE_THETA")) p.theta = std::strtof(v, nullptr);
    if (const char* v = std::getenv("NBODY_TREE_LEAF")) p.leaf = std::atoi(v);
    if (const char* v = std::getenv("NBODY_TREE_GROUP")) p.group = std::atoi(v);
    CpuTree t(threads);
    std::vector<Float4> acc(n);
    TreeStats st;
    t.evaluate(s.pos_mass.data(), n, p, 0.01, acc.data(), &st);  // warm-up
    double best = 1e30;
    TreeStats best_st;
    const double c0 = cpu_seconds();
    for (int r = 0; r < 5; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        t.evaluate(s.pos_mass.data(), n, p, 0.01, acc.data(), &st);
        const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (sec < best) best = sec, best_st = st;
    }
    const double tree_cpu = (cpu_seconds() - c0) / 5;
    std::printf(
        "tree N = %zu, %d threads, theta %.2f leaf %d group %d: %.1f ms a step (%.2f steps/s); box %.2f keys "
        "%.2f sort %.2f "
        "build %.2f multipoles %.2f walk %.2f ms; %zu cells, %zu leaves, depth %d; per body %.0f body-body "
        "+ %.0f body-cell\n",
        n, threads, double(p.theta), p.leaf, p.group, best * 1e3, 1 / best, best_st.t_box * 1e3,
        best_st.t_keys * 1e3, best_st.t_sort * 1e3, best_st.t_build * 1e3, best_st.t_multipoles * 1e3,
        best_st.t_walk * 1e3, best_st.cells, best_st.leaves, best_st.depth, best_st.body_body_per_body(),
        best_st.body_cell_per_body());
    // the direct float32 loop over all threads, as CpuBackend runs it
    std::vector<float> x(n), y(n), z(n), m(n), ax(n), ay(n), az(n);
    for (std::size_t i = 0; i < n; ++i)
        x[i] = float(s.pos_mass[i].x), y[i] = float(s.pos_mass[i].y), z[i] = float(s.pos_mass[i].z),
        m[i] = float(s.pos_mass[i].w);
    const SourcesF32 src{x.data(), y.data(), z.data(), m.data(), n};
    // an eighth of the rows against all N, scaled by 8: the O(N^2) step would take seconds here
    const std::size_t rows = std::max<std::size_t>(1, n / 8);
    const double c1 = cpu_seconds();
    const auto t0 = std::chrono::steady_clock::now();
    parallel_for(rows, threads, [&](std::size_t b, std::size_t e) {
        accelerations_f32(src, b, e, 1e-4f, ax.data(), ay.data(), az.data());
    });
    const double direct = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() *
                          double(n) / double(rows);
    const double direct_cpu = (cpu_seconds() - c1) * double(n) / double(rows);
    std::printf("CPU seconds a step: tree %.3f, direct %.3f: ratio %.1fx\n", tree_cpu, direct_cpu,
                direct_cpu / tree_cpu);
    std::printf(
        "direct N = %zu: %.1f ms a step (%.3f steps/s, %.2e interactions/s, %s); tree / direct = %.1fx\n", n,
        direct * 1e3, 1 / direct, double(n) * double(n) / direct, force_f32_isa(), direct / best);
    EXPECT_GT(direct / best, 1.0);
}
