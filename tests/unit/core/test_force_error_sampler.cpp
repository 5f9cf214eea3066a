// The live force error (core/force_error_sampler): the CPU tree against float64 direct summation on a small
// Plummer sphere, a result dropped when what it measured changes, and the Simulation polling it for the tree.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <memory>

#include "core/session/force_error_sampler.hpp"
#include "core/physics/force_reference.hpp"
#include "core/session/simulation.hpp"
#include "cpu/cpu_backend.hpp"
#include "tests/unit/test_util.hpp"

using namespace nbody;

namespace {

SimParams tree_params(float theta) {
    SimParams p;
    p.backend = BackendKind::Cpu;
    p.method = ForceMethod::Tree;
    p.tree.theta = theta;
    p.eps = 0.01;
    p.dt = 1e-3;
    p.cpu_threads = 2;
    return p;
}

// One measurement of `backend` as it stands.
ForceErrorResult measure(Backend& backend) {
    ForceErrorSampler s(1.0, 2);
    s.poll(backend, 0.0);
    s.wait();
    EXPECT_TRUE(s.latest().has_value());
    return s.latest().value_or(ForceErrorResult{});
}

// A CPU tree on a Plummer sphere and a sampler on two threads, interval 1 s.
struct TreeRun {
    CpuBackend b{2};
    ForceErrorSampler s{1.0, 2};
    TreeRun(std::size_t n, float theta) { b.reset(test::plummer_state(n, 5), tree_params(theta)); }
};

}  // namespace

TEST(ForceErrorSampler, TheSampleIsCappedByPairsAndSpreadOverTheIndexRange) {
    EXPECT_EQ(ForceErrorSampler::sample_size(0), 0u);
    EXPECT_EQ(ForceErrorSampler::sample_size(10), 10u);
    EXPECT_EQ(ForceErrorSampler::sample_size(2000), 1024u);
    EXPECT_EQ(ForceErrorSampler::sample_size(244140), 1024u);     // 2.5e8 / 1,024
    EXPECT_EQ(ForceErrorSampler::sample_size(2'000'000), 125u);   // 2.5e8 pairs
    EXPECT_EQ(ForceErrorSampler::sample_size(100'000'000), 64u);  // never fewer than 64
    const std::vector<std::size_t> rows = spread_rows(2000, 1024);
    ASSERT_EQ(rows.size(), 1024u);
    EXPECT_EQ(rows.front(), 0u);
    EXPECT_GT(rows.back(), 1990u);
    for (std::size_t k = 1; k < rows.size(); ++k) EXPECT_GT(rows[k], rows[k - 1]);
    EXPECT_EQ(spread_rows(5, 9).size(), 5u);
}

TEST(ForceErrorSampler, TheCpuTreesErrorIsSaneAndShrinksWithTheta) {
    const State s = test::plummer_state(2000, 5);
    double last = 1.0;
    for (float theta : {0.8f, 0.5f, 0.25f}) {
        CpuBackend b(2);
        b.reset(s, tree_params(theta));
        b.step(2);  // the accelerations leap-frog left at the current positions
        const ForceErrorResult r = measure(b);
        std::printf("theta %.2f: median %.2e, 99%% %.2e over %zu bodies (%.3f s)\n", double(theta), r.median,
                    r.p99, r.sample, r.seconds);
        EXPECT_EQ(r.sample, 1024u);
        EXPECT_EQ(r.n, 2000u);
        EXPECT_GE(r.p99, r.median);
        if (theta == 0.5f) {
            EXPECT_GT(r.median, 1e-6);  // the tree approximates: not float32 rounding alone
            EXPECT_LT(r.median, 1e-3);
            EXPECT_LT(r.p99, 1e-2);
        }
        EXPECT_LT(r.median, last) << theta;
        last = r.median;
    }
}

TEST(ForceErrorSampler, DirectSummationInFloat32IsOnlyRounding) {
    CpuBackend b(2);
    SimParams p = tree_params(0.5f);
    p.method = ForceMethod::Direct;
    b.reset(test::plummer_state(2000, 5), p);
    b.step(1);
    const ForceErrorResult r = measure(b);
    EXPECT_LT(r.median, 1e-6);
    EXPECT_LT(r.p99, 1e-5);
}

