// Running until a simulated time (--t-end) rather than a step count: what block steps need, since their
// count is not known in advance; and a block step underflow pausing the interactive simulation.
#include <gtest/gtest.h>

#include <string>

#include "app/headless_run.hpp"
#include "cli_parse.hpp"
#include "core/session/simulation.hpp"
#include "cpu/cpu_backend.hpp"
#include "cpu/hermite_test_util.hpp"

using namespace nbody;

namespace {

RunSummary run_until(std::vector<std::string> flags) {
    flags.insert(flags.end(), {"--headless", "--quiet", "--backend", "cpu", "--bodies", "128", "--threads",
                               "1", NBODY_SOURCE_DIR "/scenes/plummer.toml"});
    auto r = test::parse(flags);
    EXPECT_TRUE(std::holds_alternative<AppOptions>(r));
    const AppOptions& o = std::get<AppOptions>(r);
    const RunSetup setup = prepare_run(o);
    CpuBackend b(1);
    b.reset(initial_state(setup), setup.params);
    return run_headless(b, setup, o);
}

}  // namespace

// Block steps land exactly on t_end when it is a multiple of the largest step (here 1/16); shared steps
// take the whole number of steps that reaches it.
TEST(RunUntil, StopsAtTEndWhateverTheIntegrator) {
    const RunSummary block = run_until({"--integrator", "hermite-block", "--precision", "fp64", "--eta",
                                        "0.02", "--dt", "0.0625", "--t-end", "0.25"});
    EXPECT_EQ(block.sim_time, 0.25);
    EXPECT_GT(block.steps, 4);  // more block steps than the 4 largest steps it spans
    EXPECT_LT(block.rel_energy_error, 1e-5);
    EXPECT_LT(block.rate.interactions_per_s / block.rate.steps_per_s,
              128.0 * 128.0);  // active < N on average

    const RunSummary leapfrog_block = run_until({"--integrator", "leapfrog-block", "--method", "tree",
                                                 "--eta", "0.1", "--dt", "0.0625", "--t-end", "0.25"});
    EXPECT_EQ(leapfrog_block.sim_time, 0.25);
    EXPECT_GT(leapfrog_block.steps, 4);
    EXPECT_LT(leapfrog_block.rel_energy_error, 1e-3);

    const RunSummary shared = run_until({"--integrator", "hermite", "--dt", "0.01", "--t-end", "0.05"});
    EXPECT_EQ(shared.steps, 5);
    EXPECT_NEAR(shared.sim_time, 0.05, 1e-12);

    const RunSummary capped = run_until({"--dt", "0.01", "--t-end", "1", "--steps", "3"});
    EXPECT_EQ(capped.steps, 3);  // --steps caps a --t-end run
}

TEST(RunUntil, TEndMustBePositive) {
    testing::internal::CaptureStderr();
    testing::internal::CaptureStdout();
    const auto r = test::parse({"--headless", "--t-end", "-1"});
    testing::internal::GetCapturedStdout();
    const std::string err = testing::internal::GetCapturedStderr();
    ASSERT_TRUE(std::holds_alternative<int>(r));
    EXPECT_NE(std::get<int>(r), 0);
    EXPECT_NE(err.find("t-end"), std::string::npos) << err;
}

// Two bodies falling head-on with eps = 0 under block steps (Hermite and leap-frog): the step that would
// underflow pauses the simulation with the message, and the bodies are still there, finite, where they were.
TEST(RunUntil, BlockStepUnderflowPausesTheSimulation) {
    for (Integrator integrator : {Integrator::HermiteBlock, Integrator::LeapFrogBlock}) {
        Simulation sim{
            [](const SimParams& p, BackendChoice*) { return std::make_unique<CpuBackend>(p.cpu_threads); }};
        const State s = test::head_on_pair();
        SimParams p;
        p.backend = BackendKind::Cpu;
        p.cpu_threads = 1;
        p.eps = 0;
        p.dt = 0.125;
        p.integrator = integrator;
        p.precision = Precision::Fp64;
        p.steps_per_frame = 1000;
        sim.load(s, p);
        for (int frame = 0; frame < 200 && !sim.paused(); ++frame) sim.advance_frame(1.0, 0.1 * frame);
        ASSERT_TRUE(sim.paused());
        EXPECT_NE(sim.error().find("block step underflow"), std::string::npos) << sim.error();
        State now;
        sim.backend().read_state(now);
        EXPECT_TRUE(std::isfinite(now.pos_mass[0].x));
        EXPECT_GT(now.pos_mass[0].x, 0.0);
        EXPECT_EQ(sim.advance_frame(1.0, 100.0), 0);  // stays paused
    }
}
