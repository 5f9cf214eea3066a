#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numeric>

#include "core/errors.hpp"
#include "core/rows/force_method.hpp"
#include "core/session/simulation.hpp"
#include "cpu/cpu_backend.hpp"
#include "wrapped_cpu_backend.hpp"

using namespace nbody;

namespace {

State small_cluster(std::size_t n) {
    State s;
    s.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const float a = 0.7f * float(i), r = 0.2f + 0.01f * float(i);
        s.pos_mass[i] = {r * std::cos(a), r * std::sin(a), 0.05f * std::sin(3 * a), 1.0f / float(n)};
        s.vel[i] = {-0.1f * std::sin(a), 0.1f * std::cos(a), 0, 0};
        s.group[i] = uint32_t(i % 2);
    }
    return s;
}

SimParams cpu_params() {
    SimParams p;
    p.backend = BackendKind::Cpu;
    p.dt = 0.01;
    p.eps = 0.05;
    p.cpu_threads = 1;
    return p;
}

struct SimulationTest : ::testing::Test {
    int backends_made = 0;
    Simulation sim{[this](const SimParams& p, BackendChoice* choice) {
        ++backends_made;
        if (choice) choice->note = "test cpu";
        return std::make_unique<CpuBackend>(p.cpu_threads);
    }};
    void SetUp() override { sim.load(small_cluster(64), cpu_params()); }
};

}  // namespace

TEST_F(SimulationTest, PendingParametersApplyAtTheNextFrameBoundary) {
    sim.pending().dt = 0.002;                 // what the Physics panel does
    EXPECT_DOUBLE_EQ(sim.params().dt, 0.01);  // not yet
    EXPECT_DOUBLE_EQ(sim.backend().params().dt, 0.01);
    const double t0 = sim.backend().time();
    EXPECT_EQ(sim.advance_frame(1.0, 0.0), 1);
    EXPECT_DOUBLE_EQ(sim.params().dt, 0.002);
    EXPECT_DOUBLE_EQ(sim.backend().params().dt, 0.002);
    EXPECT_NEAR(sim.backend().time() - t0, 0.002, 1e-12);  // the step itself used the new dt
    EXPECT_EQ(backends_made, 1);                           // same backend: the state was kept
}

TEST_F(SimulationTest, AnInvalidEditIsRefusedAndTheSimulationKeepsRunning) {
    sim.pending().dt = -1;
    EXPECT_EQ(sim.advance_frame(1.0, 0.0), 1);
    EXPECT_NE(sim.error().find("dt"), std::string::npos);
    EXPECT_DOUBLE_EQ(sim.params().dt, 0.01);
    EXPECT_DOUBLE_EQ(sim.pending().dt, 0.01);  // the panel shows what is in effect again
}

TEST_F(SimulationTest, PauseStepAndRun) {
    sim.set_paused(true);
    EXPECT_EQ(sim.advance_frame(1.0, 0.0), 0);
    sim.request_step();
    EXPECT_EQ(sim.advance_frame(1.0, 0.1), 1);
    EXPECT_EQ(sim.advance_frame(1.0, 0.2), 0);
    sim.set_paused(false);
    sim.pending().steps_per_frame = 3;
    EXPECT_EQ(sim.advance_frame(1.0, 0.3), 3);
    EXPECT_EQ(sim.backend().steps_taken(), 4);
}

TEST_F(SimulationTest, SwitchingBackendKeepsTheParticlesWhereTheyAre) {
    sim.advance_frame(1.0, 0.0);
    State before, after;
    sim.backend().read_state(before);
    const uint64_t gen = sim.generation();
    sim.pending().cpu_threads = 2;  // a new backend object, like CPU <-> CUDA
    sim.set_paused(true);
    sim.advance_frame(1.0, 1.0);
    sim.backend().read_state(after);
    EXPECT_EQ(backends_made, 2);
    EXPECT_NE(sim.generation(), gen);
    ASSERT_EQ(before.size(), after.size());
    for (std::size_t i = 0; i < before.size(); ++i) EXPECT_EQ(before.pos_mass[i].x, after.pos_mass[i].x);
    EXPECT_DOUBLE_EQ(after.time, before.time);
    ASSERT_FALSE(sim.perf().markers().empty());
    EXPECT_NE(sim.perf().markers().back().label.find("backend"), std::string::npos);
}

