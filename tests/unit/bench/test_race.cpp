// The kernel race (src/bench/race.*) on the CPU backend: the entries it builds, the state it puts back bit
// for bit, cancellation, and the sandbox's RaceDriver (its CSV, JSON and flags: test_race_output.cpp).
#include "tests/unit/race_test_util.hpp"
#include "core/rows/param_checks.hpp"

TEST(RaceEntries, TheCpuBackendRacesItsPrecisionsThenTheTreeAtTheThetaInEffect) {
    TreeParams tree;
    tree.theta = 0.7f;
    const std::vector<RaceEntry> e = race_entries(BackendCaps{}, tree);
    ASSERT_EQ(e.size(), precision_table().size() + 1);
    for (std::size_t i = 0; i + 1 < e.size(); ++i) {
        EXPECT_FALSE(e[i].variant.has_value());
        EXPECT_EQ(e[i].method, ForceMethod::Direct);
        EXPECT_EQ(e[i].precision, precision_table()[i].value);
        EXPECT_EQ(e[i].name, "cpu " + std::string(precision_table()[i].name));
    }
    EXPECT_EQ(e.back().name, "tree theta 0.7 alpha 0.001 fp32");
    EXPECT_EQ(e.back().method, ForceMethod::Tree);
    EXPECT_EQ(e.back().precision, Precision::Fp32);  // the one precision the tree runs in
    EXPECT_EQ(e.back().tree.theta, 0.7f);
    const SimParams p = entry_params(race_params(Integrator::Hermite), e.back(), BackendCaps{});
    EXPECT_EQ(p.method, ForceMethod::Tree);
    EXPECT_EQ(p.tree.theta, 0.7f);
    EXPECT_NO_THROW(validate(p));
}

TEST(RaceEntries, KernelVariantsComeFromTheVariantTablePlusAutoInEveryPrecision) {
    BackendCaps gpu;
    gpu.gpu = gpu.kernel_variants = true;
    const std::vector<RaceEntry> e = race_entries(gpu, {});
    ASSERT_EQ(e.size(), precision_table().size() * (variant_table().size() + 1) + 1);  // and the tree
    EXPECT_EQ(
        std::count_if(e.begin(), e.end(), [](const RaceEntry& r) { return r.method == ForceMethod::Tree; }),
        1);
    for (const auto& pr : precision_table()) {
        for (const VariantInfo& v : variant_table()) {
            const std::string name = std::string(v.name) + " " + std::string(pr.name);
            auto it = std::find_if(e.begin(), e.end(), [&](const RaceEntry& r) { return r.name == name; });
            ASSERT_NE(it, e.end()) << name;
            EXPECT_EQ(it->variant, v.variant);
            EXPECT_EQ(it->shape, v.default_shape);
            EXPECT_EQ(it->precision, pr.value);
        }
        const std::string autoname = "auto " + std::string(pr.name);
        EXPECT_TRUE(std::any_of(e.begin(), e.end(), [&](const RaceEntry& r) {
            return r.name == autoname && !r.variant && r.precision == pr.value;
        })) << autoname;
    }
}

TEST(RaceEntries, EntryParamsTimeTheLeapFrogForceWithTheEntrysKernel) {
    BackendCaps gpu;
    gpu.kernel_variants = true;
    SimParams base = race_params(Integrator::Hermite);
    base.kernel_auto = true;
    const RaceEntry none{"none fp64", KernelVariant::None, variant_info(KernelVariant::None).default_shape,
                         Precision::Fp64};
    const SimParams p = entry_params(base, none, gpu);
    EXPECT_EQ(p.integrator, Integrator::LeapFrog);
    EXPECT_EQ(p.precision, Precision::Fp64);
    EXPECT_FALSE(p.kernel_auto);
    EXPECT_EQ(p.variant, KernelVariant::None);
    EXPECT_EQ(p.dt, base.dt);
    EXPECT_TRUE(entry_params(base, {"auto fp32", std::nullopt, {}, Precision::Fp32}, gpu).kernel_auto);
}

TEST(Race, OnTheCpuBackendRestoresTheStateBitForBitAndMeasuresEveryEntry) {
    Raced r(300);
    std::string note;
    const auto results = run_race(r.backend, race_entries(r.backend.caps(), {}), quick(), nullptr, &note);
    r.expect_restored();
    EXPECT_TRUE(same_params(r.backend.params(), race_params()));
    ASSERT_EQ(results.size(), 4u);
    for (const RaceResult& e : results) {
        EXPECT_TRUE(e.skipped.empty()) << e.skipped;
        EXPECT_GT(e.row.rate.interactions_per_s, 0) << e.entry.name;
        EXPECT_GT(e.row.rate.steps_per_s, 0) << e.entry.name;
        EXPECT_NEAR(e.row.rate.gflops38 / e.row.rate.gflops20, 38.0 / 20.0, 1e-12);
        EXPECT_TRUE(std::isfinite(e.row.error.max_rel)) << e.entry.name;
        EXPECT_GE(e.row.error.max_rel, e.row.error.median_rel);
        // the label of what ran, not of what was in effect
        const std::string ran = e.entry.method == ForceMethod::Tree
                                    ? "tree " + opening_text(TreeParams{})
                                    : std::string(precision_name(e.entry.precision));
        EXPECT_NE(e.row.kernel.find(ran), std::string::npos) << e.row.kernel;
    }
    EXPECT_EQ(results[3].row.method, "tree");
    EXPECT_LT(results[2].row.error.max_rel, results[0].row.error.max_rel);  // fp64 beats fp32
    EXPECT_LT(results[2].row.error.max_rel, 1e-12);
    EXPECT_NE(note.find("all bodies"), std::string::npos) << note;
}

