// A backend row added from this file alone (the recipe in docs/architecture.md): a rank for auto, a probe
// that can say no with its words, and a fallback. The factory's one loop chooses it, falls back from it with
// those words, and the headless driver runs it: adding a backend edits no other file.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "app/headless_run.hpp"
#include "app/options.hpp"
#include "core/errors.hpp"
#include "engine/backend_chooser.hpp"
#include "engine/backend_factory.hpp"
#include "engine/backend_rows.hpp"
#include "ui/plain_words.hpp"
#include "wrapped_cpu_backend.hpp"

namespace nbody {
namespace {

// No enumerator names it: a kind beside the real ones, as a new backend's is before its name is listed.
constexpr auto kTestKind = static_cast<BackendKind>(77);

// What the test row's probe finds; the row reads it each time it is started.
struct TestMachine {
    bool has_device = true;
    bool scene_fits = true;  // false: the backend starts but its reset says it is out of memory
};

// The test backend: the CPU's arithmetic under its own name, claiming a GPU (so a fallback from it is news).
class TestOnlyBackend final : public WrappedCpuBackend {
  public:
    explicit TestOnlyBackend(bool scene_fits) : m_scene_fits(scene_fits) {}
    std::string name() const override { return "test-only"; }
    BackendCaps caps() const override { return {true, false, false}; }
    void reset(const State& s, const SimParams& p) override {
        if (!m_scene_fits) throw BackendError("the test device has too little memory for this scene");
        WrappedCpuBackend::reset(s, p);
    }

