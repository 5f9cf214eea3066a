// The race's report as CSV, JSON and text bars, and nbody-bench --race's flags.
#include "tests/unit/race_test_util.hpp"

namespace {

RaceReport sample_report() {
    Raced r(100);
    RaceReport rep{r.backend.name(), "2026-11-24T00:00:00Z", "test", "", 100, 0.03, {}};
    rep.results = run_race(r.backend, race_entries(r.backend.caps(), {}), quick(), nullptr, &rep.note);
    RaceResult skipped{
        {"ij \"odd\", shape fp32", KernelVariant::IJUnrolled, {}, Precision::Fp32}, {}, "block: too big"};
    rep.results.push_back(skipped);
    return rep;
}

}  // namespace

TEST(RaceOutput, CsvHasAHeaderAndOneRowPerEntryWithTheSameFields) {
    const RaceReport rep = sample_report();
    std::istringstream in(race_csv(rep));
    std::string line;
    ASSERT_TRUE(std::getline(in, line));
    const std::vector<std::string> header = csv_fields(line);
    EXPECT_EQ(header.at(0), "entry");
    EXPECT_EQ(header.at(5), "interactions_per_s");
    std::vector<std::vector<std::string>> rows;
    while (std::getline(in, line)) rows.push_back(csv_fields(line));
    ASSERT_EQ(rows.size(), rep.results.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        ASSERT_EQ(rows[i].size(), header.size()) << i;
        EXPECT_EQ(rows[i][0], rep.results[i].entry.name);  // quotes and commas survive
    }
    EXPECT_GT(std::stod(rows[0][5]), 0);
    EXPECT_EQ(rows.back().back(), "block: too big");
    EXPECT_TRUE(rows.back()[5].empty());
}

TEST(RaceOutput, JsonParsesWithOneRowPerEntry) {
    const RaceReport rep = sample_report();
    const nlohmann::json j = nlohmann::json::parse(race_json(rep));
    ASSERT_EQ(j.at("rows").size(), rep.results.size());
    EXPECT_EQ(j.at("n"), 100);
    EXPECT_EQ(j.at("device"), rep.device);
    const auto& first = j.at("rows").at(0);
    EXPECT_EQ(first.at("entry"), "cpu fp32");
    EXPECT_GT(first.at("interactions_per_s").get<double>(), 0);
    EXPECT_GT(first.at("gflops_38").get<double>(), first.at("gflops_20").get<double>());
    EXPECT_TRUE(first.contains("max_rel_force_error"));
    EXPECT_EQ(j.at("rows").back().at("skipped"), "block: too big");
}

TEST(RaceOutput, TheTreeRowSaysItsMethodErrorAndDirectEquivalent) {
    const RaceReport rep = sample_report();
    ASSERT_EQ(rep.results.at(3).entry.method, ForceMethod::Tree);
    std::istringstream in(race_csv(rep));
    std::string line;
    std::getline(in, line);
    const std::vector<std::string> header = csv_fields(line);
    const auto col = [&](const char* name) {
        return std::size_t(std::find(header.begin(), header.end(), name) - header.begin());
    };
    for (int i = 0; i <= 3; ++i) std::getline(in, line);
    const std::vector<std::string> tree = csv_fields(line);
    EXPECT_EQ(tree.at(col("method")), "tree");
    EXPECT_GT(std::stod(tree.at(col("median_rel_force_error"))), 0);
    EXPECT_GT(std::stod(tree.at(col("equivalent_direct_per_s"))), 0);
    const nlohmann::json j = nlohmann::json::parse(race_json(rep));
    EXPECT_EQ(j.at("rows").at(3).at("method"), "tree");
    EXPECT_EQ(j.at("rows").at(0).at("method"), "direct");
    char buf[8192] = {};
    std::FILE* f = fmemopen(buf, sizeof buf - 1, "w");
    ASSERT_NE(f, nullptr);
    print_race(f, rep);
    std::fclose(f);
    EXPECT_NE(std::string(buf).find("(tree: median force error"), std::string::npos) << buf;
}