TEST(Race, TheRunGoesOnAsIfThereHadBeenNoRace) {
    Raced raced(200), plain(200);
    run_race(raced.backend, race_entries(raced.backend.caps(), {}), quick(), nullptr, nullptr);
    raced.backend.step(5);
    plain.backend.step(5);
    State a, b;
    raced.backend.read_state(a);
    plain.backend.read_state(b);
    expect_identical(a, b);
    EXPECT_EQ(raced.backend.steps_taken(), plain.backend.steps_taken());
}

TEST(Race, UnderHermiteTimesTheLeapFrogForceAndPutsHermiteBack) {
    Raced r(150, Integrator::Hermite);
    std::string note;
    const auto results = run_race(r.backend, race_entries(r.backend.caps(), {}), quick(), nullptr, &note);
    r.expect_restored();
    EXPECT_EQ(r.backend.params().integrator, Integrator::Hermite);
    EXPECT_NE(note.find("leap-frog"), std::string::npos) << note;
    for (const RaceResult& e : results) EXPECT_NE(e.row.integrator, "hermite");
}

TEST(Race, CancelMidRaceRestoresTheState) {
    Raced r(250);
    Race race(r.backend, race_entries(r.backend.caps(), {}), quick());
    EXPECT_EQ(race.progress().doing, "float64 reference");
    EXPECT_TRUE(race.step());  // the reference
    EXPECT_TRUE(race.step());  // cpu fp32
    EXPECT_EQ(race.progress().done, 2u);
    EXPECT_EQ(race.progress().total, 5u);  // the reference, three precisions and the tree
    race.cancel();
    r.expect_restored();
    EXPECT_TRUE(race.finished());
    EXPECT_TRUE(race.cancelled());
    EXPECT_FALSE(race.step());
    EXPECT_EQ(race.results().size(), 1u);
}

TEST(Race, AProgressCallbackReturningFalseCancels) {
    Raced r(250);
    int calls = 0;
    const auto results = run_race(
        r.backend, race_entries(r.backend.caps(), {}), quick(),
        [&](const RaceProgress& p) {
            EXPECT_EQ(p.done, std::size_t(calls));
            return ++calls < 3;
        },
        nullptr);
    EXPECT_EQ(calls, 3);
    EXPECT_EQ(results.size(), 1u);
    r.expect_restored();
}

TEST(Race, AboveThePairBudgetTheErrorIsMeasuredOnASampleAndSaysSo) {
    Raced r(400);
    RaceOptions o = quick();
    o.reference_pairs = 1000;  // 400^2 pairs is over: kMinSampledBodies of them
    std::string note;
    const auto results = run_race(r.backend, race_entries(r.backend.caps(), {}), o, nullptr, &note);
    EXPECT_NE(note.find("256 of 400"), std::string::npos) << note;
    for (const RaceResult& e : results) EXPECT_TRUE(std::isfinite(e.row.error.max_rel));
    r.expect_restored();
}

TEST(Race, AnEntrySlowerThanTheEvaluationLimitIsSkippedWithTheReason) {
    Raced r(200);
    RaceOptions o = quick();
    o.max_evaluation_seconds = 1e-9;  // every evaluation is slower than a nanosecond
    const auto results = run_race(r.backend, race_entries(r.backend.caps(), {}), o, nullptr, nullptr);
    ASSERT_EQ(results.size(), 4u);
    for (const RaceResult& e : results) {
        EXPECT_NE(e.skipped.find("one force evaluation took"), std::string::npos) << e.skipped;
        EXPECT_EQ(e.row.rate.interactions_per_s, 0);
    }
    r.expect_restored();
}

