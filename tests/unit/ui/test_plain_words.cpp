// The window's words: no command-line flags in GUI messages, the CPU fallback's reason, one rate format, and
// the Esc key's rule (cancel first, quit only on a second press within a second).
#include <gtest/gtest.h>

#include "bench/bench_output.hpp"
#include "bench/bench_runner.hpp"
#include "core/rows/integrator.hpp"
#include "core/rows/param_checks.hpp"

#include <cmath>

#include "io/run_summary.hpp"
#include "ui/load_budget.hpp"
#include "ui/plain_words.hpp"

using namespace nbody;

TEST(PlainWords, ABackendFailureNamesNoFlag) {
    const std::string m = in_words("not applied: --backend cuda: cudaGetDeviceCount: no CUDA-capable device");
    EXPECT_EQ(m.find("--"), std::string::npos) << m;
    EXPECT_NE(m.find("CUDA backend could not start"), std::string::npos) << m;
    EXPECT_NE(m.find("no CUDA-capable device"), std::string::npos) << m;  // the reason stays
    EXPECT_NE(m.find("keeps running"), std::string::npos) << m;
    const std::string b = in_words("--backend cuda: this build has no CUDA backend (configured without nvcc)");
    EXPECT_EQ(b.find("--"), std::string::npos) << b;
    EXPECT_NE(b.find("built without CUDA"), std::string::npos) << b;
}

TEST(PlainWords, OtherMessagesPassUnchanged) {
    EXPECT_EQ(in_words("scene generation cancelled"), "scene generation cancelled");
    EXPECT_EQ(in_words(""), "");
    EXPECT_EQ(in_words("--dt 0: must be > 0").find("--"), std::string::npos);
}

TEST(PlainWords, TheFallbackReasonComesFromTheBackendChoice) {
    EXPECT_EQ(cpu_fallback_reason({BackendKind::Cpu, BackendKind::Cpu, "", "CPU backend (asked for)", ""}),
              "");
    EXPECT_EQ(cpu_fallback_reason({BackendKind::Auto, BackendKind::Cuda, "", "CUDA backend: H200", ""}), "");
    const BackendChoice no_gpu =
        cpu_fallback_choice(BackendKind::Auto, "--backend cuda: no NVIDIA GPU was found (cudaErrorNoDevice)");
    EXPECT_EQ(no_gpu.note,
              "no usable CUDA device (no NVIDIA GPU was found (cudaErrorNoDevice)); falling back to the CPU "
              "backend");
    EXPECT_EQ(cpu_fallback_reason(no_gpu),
              "no NVIDIA GPU was found");  // the error's name stays in the terminal
    EXPECT_EQ(cpu_fallback_reason({BackendKind::Auto, BackendKind::Cpu, "this program was built without CUDA",
                                   "this build has no CUDA backend; using the CPU backend", ""}),
              "this program was built without CUDA");
    // The error's name goes from the middle too, where GL compute's words follow it.
    EXPECT_EQ(
        cpu_fallback_reason({BackendKind::Auto, BackendKind::Cpu,
                             "no NVIDIA GPU was found (cudaErrorNoDevice); GL compute would run on the CPU "
                             "too (a software rasterizer)",
                             "", ""}),
        "no NVIDIA GPU was found; GL compute would run on the CPU too (a software rasterizer)");
    EXPECT_EQ(in_words("--backend gl: no GL context is current"),
              "The GL compute backend could not start: no GL context is current.");
}

TEST(PlainWords, RatesHaveOneFormat) {
    EXPECT_EQ(interactions_text(2.521e9), "2.52 G interactions/s");
    EXPECT_EQ(flops_text(50.42), "50.4 Gflop/s");
    EXPECT_EQ(flops_text(2521), "2.52 Tflop/s");
}