// A backend that honours kernel variants (as CUDA does) around the CPU one: its label says what runs.
class VariantBackend final : public WrappedCpuBackend {
  public:
    std::string name() const override { return "variant test"; }
    BackendCaps caps() const override { return {false, true, false}; }
    std::string kernel_label() const override { return m_p.kernel_auto ? "auto picked ij" : kernel_label_of(m_p); }

  private:
    static std::string kernel_label_of(const SimParams& p) { return nbody::kernel_label(p); }
};

// Markers follow what runs (Backend::kernel_label), not what was asked for.
TEST_F(SimulationTest, AVariantChangeLeavesAMarkerWhereTheBackendRunsVariants) {
    Simulation vsim([](const SimParams&, BackendChoice*) { return std::make_unique<VariantBackend>(); });
    vsim.load(small_cluster(32), cpu_params());
    vsim.advance_frame(1.0, 1.0);
    EXPECT_TRUE(vsim.perf().markers().empty());  // the first label is the baseline, not a change
    vsim.pending().kernel_auto = false;
    vsim.pending().variant = KernelVariant::IUnrolled;
    vsim.pending().shape = variant_info(KernelVariant::IUnrolled).default_shape;
    vsim.advance_frame(1.0, 2.0);
    ASSERT_EQ(vsim.perf().markers().size(), 1u);
    EXPECT_EQ(vsim.perf().markers().back().label, "kernel " + vsim.backend().kernel_label());
    EXPECT_NE(vsim.perf().markers().back().label.find("i-unrolled"), std::string::npos);
}

TEST_F(SimulationTest, AVariantChangeOnTheCpuBackendLeavesNoMarker) {
    sim.advance_frame(1.0, 1.0);
    sim.pending().kernel_auto = false;  // asked for, but the CPU backend has one force loop: nothing changed
    sim.pending().variant = KernelVariant::IUnrolled;
    sim.pending().shape = variant_info(KernelVariant::IUnrolled).default_shape;
    sim.advance_frame(1.0, 2.0);
    EXPECT_TRUE(sim.perf().markers().empty());
}

TEST_F(SimulationTest, NanPausesAndResetRecovers) {
    // Masses far past float32's range (a state loaded directly: scene files cap them, core/limits.hpp) with
    // the largest G and time step allowed: accelerations overflow float within a step.
    SimParams p = cpu_params();
    p.dt = 1e6;
    p.G = 1e12;
    State heavy = small_cluster(8);
    for (auto& pm : heavy.pos_mass) pm.w *= 1e30;
    sim.load(heavy, p);
    sim.advance_frame(1.0, 10.0);
    EXPECT_TRUE(sim.blew_up());
    EXPECT_TRUE(sim.paused());
    EXPECT_NE(sim.error().find("NaN"), std::string::npos);
    EXPECT_EQ(sim.advance_frame(1.0, 11.0), 0);  // stays stopped
    sim.reset();
    EXPECT_FALSE(sim.blew_up());
    EXPECT_TRUE(sim.error().empty());
}

TEST_F(SimulationTest, AFailedLoadLeavesTheRunningSimulation) {
    SimParams p = cpu_params();
    p.dt = 0;
    EXPECT_THROW(sim.load(small_cluster(16), p), ParamError);
    EXPECT_EQ(sim.backend().size(), 64u);
    EXPECT_EQ(sim.advance_frame(1.0, 0.0), 1);
}