TEST(ForceErrorSampler, AResultIsDroppedWhenThetaChangesAndMeasuredAgainAtOnce) {
    TreeRun t(2000, 0.8f);
    auto& [b, s] = t;
    s.poll(b, 0.0);
    s.wait();
    ASSERT_TRUE(s.latest());
    const double coarse = s.latest()->median;
    SimParams finer = b.params();
    finer.tree.theta = 0.3f;
    b.set_params(finer);
    s.poll(b, 0.1);  // before the interval: the change alone starts a new measurement
    EXPECT_FALSE(s.latest()) << "a theta-0.8 figure shown beside theta 0.3";
    EXPECT_TRUE(s.measuring());
    s.wait();
    ASSERT_TRUE(s.latest());
    EXPECT_LT(s.latest()->median, coarse);
    EXPECT_DOUBLE_EQ(s.latest()->wall, 0.1);
}

TEST(ForceErrorSampler, AJobStartedBeforeAChangeIsDiscarded) {
    TreeRun t(2000, 0.8f);
    auto& [b, s] = t;
    s.poll(b, 0.0);  // in flight
    s.invalidate();  // a new scene while it runs
    s.wait();
    EXPECT_FALSE(s.latest());
}

TEST(ForceErrorSampler, AStateThatHasNotMovedIsNotMeasuredAgain) {
    TreeRun t(500, 0.5f);
    auto& [b, s] = t;
    s.poll(b, 0.0);
    s.wait();
    s.poll(b, 5.0);  // due, but paused: the same state
    EXPECT_FALSE(s.measuring());
    EXPECT_DOUBLE_EQ(s.latest()->wall, 0.0);  // its age keeps growing, truthfully
    b.step(1);
    s.poll(b, 5.1);
    EXPECT_TRUE(s.measuring());
    s.wait();
    EXPECT_DOUBLE_EQ(s.latest()->wall, 5.1);
}

TEST(ForceErrorSampler, TheSimulationMeasuresTheTreeOnlyAndForgetsOnAChange) {
    Simulation sim(
        [](const SimParams& p, BackendChoice*) { return std::make_unique<CpuBackend>(p.cpu_threads); });
    sim.load(test::plummer_state(1000, 5), tree_params(0.5f));
    sim.advance_frame(0.01, 0.0);
    sim.force_error().wait();
    ASSERT_TRUE(sim.force_error().latest());
    EXPECT_EQ(sim.force_error().latest()->n, 1000u);
    sim.pending().tree.theta = 0.7f;
    sim.advance_frame(0.01, 0.05);  // applied at this frame: the theta-0.5 figure goes
    sim.force_error().wait();
    ASSERT_TRUE(sim.force_error().latest());
    EXPECT_DOUBLE_EQ(sim.force_error().latest()->wall, 0.05);
    sim.pending().method = ForceMethod::Direct;
    sim.advance_frame(0.01, 0.1);
    EXPECT_FALSE(sim.force_error().latest());
    EXPECT_FALSE(sim.force_error().measuring());
    sim.pending().method = ForceMethod::Tree;
    sim.advance_frame(0.01, 0.2);
    sim.reset();
    EXPECT_FALSE(sim.force_error().latest());  // a reset forgets, whatever was in flight
}

// What a measurement costs at large N: the copies on the frame's thread and the float64 sums in the
// background.
TEST(ForceErrorSampler, CostAtLargeNOnRequest) {
    if (!std::getenv("NBODY_TREE_LARGE"))
        GTEST_SKIP() << "set NBODY_TREE_LARGE=1 to time N = 131,072 and 1,048,576";
    for (std::size_t n : {std::size_t(131072), std::size_t(1048576)}) {
        CpuBackend b(2);
        b.reset(test::plummer_state(n, 5), tree_params(0.5f));
        ForceErrorSampler s(1.0, 2);
        double poll_s = 0;
        for (int k = 0; k < 2; ++k) {  // the second: buffers reused, as every measurement after the first
            b.step(1);
            const auto t0 = std::chrono::steady_clock::now();
            s.poll(b, 10.0 * k);
            poll_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            s.wait();
        }
        ASSERT_TRUE(s.latest());
        EXPECT_EQ(s.latest()->sample, ForceErrorSampler::sample_size(n));
        std::printf(
            "N %zu: poll (copies, this thread) %.1f ms, sums %.3f s over %zu bodies: median %.2e 99%% %.2e\n",
            n, poll_s * 1e3, s.latest()->seconds, s.latest()->sample, s.latest()->median, s.latest()->p99);
    }
}
