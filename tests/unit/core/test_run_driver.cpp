// The run driver (core/run_driver): chunks that stop at the goal's step count and end time and at the
// times asked on the way, and a blow-up reported in the same words by the window, headless runs and the
// library, wherever in a chunk it happens.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include "api/simulation_access.hpp"
#include "app/headless_run.hpp"
#include "core/errors.hpp"
#include "core/session/run_driver.hpp"
#include "core/session/simulation.hpp"
#include "nbody/nbody.hpp"

using namespace nbody;

namespace {

constexpr std::size_t kBadBody = 1;

// Two bodies that stand still while the clock runs at steps * dt (or stays put: `frozen`); from step
// `blow_at` on (never when < 0) body kBadBody's x is NaN. Every step it takes is counted.
class ClockBackend : public Backend {
  public:
    explicit ClockBackend(long long blow_at = -1, bool frozen = false)
        : m_blow_at(blow_at), m_frozen(frozen) {}
    std::string name() const override { return "clock"; }
    BackendCaps caps() const override { return {}; }
    void reset(const State& s, const SimParams& p) override {
        m_state = s, m_params = p, m_steps = 0, m_t0 = s.time;
    }
    void set_params(const SimParams& p) override { m_params = p; }
    const SimParams& params() const override { return m_params; }
    void step(int k) override {
        for (int i = 0; i < k; ++i)
            if (++m_steps == m_blow_at)
                m_state.pos_mass[kBadBody].x = std::numeric_limits<double>::quiet_NaN();
        ++m_calls;
    }
    void read_state(State& out) override {
        out = m_state;
        out.time = time();
    }
    void read_accelerations(std::vector<Double4>& out) override { out.assign(size(), Double4{}); }
    void copy_positions_to_host(Float4* dst) override {
        for (std::size_t i = 0; i < size(); ++i) dst[i] = to_float4(m_state.pos_mass[i]);
    }
    std::size_t size() const override { return m_state.size(); }
    double time() const override { return m_frozen ? m_t0 : m_t0 + double(m_steps) * m_params.dt; }
    long long steps_taken() const override { return m_steps; }
    void set_steps_taken(long long s) override { m_steps = s; }
    int calls() const { return m_calls; }

  private:
    long long m_blow_at;
    bool m_frozen;
    State m_state;
    SimParams m_params;
    long long m_steps = 0;
    double m_t0 = 0;
    int m_calls = 0;
};

State two_bodies() {
    State s;
    s.resize(2);
    s.pos_mass[0] = {-0.5, 0, 0, 0.5};
    s.pos_mass[1] = {0.5, 0, 0, 0.5};
    return s;
}

SimParams params(double dt) {
    SimParams p;
    p.backend = BackendKind::Cpu;
    p.cpu_threads = 1;
    p.dt = dt;
    p.eps = 0.01;
    return p;
}

std::unique_ptr<ClockBackend> clock_backend(double dt, long long blow_at = -1, bool frozen = false) {
    auto b = std::make_unique<ClockBackend>(blow_at, frozen);
    b->reset(two_bodies(), params(dt));
    return b;
}

// The words a face must give for the blow-up `b` went through, at the step it stopped.
std::string expected_words(const Backend& b) {
    return blow_up_message(b.steps_taken(), kBadBody, b.params().dt, b.params().eps);
}

}  // namespace

TEST(RunDriver, TheBlowUpWords) {
    EXPECT_EQ(
        blow_up_message(12, 3, 0.1, 0.001),
        "the state became NaN or infinite at step 12 (body 3): dt 0.1 is too large for eps 1e-3; lower dt "
        "or raise eps");
    auto b = clock_backend(0.5);
    EXPECT_FALSE(blow_up(*b).has_value());
}

TEST(RunDriver, StopsAtTheStepCountInGrowingChunks) {
    auto b = clock_backend(0.5);
    RunDriver run(*b, {100, std::nullopt}, 1);
    while (!run.finished()) {
        run.advance(run.next_chunk());
        run.adapt(0.0);  // instant chunks: each doubles
    }
    EXPECT_EQ(b->steps_taken(), 100);
    EXPECT_EQ(run.steps_done(), 100);
    EXPECT_EQ(b->calls(), 7);  // 1 + 2 + 4 + 8 + 16 + 32 + the 37 left
    EXPECT_FALSE(run.reached_end_time());
}

TEST(RunDriver, HitsTheEndTimeExactly) {
    // dt a power of two: every step boundary is exact, and the run ends on t_end itself.
    auto b = clock_backend(0.125);
    RunDriver run(*b, {std::numeric_limits<long long>::max(), 3.0}, 1);
    bool stopped_at_1 = false;
    while (!run.finished()) {
        run.advance(run.next_chunk(1.0));  // a stop at t = 1 on the way, as a checkpoint asks
        stopped_at_1 |= b->time() == 1.0;
        run.adapt(0.0);
    }
    EXPECT_TRUE(stopped_at_1);
    EXPECT_EQ(b->time(), 3.0);
    EXPECT_EQ(b->steps_taken(), 24);
    EXPECT_EQ(b->calls(), 5);  // 1, 2, 4, then 1 to land on t = 1, then the 16 left
    EXPECT_TRUE(run.reached_end_time());
    // dt 0.1: the tenth step's sum rounds to within 1e-9 of 1; no eleventh step is taken.
    auto c = clock_backend(0.1);
    RunDriver(*c, {std::numeric_limits<long long>::max(), 1.0}).run();
    EXPECT_EQ(c->steps_taken(), 10);
    EXPECT_NEAR(c->time(), 1.0, 1e-12);
    EXPECT_EQ(c->calls(), 1);  // one chunk by default
}