TEST(PlainWords, TheSummaryPrintsEachFlopCountOnce) {
    RunSummary s;
    s.rate.interactions_per_s = 2.521e9;
    s.rate.gflops20 = 50.42, s.rate.gflops38 = 95.8, s.rate.gflops = 50.42, s.rate.flops_per_pair = 20;
    const std::string t = summary_text(s);
    EXPECT_NE(t.find("interactions/s    2.52 G\n"), std::string::npos) << t;
    EXPECT_NE(t.find("50.4 G at 20 flops/interaction, 95.8 G at 38\n"), std::string::npos) << t;
    s.rate.flops_per_pair = 60, s.rate.gflops = 151.3, s.integrator = "hermite";
    EXPECT_NE(summary_text(s).find(", 151 G at 60 (hermite)"), std::string::npos) << summary_text(s);
    s.rate.steps_per_s = 9.3021, s.wall_seconds = 12.34567;  // three significant digits, as every rate
    EXPECT_NE(summary_text(s).find("steps/s           9.3\n"), std::string::npos) << summary_text(s);
    EXPECT_NE(summary_text(s).find("wall time         12.3 s\n"), std::string::npos) << summary_text(s);
}

// nbody-bench's table: rates with an SI prefix, and "-" where a CPU row has no GPU launch shape.
TEST(PlainWords, TheBenchTableFollowsTheRuleAndLeavesGpuColumnsEmptyOnTheCpu) {
    BenchRow r;
    r.n = 4096, r.backend = "cpu", r.variant = "cpu";
    r.rate.interactions_per_s = 3.7402e9, r.rate.gflops20 = 74.8, r.rate.gflops38 = 142.1;
    r.rate.steps_per_s = 222.9, r.ms_per_step = 4.4866;
    r.error.max_rel = 1.5e-6, r.error.p99_rel = 1e-6, r.error.median_rel = 2e-7;  // relative errors stay "1.50e-06"
    testing::internal::CaptureStdout();
    print_table_header();
    print_row(r);
    const std::string out = testing::internal::GetCapturedStdout();
    EXPECT_EQ(out.find("e+0"), std::string::npos) << out;
    EXPECT_NE(out.find("3.74 G"), std::string::npos) << out;
    EXPECT_NE(out.find("223"), std::string::npos) << out;
    EXPECT_NE(out.find("4.49"), std::string::npos) << out;
    const std::string row = out.substr(out.find('\n') + 1);
    EXPECT_NE(row.find("   -  -  -     -   -   -    - "), std::string::npos) << out;
}

TEST(EscapeKey, CancelsFirstAndQuitsOnlyOnASecondPressWithinASecond) {
    EscapeKey k;
    using A = EscapeKey::Action;
    EXPECT_EQ(k.press(10.0, true), A::Cancel);     // generation under way: cancel, nothing else
    EXPECT_EQ(k.press(10.2, false), A::ArmQuit);   // the press after a cancel only arms
    EXPECT_TRUE(k.hint_visible(10.5));
    EXPECT_EQ(k.press(10.9, false), A::Quit);      // a second press within a second
    EXPECT_EQ(k.press(20.0, false), A::ArmQuit);
    EXPECT_FALSE(k.hint_visible(21.5));
    EXPECT_EQ(k.press(21.5, false), A::ArmQuit);   // too late: arms again
    EXPECT_EQ(k.press(21.6, true), A::Cancel);     // a cancel disarms
    EXPECT_EQ(k.press(21.7, false), A::ArmQuit);
}

TEST(LoadBudget, HeavyScenesLoadAtTheNThatStepsInTwentyMilliseconds) {
    // 131,072 bodies at 2e9 pairs/s (a CPU): 8.6 s a step; the window loads sqrt(2e9 x 0.02) = 6324.
    EXPECT_DOUBLE_EQ(LoadBudget::smooth_bodies(2e9, false), 6324);
    EXPECT_NEAR(LoadBudget::step_seconds(131072, 2e9), 8.59, 0.01);
    EXPECT_DOUBLE_EQ(LoadBudget::smooth_bodies(0, false), 4472);  // unmeasured CPU: 1e9 pairs/s assumed
    EXPECT_DOUBLE_EQ(LoadBudget::smooth_bodies(1e8, false), 4096);  // never below the floor
    // A rate measured on the two-body scene is overhead, not a rate for 131,072 bodies.
    EXPECT_EQ(LoadBudget::usable_rate(3e6, 2), 0.0);
    EXPECT_EQ(LoadBudget::usable_rate(2e9, 18000), 2e9);
    EXPECT_TRUE(std::isinf(LoadBudget::smooth_bodies(0, true)));  // an unmeasured GPU is not limited
    EXPECT_GT(LoadBudget::smooth_bodies(2e12, true), 131072);     // an H200's rate loads the Plummer whole
}

