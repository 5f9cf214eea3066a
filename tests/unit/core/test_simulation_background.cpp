// Background steps (core/session/simulation_background.cpp): a host step slower than the frame runs on a worker
// thread; frames go on without waiting for it, the panels' facts stay as drawn, and anything that needs the
// backend waits for the step. A gated backend makes "the step is still running" a fact, not a timing.
#include <gtest/gtest.h>

#include <condition_variable>
#include <memory>
#include <mutex>

#include "core/session/simulation.hpp"
#include "wrapped_cpu_backend.hpp"

using namespace nbody;

namespace {

// The CPU backend whose step waits until the test opens the gate (one opening lets one step through).
class GatedBackend final : public WrappedCpuBackend {
  public:
    std::string name() const override { return "gated cpu"; }
    BackendCaps caps() const override { return {}; }
    void step(int k) override {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_cv.wait(lock, [&] { return m_open > 0 || m_always_open; });
        if (!m_always_open) --m_open;
        m_cpu.step(k);
    }
    WorkCount work() const override { return m_cpu.work(); }

    void open(bool forever = false) {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            ++m_open;
            m_always_open = m_always_open || forever;
        }
        m_cv.notify_all();
    }

  private:
    std::mutex m_mutex;
    std::condition_variable m_cv;
    int m_open = 0;
    bool m_always_open = false;
};

State two_bodies() {
    State s;
    s.resize(2);
    s.pos_mass[0] = {-0.5f, 0, 0, 0.5f};
    s.pos_mass[1] = {0.5f, 0, 0, 0.5f};
    s.vel[0] = {0, -0.5f, 0, 0};
    s.vel[1] = {0, 0.5f, 0, 0};
    return s;
}

struct BackgroundTest : ::testing::Test {
    GatedBackend* gated = nullptr;
    Simulation sim{[this](const SimParams&, BackendChoice*) {
        auto b = std::make_unique<GatedBackend>();
        gated = b.get();
        return b;
    }};
    void SetUp() override {
        SimParams p;
        p.backend = BackendKind::Cpu;
        p.dt = 0.01;
        sim.load(two_bodies(), p);
        sim.set_background_steps(true);
    }
    void TearDown() override { gated->open(true); }  // a step left waiting ends before the simulation
};

}  // namespace

TEST_F(BackgroundTest, FramesGoOnWhileAStepRunsAndItIsCollectedWhenDone) {
    // The first step's cost is unknown: it goes to the worker, and this frame returns at once.
    EXPECT_EQ(sim.advance_frame(1.0 / 60, 1.0), 0);
    EXPECT_TRUE(sim.stepping_in_background());
    for (int f = 0; f < 5; ++f) EXPECT_EQ(sim.advance_frame(1.0 / 60, 1.1 + f * 0.01), 0);  // never waits
    EXPECT_EQ(sim.facts().steps, 0);  // the panels still show the state as drawn
    gated->open();
    while (sim.stepping_in_background() && sim.advance_frame(1.0 / 60, 2.0) == 0) {}
    EXPECT_FALSE(sim.stepping_in_background());
    EXPECT_EQ(sim.facts().steps, 1);
    EXPECT_DOUBLE_EQ(sim.facts().time, 0.01);
}

TEST_F(BackgroundTest, PauseStopsAfterTheStepUnderWay) {
    sim.advance_frame(1.0 / 60, 1.0);
    ASSERT_TRUE(sim.stepping_in_background());
    sim.set_paused(true);
    gated->open();
    while (sim.stepping_in_background()) sim.advance_frame(1.0 / 60, 2.0);
    for (int f = 0; f < 3; ++f) EXPECT_EQ(sim.advance_frame(1.0 / 60, 3.0 + f), 0);
    EXPECT_FALSE(sim.stepping_in_background());
    EXPECT_EQ(sim.backend().steps_taken(), 1);
}

TEST_F(BackgroundTest, TheBackendAccessorWaitsForTheStep) {
    sim.advance_frame(1.0 / 60, 1.0);
    ASSERT_TRUE(sim.stepping_in_background());
    gated->open();
    // backend() collects the step first: the caller sees it whole, never half done.
    EXPECT_EQ(sim.backend().steps_taken(), 1);
    EXPECT_FALSE(sim.stepping_in_background());
    EXPECT_EQ(sim.facts().steps, 1);
}

TEST_F(BackgroundTest, AParameterEditWaitsForTheStepAndThenApplies) {
    sim.advance_frame(1.0 / 60, 1.0);
    ASSERT_TRUE(sim.stepping_in_background());
    sim.pending().dt = 0.02;
    EXPECT_DOUBLE_EQ(sim.params().dt, 0.01);  // not applied under a running step
    gated->open(true);
    while (sim.stepping_in_background()) sim.advance_frame(1.0 / 60, 2.0);
    sim.advance_frame(1.0 / 60, 3.0);
    EXPECT_DOUBLE_EQ(sim.params().dt, 0.02);
}

TEST_F(BackgroundTest, OffByDefaultAndForFastSteps) {
    Simulation plain([](const SimParams&, BackendChoice*) { return std::make_unique<CpuBackend>(1); });
    SimParams p;
    p.backend = BackendKind::Cpu;
    plain.load(two_bodies(), p);
    EXPECT_EQ(plain.advance_frame(1.0 / 60, 1.0), 1);  // headless and off-screen runs step in the frame
    plain.set_background_steps(true);
    EXPECT_EQ(plain.advance_frame(1.0 / 60, 2.0), 1);  // two bodies: far under the frame's budget
    EXPECT_FALSE(plain.stepping_in_background());
}