TEST_F(SimulationTest, AsFastAsPossibleFillsTheBudget) {
    sim.set_auto_steps(true);
    sim.advance_frame(1.0, 0.0);  // first frame: one step, to measure
    const double per = sim.seconds_per_step();
    ASSERT_GT(per, 0.0);
    const int steps = sim.advance_frame(20 * per, 0.1);
    EXPECT_GE(steps, 5);
    EXPECT_LE(steps, 80);  // timing noise, but the order of magnitude follows the budget
}

TEST_F(SimulationTest, DiagnosticsMeasureFromTheBaseline) {
    sim.diagnostics().poll(sim.backend(), 0.0);  // baseline job
    sim.diagnostics().wait();
    ASSERT_TRUE(sim.diagnostics().baseline().has_value());
    sim.pending().steps_per_frame = 10;
    sim.advance_frame(1.0, 0.0);
    sim.diagnostics().wait();
    sim.diagnostics().poll(sim.backend(), 100.0);  // due: copies the state, starts a job
    sim.diagnostics().wait();
    const auto last = sim.diagnostics().latest();
    ASSERT_TRUE(last.has_value());
    EXPECT_GT(last->sim_time, 0.0);
    EXPECT_LT(last->energy_error, 1e-2);
}

TEST_F(SimulationTest, AJobFromBeforeAResetIsDropped) {
    sim.diagnostics().poll(sim.backend(), 0.0);  // a job in flight
    sim.reset();                                 // rebaselines without waiting for it
    sim.diagnostics().wait();
    EXPECT_FALSE(sim.diagnostics().baseline().has_value());  // the stale result was not taken as the baseline
    sim.diagnostics().poll(sim.backend(), 1.0);
    sim.diagnostics().wait();
    EXPECT_TRUE(sim.diagnostics().baseline().has_value());
}

// A GPU backend that declines the O(N^2) potential (the tree at large N): sampling is off, says why, and
// costs no state copy; once the backend accepts again (direct summation), sampling resumes.
class DecliningBackend final : public WrappedCpuBackend {
  public:
    std::string name() const override { return "declining test"; }
    BackendCaps caps() const override { return {true, true, false}; }
    void read_state(State& out) override { ++reads, m_cpu.read_state(out); }
    std::optional<double> potential_energy() override {
        ++potential_calls;
        return decline ? std::nullopt : std::optional<double>(-0.25);
    }
    std::size_t size() const override { return reported_size ? reported_size : m_cpu.size(); }
    bool decline = true;
    int reads = 0, potential_calls = 0;
    std::size_t reported_size = 0;  // nonzero: the size the sampler sees
};

TEST(DiagnosticsSampler, AGpuThatDeclinesThePotentialTurnsSamplingOffWithoutCopyingTheState) {
    DecliningBackend b;
    b.reset(small_cluster(64), SimParams{});
    DiagnosticsSampler d(/*max_n=*/16);
    d.poll(b, 0.0);
    EXPECT_TRUE(d.declined());
    EXPECT_FALSE(d.enabled(b.size()));
    EXPECT_EQ(b.reads, 0);
    EXPECT_FALSE(d.baseline().has_value());
    b.decline = false;
    d.poll(b, 100.0);
    d.wait();
    EXPECT_FALSE(d.declined());
    EXPECT_TRUE(d.enabled(b.size()));
    EXPECT_EQ(b.reads, 1);
    ASSERT_TRUE(d.baseline().has_value());
}

// The tree above kSampledTreePotentialMaxN bodies: the sampler does not ask for the O(N^2) potential (many tree
// steps' worth), though the backend would give it; at that size by direct summation, or at the cap, it asks.
TEST(DiagnosticsSampler, TheTreeAtLargeNIsNotAskedForTheExactPotential) {
    DecliningBackend b;
    SimParams p;
    p.method = ForceMethod::Tree;
    b.reset(small_cluster(64), p);
    b.decline = false;
    b.reported_size = kSampledTreePotentialMaxN + 1;
    DiagnosticsSampler d(/*max_n=*/16);
    d.poll(b, 0.0);
    EXPECT_TRUE(d.declined());
    EXPECT_EQ(b.potential_calls, 0);
    EXPECT_EQ(b.reads, 0);
    b.reported_size = kSampledTreePotentialMaxN;
    d.poll(b, 100.0);
    d.wait();
    EXPECT_FALSE(d.declined());
    EXPECT_EQ(b.potential_calls, 1);
    p.method = ForceMethod::Direct;
    b.set_params(p);
    b.reported_size = kSampledTreePotentialMaxN + 1;
    d.poll(b, 200.0);
    d.wait();
    EXPECT_FALSE(d.declined());
    EXPECT_EQ(b.potential_calls, 2);
}