TEST(PlainWords, TheTreesForceErrorLineSaysTheSampleAndItsAge) {
    EXPECT_EQ(force_error_text(1.234e-4, 2.1e-3, 1024, 0.44),
              "force error vs direct:\nmedian 1.2e-4, 99% 2.1e-3\n(1,024 bodies, 0.4 s ago)");
    EXPECT_EQ(force_error_text(5e-12, 1.5e+10, 64, -1),
              "force error vs direct:\nmedian 5.0e-12, 99% 1.5e10\n(64 bodies, 0.0 s ago)");
}

// The level histogram's axis: powers of two as fractions or whole numbers, anything else in three digits.
TEST(PlainWords, BlockStepsAsFractions) {
    EXPECT_EQ(block_step_text(1.0 / 64), "1/64");
    EXPECT_EQ(block_step_text(std::ldexp(1.0, -12)), "1/4096");
    EXPECT_EQ(block_step_text(0.5), "1/2");
    EXPECT_EQ(block_step_text(1.0), "1");
    EXPECT_EQ(block_step_text(4.0), "4");
    EXPECT_EQ(block_step_text(0.01 / 8), "0.00125");  // dt 0.01 on level 3
    EXPECT_EQ(block_step_text(0.0), "0");
}

// A scene card's line on what the scene runs: the method with its opening tests, shared or block steps with
// their step, and the steps a frame.
TEST(PlainWords, SceneRunsSaysMethodStepsAndStepsAFrame) {
    SimParams p;
    p.dt = 1.0 / 64;
    p.steps_per_frame = 8;
    EXPECT_EQ(scene_runs_text(p), "Runs: direct summation, leapfrog at dt 1/64, 8 steps a frame.");
    p.method = ForceMethod::Tree;
    p.tree.theta = 1.0f;
    p.tree.alpha = 0.0f;
    p.integrator = Integrator::LeapFrogBlock;
    p.dt = 0.125;
    p.eta = 0.3;
    p.steps_per_frame = 1;
    EXPECT_EQ(scene_runs_text(p), "Runs: the tree (theta 1), leapfrog-block (largest step 1/8, eta 0.3), 1 block step a frame.");
}

// Choosing the tree while on Hermite moves the integrator to one the tree runs, and the window says so.
TEST(PlainWords, AMethodThatChangesTheIntegratorSaysSo) {
    SimParams before;
    before.integrator = Integrator::Hermite;
    SimParams after = before;
    after.method = ForceMethod::Tree;
    fit_to_method(after);
    ASSERT_NE(after.integrator, Integrator::Hermite);
    const std::string said = method_fit_text(before, after);
    EXPECT_NE(said.find("does not run hermite"), std::string::npos) << said;
    EXPECT_NE(said.find("the integrator is now " + std::string(integrator_name(after.integrator)) + " (was hermite)"),
              std::string::npos)
        << said;
    EXPECT_EQ(method_fit_text(before, before), "");
}

TEST(PlainWords, FewerStepsAFrameThanAskedAreSaid) {
    EXPECT_EQ(steps_here_text(4, 240, 60), "");  // 4 a frame: as asked
    const std::string s = steps_here_text(4, 9, 8);
    EXPECT_NE(s.find("about 1.1 a frame"), std::string::npos) << s;
    EXPECT_NE(s.find("(9 steps/s at 8 frames/s)"), std::string::npos) << s;
    EXPECT_NE(s.find("does not keep up with 4 a frame"), std::string::npos) << s;
}