// A tree simulation races the direct entries as direct summation and the tree at its own theta, with its
// force error and its own counts: what it evaluated (fewer than N^2), N^2 only as the direct equivalent.
TEST(Race, TheTreeRacesAtTheThetaInEffectWithItsErrorAndItsOwnCounts) {
    const std::size_t n = 2000;
    SimParams p = race_params();
    p.method = ForceMethod::Tree;
    p.precision = Precision::Fp32;
    p.tree.theta = 0.7f;
    p.tree.alpha = 0;  // Barnes alone: at 2,000 bodies the acceleration criterion opens most cells
    CpuBackend b(2);
    b.reset(test::plummer_state(n), p);
    b.step(3);
    std::string note;
    const auto results = run_race(b, race_entries(b.caps(), b.params().tree), quick(), nullptr, &note);
    EXPECT_TRUE(same_params(b.params(), p));
    ASSERT_EQ(results.size(), 4u);
    const double n2 = double(n) * double(n);
    for (const RaceResult& e : results) {
        ASSERT_TRUE(e.skipped.empty()) << e.entry.name << ": " << e.skipped;
        const Throughput& t = e.row.rate;
        const double evaluated = t.interactions_per_s / t.steps_per_s,
                     direct = t.equivalent_direct_per_s / t.steps_per_s;
        EXPECT_NEAR(direct, n2, 1e-6 * n2) << e.entry.name;
        if (e.entry.method == ForceMethod::Direct) {
            EXPECT_EQ(e.row.method, "direct") << e.entry.name;  // not the tree the simulation runs
            EXPECT_EQ(t.body_cell_per_s, 0) << e.entry.name;
            EXPECT_NEAR(evaluated, n2, 1e-6 * n2) << e.entry.name;
            EXPECT_LT(e.row.error.median_rel, 1e-6) << e.entry.name;
            continue;
        }
        EXPECT_EQ(e.entry.name, "tree theta 0.7 fp32");
        EXPECT_EQ(e.row.method, "tree");
        EXPECT_EQ(e.row.variant, "tree");
        EXPECT_GT(t.body_cell_per_s, 0);
        EXPECT_LT(evaluated, 0.6 * n2);  // it skipped pairs (at 2,000 bodies and leaves of 32, 50% evaluated), and says so
        EXPECT_GT(e.row.error.median_rel, 1e-6);
        EXPECT_LT(e.row.error.median_rel, 3e-3);
        EXPECT_GE(e.row.error.max_rel, e.row.error.median_rel);
    }
    EXPECT_NE(note.find("tree's interactions/s"), std::string::npos) << note;
}

TEST(ReferenceForce, RowsAgreeWithTheFullReference) {
    const State s = test::plummer_state(120);
    const std::vector<Double3> full = reference_accelerations(s, 0.02, 1.5);
    const std::vector<std::size_t> rows{0, 7, 119, 7};
    const std::vector<Double3> some = reference_accelerations(s, rows, 0.02, 1.5, 2);
    ASSERT_EQ(some.size(), rows.size());
    for (std::size_t r = 0; r < rows.size(); ++r) {
        EXPECT_EQ(some[r].x, full[rows[r]].x);
        EXPECT_EQ(some[r].y, full[rows[r]].y);
        EXPECT_EQ(some[r].z, full[rows[r]].z);
    }
}

// ---------------------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------------------

namespace {

struct DriverTest : ::testing::Test {
    Simulation sim{
        [](const SimParams& p, BackendChoice*) { return std::make_unique<CpuBackend>(p.cpu_threads); }};
    void SetUp() override {
        sim.load(test::plummer_state(200), race_params());
        sim.advance_frame(0.01, 0);
    }
};

}  // namespace

TEST_F(DriverTest, RacesInSlicesWhilePausedAndResumesWhereItWas) {
    State before, after;
    sim.backend().read_state(before);
    const long long steps = sim.backend().steps_taken();
    RaceDriver d;
    d.seconds = 0.03;
    d.start(sim, d.seconds);
    EXPECT_TRUE(d.running());
    EXPECT_TRUE(sim.paused());
    int ticks = 0;
    while (d.running() && ticks < 100) {
        d.tick(sim);
        ++ticks;
    }
    EXPECT_EQ(ticks, 5);  // the reference, three precisions and the tree, one per frame
    EXPECT_FALSE(sim.paused());
    sim.backend().read_state(after);
    expect_identical(before, after);
    EXPECT_EQ(sim.backend().steps_taken(), steps);
    EXPECT_EQ(d.report().results.size(), 4u);
    EXPECT_NE(d.status().find("done"), std::string::npos);
    const std::string path = ::testing::TempDir() + "race_driver.json";
    EXPECT_NE(d.export_report(path, true).find("saved"), std::string::npos);
    EXPECT_NE(d.export_report("/nonexistent-dir/x.csv", false).find("/nonexistent-dir/x.csv"),
              std::string::npos);
}

TEST_F(DriverTest, CancelRestoresAndAResetBehindTheRaceAbandonsIt) {
    State before, after;
    sim.backend().read_state(before);
    RaceDriver d;
    d.start(sim, 0.03);
    d.tick(sim);
    d.tick(sim);
    d.cancel(sim);
    EXPECT_FALSE(d.running());
    sim.backend().read_state(after);
    expect_identical(before, after);
    EXPECT_EQ(d.report().results.size(), 1u);

    sim.set_paused(true);
    d.start(sim, 0.03);
    d.tick(sim);
    sim.reset();  // the app resets: the race must not put its own state back over it
    d.tick(sim);
    EXPECT_FALSE(d.running());
    EXPECT_TRUE(sim.paused());
    EXPECT_NE(d.status().find("abandoned"), std::string::npos);
    EXPECT_EQ(sim.backend().time(), 0.0);
}