// The level histogram is copied from the backend as the tree cells are: at once for a new run or parameters,
// then at most every kBlockLevelsInterval of wall time and only when the state moved; none under shared
// steps.
class CountingLevelsBackend final : public WrappedCpuBackend {
  public:
    std::string name() const override { return "levels test"; }
    BackendCaps caps() const override { return {}; }
    void read_out(const ReadoutAsk& ask, Readouts& out) override {
        if (ask.block_levels) ++*calls;
        m_cpu.read_out(ask, out);
    }
    std::shared_ptr<int> calls = std::make_shared<int>(0);
};

TEST(SimulationBlockLevels, CopiedAtMostEveryIntervalAndOnlyUnderBlockSteps) {
    std::shared_ptr<int> calls;
    Simulation s([&](const SimParams&, BackendChoice*) {
        auto b = std::make_unique<CountingLevelsBackend>();
        calls = b->calls;
        return b;
    });
    SimParams p = cpu_params();
    p.integrator = Integrator::LeapFrogBlock;
    p.eta = 0.05;
    s.load(small_cluster(48), p);
    s.advance_frame(1.0, 0.0);
    ASSERT_TRUE(s.block_levels().has_value());
    EXPECT_EQ(*calls, 1);
    const std::vector<std::size_t>& count = s.block_levels()->count;
    EXPECT_EQ(std::accumulate(count.begin(), count.end(), std::size_t{0}), 48u);
    EXPECT_GT(s.block_levels()->last_active, 0u);
    s.advance_frame(1.0, 0.1);  // stepped, too soon
    EXPECT_EQ(*calls, 1);
    s.advance_frame(1.0, Simulation::kBlockLevelsInterval + 0.01);
    EXPECT_EQ(*calls, 2);
    s.set_paused(true);
    s.advance_frame(1.0, 1.0);  // due, but nothing moved
    EXPECT_EQ(*calls, 2);
    s.pending().eta = 0.1;
    s.advance_frame(1.0, 1.01);  // new parameters: at once, paused or not
    EXPECT_EQ(*calls, 3);
    s.pending().integrator = Integrator::LeapFrog;
    s.advance_frame(1.0, 2.0);
    EXPECT_FALSE(s.block_levels().has_value());
    EXPECT_EQ(*calls, 3);  // shared steps: not asked
}

// A refused precision names the whole set that runs here: hermite6-block's row takes ds and fp64, the CPU backend
// only fp64, so the advice is fp64 (choosing ds would only be refused in turn).
TEST_F(SimulationTest, ARefusedPrecisionNamesWhatRunsOnThisBackend) {
    sim.pending().integrator = Integrator::Hermite6Block;
    sim.pending().precision = Precision::Fp32;
    sim.advance_frame(1.0, 0.0);
    const std::string e = sim.error();
    EXPECT_NE(e.find("ds and fp64 only (got fp32)"), std::string::npos) << e;
    EXPECT_NE(e.find("choose fp64"), std::string::npos) << e;
    EXPECT_EQ(e.find("choose ds"), std::string::npos) << e;
    sim.clear_error();
    sim.pending().integrator = Integrator::Hermite6Block;
    sim.pending().precision = Precision::Fp64;
    sim.advance_frame(1.0, 0.0);
    EXPECT_EQ(sim.error(), "");  // the advice works
    EXPECT_EQ(sim.params().integrator, Integrator::Hermite6Block);
}