  private:
    bool m_scene_fits;
};

BackendRow test_only_row(const TestMachine& machine, int rank) {
    return {kTestKind,
            "Test only",
            "",
            "A backend that lives in a unit test",
            rank,
            "the test device where it has one",
            {BackendKind::Cpu, true},
            [] { return std::string(); },
            [&machine](const SimParams&, const BackendMakeOptions&, BackendPick) {
                if (!machine.has_device)
                    return refused_start("no test device on this machine",
                                         "no usable test device (none found)", "no test device was found");
                BackendStart s;
                s.backend = std::make_unique<TestOnlyBackend>(machine.scene_fits);
                s.note = "test-only backend";
                return s;
            },
            {}};  // every method: it runs the CPU's evaluators
}

BackendRows rows_with(const BackendRow& extra) {
    BackendRows rows = backend_rows();
    rows.push_back(extra);
    return rows;
}

SimParams one_thread(BackendKind k = BackendKind::Auto) {
    SimParams p;
    p.backend = k;
    p.cpu_threads = 1;
    return p;
}

State few_bodies(std::size_t n = 32) {
    State s;
    s.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        s.pos_mass[i] = {double(i % 4), double(i / 4 % 4), double(i / 16), 1.0 / double(n)};
    return s;
}

bool starts_with(const std::string& s, const std::string& prefix) {
    return s.rfind(prefix, 0) == 0;
}

TEST(BackendRecipe, AutoRunsATestRowRankedFirst) {
    TestMachine machine;
    BackendChoice c;
    auto b = choose_backend(rows_with(test_only_row(machine, 5)), one_thread(), &c, WhenAskedFails::Throw);
    EXPECT_EQ(b->name(), "test-only");
    EXPECT_EQ(c.asked, BackendKind::Auto);
    EXPECT_EQ(c.running, kTestKind);
    EXPECT_EQ(c.note, "test-only backend");
    EXPECT_EQ(c.fallback, "");
    EXPECT_EQ(c.stand_in, BackendKind::Cpu);
}

TEST(BackendRecipe, TheFlagsHelpAndThePanelListIt) {
    TestMachine machine;
    const BackendRows rows = rows_with(test_only_row(machine, 5));
    const std::string help = backend_flag_help(rows);
    EXPECT_NE(help.find("or auto (the test device where it has one, else CUDA when a device is usable, else "
                        "the CPU)"),
              std::string::npos)
        << help;
    const std::vector<BackendOffer> offers = backend_offers(rows);
    ASSERT_EQ(offers.size(), rows.size());
    EXPECT_EQ(offers.back().label, "Test only");
    EXPECT_EQ(offers.back().kind, kTestKind);
}

TEST(BackendRecipe, AutoSkipsARowWithoutRankOrRankedLast) {
    TestMachine machine;
    BackendChoice c;
    auto never =
        choose_backend(rows_with(test_only_row(machine, 0)), one_thread(), &c, WhenAskedFails::Throw);
    EXPECT_NE(c.running, kTestKind);
    EXPECT_NE(never->name(), "test-only");
    auto last =
        choose_backend(rows_with(test_only_row(machine, 40)), one_thread(), &c, WhenAskedFails::Throw);
    EXPECT_NE(c.running, kTestKind);  // the CPU, ranked 30, always starts
}

// Its probe says no: auto goes on down the ranks, and the words of its refusal lead the note and the banner.
TEST(BackendRecipe, AutoFallsPastARowWhoseProbeSaysNoWithItsWords) {
    TestMachine machine;
    machine.has_device = false;
    BackendChoice c;
    auto b = choose_backend(rows_with(test_only_row(machine, 5)), one_thread(), &c, WhenAskedFails::Throw);
    EXPECT_NE(c.running, kTestKind);
    EXPECT_TRUE(starts_with(c.note, "no usable test device (none found); ")) << c.note;
    if (b->caps().gpu) {  // CUDA runs here: no banner for a GPU
        EXPECT_EQ(c.fallback, "");
        return;
    }
    EXPECT_EQ(c.running, BackendKind::Cpu);
    EXPECT_TRUE(starts_with(c.fallback, "no test device was found; ")) << c.fallback;  // then CUDA's reason
    EXPECT_NE(c.note.find("; using the CPU backend"), std::string::npos) << c.note;
    EXPECT_TRUE(starts_with(cpu_fallback_reason(c), "no test device was found")) << cpu_fallback_reason(c);
}

TEST(BackendRecipe, AskedForByNameItRunsOrSaysWhy) {
    TestMachine machine;
    const BackendRows rows = rows_with(test_only_row(machine, 0));  // by name, rank does not matter
    BackendChoice c;
    auto b = choose_backend(rows, one_thread(kTestKind), &c, WhenAskedFails::Throw);
    EXPECT_EQ(b->name(), "test-only");
    EXPECT_EQ(c.asked, kTestKind);
    EXPECT_EQ(c.running, kTestKind);
    machine.has_device = false;
    try {
        choose_backend(rows, one_thread(kTestKind), &c, WhenAskedFails::Throw);
        FAIL() << "a row whose probe says no ran";
    } catch (const BackendError& e) {
        const std::string what = e.what();
        EXPECT_TRUE(starts_with(what, "--backend ")) << what;
        EXPECT_NE(what.find(": no test device on this machine"), std::string::npos) << what;
    }
    // A front end that goes on (the sandbox): its fallback runs, with its words.
    auto cpu = choose_backend(rows, one_thread(kTestKind), &c, WhenAskedFails::FallBack);
    EXPECT_FALSE(cpu->caps().gpu);
    EXPECT_EQ(c.asked, kTestKind);
    EXPECT_EQ(c.running, BackendKind::Cpu);
    EXPECT_EQ(c.fallback, "no test device was found");
    EXPECT_EQ(c.note, "no usable test device (none found); using the CPU backend");
    EXPECT_EQ(c.stand_in, std::nullopt);  // nothing takes over from the CPU
}

// Through the headless driver (nbody-sandbox --headless): reset, steps, summary.
TEST(BackendRecipe, TheHeadlessDriverRunsIt) {
    TestMachine machine;
    const SimParams p = one_thread();
    BackendChoice c;
    auto b = choose_backend(rows_with(test_only_row(machine, 5)), p, &c, WhenAskedFails::Throw);
    reset_or_cpu(b, few_bodies(), p, &c);
    AppOptions o;
    o.steps = 12;
    o.quiet = true;
    o.diagnostics = false;
    RunSetup setup;
    setup.params = p;
    const RunSummary s = run_headless(*b, setup, o);
    EXPECT_EQ(s.backend, "test-only");
    EXPECT_EQ(s.steps, 12);
    EXPECT_EQ(s.n, 32u);
    EXPECT_EQ(c.running, kTestKind);
}

// A scene too big for it: its stand-in (the row's fallback) takes the scene, and the choice says why.
TEST(BackendRecipe, ASceneItCannotHoldGoesToItsFallback) {
    TestMachine machine;
    machine.scene_fits = false;
    const SimParams p = one_thread();
    BackendChoice c;
    auto b = choose_backend(rows_with(test_only_row(machine, 5)), p, &c, WhenAskedFails::Throw);
    ASSERT_EQ(c.running, kTestKind);
    reset_or_cpu(b, few_bodies(), p, &c);
    EXPECT_FALSE(b->caps().gpu);
    EXPECT_EQ(b->size(), 32u);
    EXPECT_EQ(c.running, BackendKind::Cpu);
    EXPECT_NE(c.fallback.find("too little memory"), std::string::npos) << c.fallback;
}

}  // namespace
}  // namespace nbody