TEST(RunDriver, TheStepCountCapsAnEndTime) {
    auto b = clock_backend(0.125);
    RunDriver run(*b, {3, 1.0});
    run.run();
    EXPECT_EQ(b->steps_taken(), 3);
    EXPECT_FALSE(run.reached_end_time());
}

TEST(RunDriver, BlockStepsGoOneAtATimeTowardsTheEndTime) {
    auto b = clock_backend(0.125);
    SimParams p = b->params();
    p.integrator = Integrator::HermiteBlock;
    b->set_params(p);
    RunDriver run(*b, {std::numeric_limits<long long>::max(), 0.5});
    EXPECT_EQ(run.next_chunk(), 1);
    run.run();
    EXPECT_EQ(b->calls(), 4);
    EXPECT_EQ(b->time(), 0.5);
}

TEST(RunDriver, AStoppedClockEndsTheRun) {
    auto b = clock_backend(0.125, -1, true);
    RunDriver run(*b, {std::numeric_limits<long long>::max(), 1.0});
    run.run();  // returns rather than stepping for ever
    EXPECT_EQ(b->calls(), 1);
    EXPECT_FALSE(run.reached_end_time());
}

TEST(RunDriver, ABlowUpInTheMiddleOfAChunkIsAnError) {
    auto b = clock_backend(0.125, 5);
    RunDriver run(*b, {100, std::nullopt}, 8);
    try {
        run.advance(run.next_chunk());
        FAIL() << "the NaN went unnoticed";
    } catch (const Error& e) {
        EXPECT_EQ(b->steps_taken(), 8);  // found at the end of the chunk it happened in
        EXPECT_EQ(std::string(e.what()), expected_words(*b));
    }
}

// The same blow-up, at step 5 of chunks that end later, through each face.
TEST(RunDriver, EveryFaceReportsABlowUpInTheSameWords) {
    // Headless runs (nbody-sandbox --headless --steps 100).
    {
        auto b = clock_backend(0.125, 5);
        AppOptions o;
        o.steps = 100;
        o.quiet = true;
        o.diagnostics = false;
        RunSetup setup;
        setup.params = b->params();
        try {
            run_headless(*b, setup, o);
            FAIL() << "headless: the NaN went unnoticed";
        } catch (const Error& e) {
            EXPECT_GT(b->steps_taken(), 5);
            EXPECT_EQ(std::string(e.what()), expected_words(*b));
        }
    }
    // The window's simulation (10 steps a frame): paused, with the words as its error.
    {
        ClockBackend* made = nullptr;
        Simulation sim([&made](const SimParams&, BackendChoice*) {
            auto b = std::make_unique<ClockBackend>(5);
            made = b.get();
            return b;
        });
        SimParams p = params(0.125);
        p.steps_per_frame = 10;
        sim.load(two_bodies(), p);
        sim.advance_frame(1.0, 1.0);
        ASSERT_NE(made, nullptr);
        EXPECT_TRUE(sim.blew_up());
        EXPECT_TRUE(sim.paused());
        EXPECT_EQ(made->steps_taken(), 10);
        EXPECT_EQ(sim.error(), expected_words(*made));
    }
    // The library: step(20) and evolve(t).
    for (const bool evolve : {false, true}) {
        const double pos[] = {-0.5, 0, 0, 0.5, 0, 0}, vel[] = {0, 0, 0, 0, 0, 0}, mass[] = {0.5, 0.5};
        api::Params p;
        p.backend = "cpu";
        p.dt = 0.125;
        p.eps = 0.01;
        auto sim = api::Simulation::from_arrays(2, pos, vel, mass, p);
        ClockBackend* made = nullptr;
        api::SimulationAccess::set_backend_factory(sim, [&made](const SimParams&, BackendChoice*) {
            auto b = std::make_unique<ClockBackend>(5);
            made = b.get();
            return b;
        });
        try {
            evolve ? void(sim.evolve(2.5)) : sim.step(20);
            FAIL() << "library: the NaN went unnoticed";
        } catch (const Error& e) {
            ASSERT_NE(made, nullptr);
            EXPECT_EQ(made->steps_taken(), 20);
            EXPECT_EQ(std::string(e.what()), expected_words(*made));
        }
    }
}

// The library's evolve lands on t_end when it is a whole number of steps, and step(k) takes k.
TEST(RunDriver, TheLibraryHitsTheEndTime) {
    const double pos[] = {-0.5, 0, 0, 0.5, 0, 0}, vel[] = {0, -0.5, 0, 0, 0.5, 0}, mass[] = {0.5, 0.5};
    api::Params p;
    p.backend = "cpu";
    p.cpu_threads = 1;
    p.dt = 1.0 / 64;
    auto sim = api::Simulation::from_arrays(2, pos, vel, mass, p);
    EXPECT_EQ(sim.evolve(0.5), 0.5);
    EXPECT_EQ(sim.time(), 0.5);
    EXPECT_EQ(sim.steps(), 32);
    sim.step(3);
    EXPECT_EQ(sim.steps(), 35);
    EXPECT_EQ(sim.evolve(0.5), sim.time());  // already past: no step
    EXPECT_EQ(sim.steps(), 35);
}
