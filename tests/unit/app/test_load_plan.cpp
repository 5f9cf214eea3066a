// The window's plan for a scene too heavy to step smoothly here (app/load_plan.hpp): fewer bodies, the full
// request kept by value for "Load full N", and an estimate measured on the reduced scene.
#include <gtest/gtest.h>

#include <cmath>

#include "app/load_plan.hpp"
#include "app/step_probe.hpp"
#include "ui/load_budget.hpp"

using namespace nbody;

TEST(LoadPlan, ASceneWithinTheBudgetLoadsWhole) {
    LoadPlan p;
    const LoadRequest r = p.plan({"a.toml", 2.0}, 1000, 4096, "the CPU");
    EXPECT_EQ(r.path, "a.toml");
    EXPECT_EQ(r.multiplier, 2.0);
    EXPECT_FALSE(p.full());
    EXPECT_EQ(p.note(), "");
    // Up to twice the smooth count: whole too (7,500 where 7,039 step smoothly is not worth a note).
    EXPECT_EQ(p.plan({"figure8.toml", 1.0}, 7500, 7039, "the CPU").multiplier, 1.0);
    EXPECT_FALSE(p.full());
    EXPECT_NEAR(p.plan({"cartwheel.toml", 1.0}, 18000, 7039, "the CPU").multiplier * 18000, 7039, 1e-6);
    EXPECT_TRUE(p.full());
}

TEST(LoadPlan, AHeavySceneLoadsReducedAndKeepsItsFullRequest) {
    LoadPlan p;
    const LoadRequest r = p.plan({"scenes/mwa.toml", 1.0}, 2097152, 4096, "the CPU");
    EXPECT_EQ(r.path, "scenes/mwa.toml");
    EXPECT_NEAR(r.multiplier * 2097152, 4096, 1e-6);
    ASSERT_TRUE(p.full());
    EXPECT_EQ(p.full_bodies(), 2097152u);
    EXPECT_NE(p.note().find("Loaded with 4,096 of 2,097,152 bodies"), std::string::npos) << p.note();
    EXPECT_NE(p.note().find("measuring"), std::string::npos) << p.note();
    // "Load full N": the request is a copy, so planning it again (which clears the plan) leaves it whole.
    const LoadRequest full = *p.full();
    const LoadRequest again = p.plan(full, 2097152, INFINITY, "the CPU");
    EXPECT_EQ(again.path, "scenes/mwa.toml");
    EXPECT_EQ(again.multiplier, 1.0);
    EXPECT_FALSE(p.full());
}

TEST(LoadPlan, TheEstimateIsTheMeasuredStepScaledByTheMethodsCost) {
    EXPECT_DOUBLE_EQ(scaled_step_seconds(0.01, 1000, 4000, ForceMethod::Direct), 0.16);
    // The tree: N log^2 N, so 4,096 -> 2,097,152 is 512 x (21/12)^2.
    EXPECT_NEAR(scaled_step_seconds(0.01, 4096, 2097152, ForceMethod::Tree), 0.01 * 512 * 441.0 / 144.0,
                1e-9);
    LoadPlan p;
    p.plan({"s.toml", 1.0}, 40000, 4000, "the CPU");
    p.add_measurement(1, 2.0, 4000, ForceMethod::Direct);  // two warm-up frames: not counted
    p.add_measurement(1, 2.0, 4000, ForceMethod::Direct);
    for (int frame = 0; frame < 4; ++frame) p.add_measurement(4, 0.2, 4000, ForceMethod::Direct);
    EXPECT_FALSE(p.measured()) << "four frames are too few";
    p.add_measurement(1, 1.0, 4000, ForceMethod::Direct);  // a frame held up by another program
    ASSERT_TRUE(p.measured());
    EXPECT_NEAR(p.estimate_seconds(), 0.05 * 100, 1e-9);  // 50 ms a step at 4,000; 100x the pairs at 40,000
    EXPECT_NE(p.note().find("would take about 5 s here (measured at 4,000 bodies)"), std::string::npos)
        << p.note();
    p.clear();
    EXPECT_FALSE(p.measured());
    EXPECT_EQ(p.note(), "");
}

TEST(LoadPlan, LongEstimatesReadInMinutesAndHours) {
    LoadPlan p;
    p.plan({"s.toml", 1.0}, 4000000, 4000, "the CPU");
    for (int frame = 0; frame < 7; ++frame)
        p.add_measurement(1, 0.25, 4000, ForceMethod::Direct);  // 1e6 x the pairs
    EXPECT_NE(p.note().find("about 69.4 h"), std::string::npos) << p.note();
}

// The estimate against the truth on this machine: the tree's step measured at 8,192 bodies (the reduced
// scenes the window measures have several thousand), scaled to 65,536 (8x), is within 2x of a step measured
// there (CPU backend, one thread). Below about 4,096 bodies the tree is too shallow for the scaling to hold.
// The thread's CPU time: the cost model's claim, which a neighbour's load on a shared core does not change.
TEST(LoadPlan, TheTreesScaledEstimateIsWithinTwiceTheMeasuredStep) {
    const double small = measure_cpu_step(8192, ForceMethod::Tree, 1, StepClock::ThisThreadCpu);
    const double large = measure_cpu_step(65536, ForceMethod::Tree, 1, StepClock::ThisThreadCpu);
    const double estimate = scaled_step_seconds(small, 8192, 65536, ForceMethod::Tree);
    EXPECT_GT(estimate, 0.5 * large) << "measured " << small << " s at 8,192, " << large << " s at 65,536";
    EXPECT_LT(estimate, 2.0 * large) << "measured " << small << " s at 8,192, " << large << " s at 65,536";
}

// The CPU's smooth body count is measured here: a step of that many bodies takes about the budget (at most
// twice it), and the tree, doing less work a body, steps more of them in the same time.
// Timed in the thread's CPU time: with wall time, two busy neighbours on this machine's two cores failed a
// CI run in all three tries (a step 2.1 budgets long, the tree's count below the direct sum's). The tries
// stay for what CPU time still feels (a neighbour's traffic through the shared cache); the last try's
// figures are the ones asserted.
TEST(StepProbe, TheMeasuredSmoothBodyCountStepsWithinTheBudget) {
    const double budget = 0.02;
    const StepClock cpu = StepClock::ThisThreadCpu;
    std::size_t direct = 0, tree = 0;
    double t = budget;
    for (int attempt = 0; attempt < 3; ++attempt) {
        direct = cpu_smooth_bodies(ForceMethod::Direct, 1, budget, cpu);
        t = double(direct) > LoadBudget::kFloor ? measure_cpu_step(direct, ForceMethod::Direct, 1, cpu)
                                                : budget;
        tree = cpu_smooth_bodies(ForceMethod::Tree, 1, budget, cpu);
        if (t < 2 * budget && t > 0.5 * budget && tree > direct) break;
    }
    EXPECT_GE(double(direct), LoadBudget::kFloor);
    EXPECT_LT(t, 2 * budget) << direct << " bodies";
    EXPECT_GT(t, 0.5 * budget) << direct << " bodies";
    EXPECT_GT(tree, direct);
}