// The text table and bars: fastest first by steps/s (what the heading says), every bar starting at one column
// however long an entry's name, numbers with three significant digits and an SI prefix (no "3.7402e+09").
TEST(RaceOutput, TheTextRaceIsSortedByStepsPerSecondAndItsBarsLineUp) {
    RaceReport rep = sample_report();
    rep.results.at(3).entry.name = "tree theta 1 alpha 0.001 (a long name)";
    char buf[8192] = {};
    std::FILE* f = fmemopen(buf, sizeof buf - 1, "w");
    ASSERT_NE(f, nullptr);
    print_race(f, rep);
    std::fclose(f);
    const std::string text(buf);
    EXPECT_NE(text.find("steps/s (longest bar: the fastest)"), std::string::npos) << text;
    EXPECT_EQ(text.find("e+0"), std::string::npos) << text;
    std::istringstream in(text.substr(text.find("longest bar")));
    std::string line;
    std::getline(in, line);
    std::size_t bar_column = std::string::npos;
    double previous = INFINITY;
    int bars = 0;
    while (std::getline(in, line)) {
        const std::size_t bar = line.find('|');
        if (bar == std::string::npos) continue;
        ++bars;
        if (bar_column == std::string::npos) bar_column = bar;
        EXPECT_EQ(bar, bar_column) << line;
        const std::string name = line.substr(0, line.find_last_not_of(' ', bar - 1) + 1);
        const auto it = std::find_if(rep.results.begin(), rep.results.end(),
                                     [&](const RaceResult& e) { return e.entry.name == name; });
        ASSERT_NE(it, rep.results.end()) << line;
        EXPECT_LE(it->row.rate.steps_per_s, previous) << line;
        previous = it->row.rate.steps_per_s;
    }
    EXPECT_EQ(bars, 4);
    const std::vector<const RaceResult*> order = by_steps_per_s(rep);
    EXPECT_FALSE(order.back()->skipped.empty());  // skipped last
}

TEST(RaceOutput, AnUnwritablePathIsAnErrorNamingIt) {
    RaceReport rep;
    try {
        write_race_csv("/nonexistent-dir/race.csv", rep);
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/race.csv"), std::string::npos) << e.what();
    }
    EXPECT_THROW(write_race_json("/nonexistent-dir/race.json", rep), Error);
}

TEST(RaceOutput, TextBarsScaleToTheFastest) {
    EXPECT_EQ(text_bar(1, 1, 8), "########");
    EXPECT_EQ(text_bar(0.5, 1, 8), "####....");
    EXPECT_EQ(text_bar(0, 1, 4), "....");
    EXPECT_EQ(text_bar(1, 0, 4), "....");
    EXPECT_EQ(text_bar(NAN, 1, 4), "....");
}

// ---------------------------------------------------------------------------------------------------------
// nbody-bench --race's flags
// ---------------------------------------------------------------------------------------------------------

TEST(RaceCli, SecondsDefaultToOnePerEntryAndTakeTheFlag) {
    auto a = parse({"--race", kScene});
    ASSERT_TRUE(std::holds_alternative<BenchOptions>(a));
    EXPECT_EQ(std::get<BenchOptions>(a).race, kScene);
    EXPECT_EQ(std::get<BenchOptions>(a).race_seconds, 1.0);
    auto b = parse({"--race", kScene, "--seconds", "2.5", "--bodies", "3000", "--cpu", "--csv", "r.csv"});
    ASSERT_TRUE(std::holds_alternative<BenchOptions>(b));
    const BenchOptions& o = std::get<BenchOptions>(b);
    EXPECT_EQ(o.race_seconds, 2.5);
    EXPECT_EQ(o.bodies, 3000);
    EXPECT_TRUE(o.cpu);
    EXPECT_EQ(o.csv, "r.csv");
}

TEST(RaceCli, BadValuesAndMissingPartsAreRefused) {
    for (const std::vector<std::string>& bad :
         std::vector<std::vector<std::string>>{{"--race", kScene, "--seconds", "0"},
                                               {"--race", kScene, "--seconds", "-1"},
                                               {"--race", kScene, "--seconds", "fast"},
                                               {"--race", kScene, "--bodies", "1"},
                                               {"--race", "/no/such/scene.toml"},
                                               {"--bodies", "100"},
                                               {"--csv", "r.csv"},
                                               {"--race", kScene, "--tune"},
                                               {"--race", kScene, "--sizes", "100"}}) {
        auto r = parse(bad);
        ASSERT_TRUE(std::holds_alternative<int>(r)) << bad[0] << " " << bad.back();
        EXPECT_NE(std::get<int>(r), 0);
    }
}

TEST(RaceCli, AnUnwritableOutputFailsBeforeTheRaceWithTheFlagNamed) {
    auto r = parse({"--race", kScene, "--json", "/nonexistent-dir/r.json"});
    ASSERT_TRUE(std::holds_alternative<BenchOptions>(r));
    try {
        check_outputs(std::get<BenchOptions>(r));
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("--json"), std::string::npos) << e.what();
    }
    auto c = parse({"--race", kScene, "--csv", "/nonexistent-dir/r.csv"});
    ASSERT_TRUE(std::holds_alternative<BenchOptions>(c));
    EXPECT_THROW(check_outputs(std::get<BenchOptions>(c)), Error);
}

// ---------------------------------------------------------------------------------------------------------
// The sandbox's RaceDriver (no ImGui): one slice per tick, the pause put back, a reset behind it abandons
// ---------------------------------------------------------------------------------------------------------

