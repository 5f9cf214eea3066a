// The kernel-family descriptor table (core/kernels/kernel_family.hpp), the force-method axis carried through SimParams,
// flags, scene files and summaries, and the work split (body-body, body-cell, equivalent direct).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bench/bench_cli.hpp"
#include "bench/tune.hpp"
#include "cli_parse.hpp"
#include "core/counters.hpp"
#include "core/errors.hpp"
#include "core/kernels/kernel_family.hpp"
#include "core/kernels/kernel_tuning.hpp"
#include "core/session/perf_history.hpp"
#include "core/rows/sim_params.hpp"
#include "io/run_summary.hpp"
#include "scene/scene_file.hpp"
#include "core/rows/force_method.hpp"
#include "core/rows/param_checks.hpp"

using namespace nbody;

namespace {
const char* kScene = "[[component]]\ntype = \"plummer\"\nn = 10\n";

std::variant<BenchOptions, int> parse_bench(std::vector<std::string> args) {
    args.insert(args.begin(), "nbody-bench");
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    return parse_bench_command_line(static_cast<int>(argv.size()), argv.data());
}
}  // namespace

TEST(KernelFamily, TableIsIndexedByVariantAndParsesNamesAndAliases) {
    for (const FamilyInfo& f : variant_table()) {
        EXPECT_EQ(&variant_info(f.variant), &f) << f.name;
        EXPECT_EQ(parse_variant(f.name), f.variant);
        if (!f.alias.empty()) {
            EXPECT_EQ(parse_variant(f.alias), f.variant) << f.alias;
        }
        EXPECT_EQ(f.method, ForceMethod::Direct) << f.name;
        EXPECT_NE(f.plan, nullptr);
        EXPECT_NE(f.label, nullptr);
        EXPECT_NE(f.work, nullptr);
    }
    EXPECT_EQ(parse_variant("i"), KernelVariant::IUnrolled);
    EXPECT_EQ(parse_variant("ij"), KernelVariant::IJUnrolled);
    EXPECT_EQ(parse_variant("tc"), KernelVariant::Tensor);
    EXPECT_FALSE(parse_variant(""));
    EXPECT_FALSE(parse_variant("tree"));
}

// The labels read as they did before the table (performance markers, run summaries and bench rows use them).
TEST(KernelFamily, LabelsKeepTheirFormat) {
    EXPECT_EQ(kernel_label(KernelVariant::IJUnrolled, {4, 4, 256, 0, 1}), "ij-unrolled k 4 u 4 block 256 q auto");
    EXPECT_EQ(kernel_label(KernelVariant::None, {1, 1, 256, 2, 3}), "none k 1 u 1 block 256 q 2 s 3");
    EXPECT_EQ(kernel_label(KernelVariant::IUnrolled, {4, 1, 128, 0, 0}), "i-unrolled k 4 u 1 block 128 q auto s auto");
    EXPECT_EQ(kernel_label(KernelVariant::Tensor, {1, 1, 128, 0, 0}), "tensor block 128 s auto");
    EXPECT_EQ(kernel_label(KernelVariant::Tensor, {1, 1, 64, 0, 1}), "tensor block 64");
    EXPECT_EQ(kernel_label(KernelVariant::Pairs, {4, 2, 64, 0, 1}), "pairs k 4 u 2 block 64");
    EXPECT_EQ(kernel_label(KernelVariant::Pairs, {8, 2, 128, 4, 1}), "pairs k 8 u 2 block 128 q 4");
}

// The precision rule comes from the row: a family refuses exactly the precisions it is not compiled for.
TEST(KernelFamily, PrecisionRuleFollowsTheRow) {
    for (const FamilyInfo& f : variant_table())
        for (const auto& pr : precision_table()) {
            if (runs_in(f, pr.value))
                EXPECT_NO_THROW(validate_variant_precision(f.variant, pr.value)) << f.name << " " << pr.name;
            else
                EXPECT_THROW(validate_variant_precision(f.variant, pr.value), ParamError) << f.name << " " << pr.name;
        }
    EXPECT_TRUE(runs_in(variant_info(KernelVariant::IJUnrolled), Precision::Fp64));
    EXPECT_FALSE(runs_in(variant_info(KernelVariant::Tensor), Precision::DS));
    EXPECT_TRUE(runs_with(variant_info(KernelVariant::Pairs), Integrator::LeapFrog));
    EXPECT_FALSE(runs_with(variant_info(KernelVariant::Pairs), Integrator::Hermite));
}

// --tune measures the families whose row says so, in the precisions they run in; the tuning table accepts the
// families the automatic choice may take and names them when it refuses one.
TEST(KernelFamily, TuneGridAndAutomaticChoiceFollowTheRows) {
    for (const auto& pr : precision_table())
        for (const TuneCandidate& c : tune_grid(pr.value, {}, {}, {})) {
            const FamilyInfo& f = variant_info(c.variant);
            EXPECT_TRUE(f.tuned && runs_in(f, pr.value)) << f.name << " " << pr.name;
            EXPECT_NO_THROW(validate_shape(c.variant, c.shape));
        }
    bool pairs_fp32 = false, pairs_ds = false;
    for (const TuneCandidate& c : tune_grid(Precision::Fp32, {}, {}, {})) pairs_fp32 |= c.variant == KernelVariant::Pairs;
    for (const TuneCandidate& c : tune_grid(Precision::DS, {}, {}, {})) pairs_ds |= c.variant == KernelVariant::Pairs;
    EXPECT_TRUE(pairs_fp32);
    EXPECT_FALSE(pairs_ds);
    EXPECT_EQ(auto_choice_names(), "none, i-unrolled, ij-unrolled, pairs");
    int paper = 0;
    for (const FamilyInfo& f : variant_table()) paper += f.paper;
    EXPECT_EQ(paper, 3);  // the RV770 paper's three loops
}

TEST(KernelFamily, DirectWorkIsNSquaredBodyBodyAndNoBodyCell) {
    for (const FamilyInfo& f : variant_table()) {
        const StepWork w = step_work(f.variant, 1000);
        EXPECT_DOUBLE_EQ(w.body_body, 1e6) << f.name;
        EXPECT_DOUBLE_EQ(w.body_cell, 0.0) << f.name;
        EXPECT_DOUBLE_EQ(w.equivalent_direct, 1e6) << f.name;
    }
}

// A method that evaluates fewer interactions than N^2 (as a tree will) reports its own rate, with the
// direct-equivalent rate beside it rather than in its place.
TEST(WorkSplit, EvaluatedAndEquivalentRatesStayApart) {
    WorkCount w;
    w.evaluations = 10;
    w.add(StepWork{2e5, 3e5, 1e8}, 10);  // 5e5 evaluated of 1e8 direct-equivalent a step
    EXPECT_DOUBLE_EQ(w.pairs, 2e6);
    EXPECT_DOUBLE_EQ(w.body_cell, 3e6);
    EXPECT_DOUBLE_EQ(w.equivalent_direct, 1e9);
    const Throughput t = throughput(w, 2.0);
    EXPECT_DOUBLE_EQ(t.interactions_per_s, 2.5e6);
    EXPECT_DOUBLE_EQ(t.body_body_per_s, 1e6);
    EXPECT_DOUBLE_EQ(t.body_cell_per_s, 1.5e6);
    EXPECT_DOUBLE_EQ(t.equivalent_direct_per_s, 5e8);
    EXPECT_DOUBLE_EQ(t.steps_per_s, 5.0);
    const WorkCount d = w - WorkCount{4, 1e6, kFlopsPerInteractionNvidia, 1e6, 4e8};
    EXPECT_EQ(d.evaluations, 6);
    EXPECT_DOUBLE_EQ(d.body_cell, 2e6);
    EXPECT_DOUBLE_EQ(d.equivalent_direct, 6e8);
    // Direct: the equivalent rate is the evaluated one.
    const Throughput direct = throughput(std::size_t{1000}, 4, 2.0);
    EXPECT_DOUBLE_EQ(direct.interactions_per_s, 2e6);
    EXPECT_DOUBLE_EQ(direct.equivalent_direct_per_s, 2e6);
    EXPECT_DOUBLE_EQ(direct.body_cell_per_s, 0.0);
}

TEST(WorkSplit, PerfHistoryCarriesTheSplit) {
    PerfHistory h(0.5);
    WorkCount w;
    w.evaluations = 1;
    w.add(StepWork{100, 50, 1000}, 1);
    h.record_frame(0.0, 10, w, 0.5);
    h.record_frame(1.0, 10, w, 0.5);
    const PerfSample s = h.latest();
    EXPECT_DOUBLE_EQ(s.rate.interactions_per_s, 300.0 / 1.0);
    EXPECT_DOUBLE_EQ(s.rate.body_cell_per_s, 100.0);
    EXPECT_DOUBLE_EQ(s.rate.equivalent_direct_per_s, 2000.0);
}

TEST(ForceMethod, TableParsesDirectAndTree) {
    EXPECT_EQ(parse_method("direct"), ForceMethod::Direct);
    EXPECT_EQ(parse_method("tree"), ForceMethod::Tree);
    EXPECT_FALSE(parse_method("barnes"));
    EXPECT_EQ(method_name(ForceMethod::Direct), "direct");
    EXPECT_EQ(method_name(ForceMethod::Tree), "tree");
    EXPECT_EQ(SimParams{}.method, ForceMethod::Direct);
}

TEST(ForceMethod, SameParamsComparesTheMethod) {
    SimParams a, b;
    EXPECT_TRUE(same_params(a, b));
    b.method = ForceMethod::Tree;
    EXPECT_FALSE(same_params(a, b));
    b = a;
    b.tree.theta = 0.7f;  // the tree's parameters count too (a change re-evaluates the forces)
    EXPECT_FALSE(same_params(a, b));
    b = a;
    b.tree.leaf = 8;
    EXPECT_FALSE(same_params(a, b));
    // Under method tree a hand-picked direct family is left alone (the tree has no families), not refused.
    b = a;
    b.method = ForceMethod::Tree;
    b.kernel_auto = false;
    EXPECT_NO_THROW(validate(b));
}

TEST(ForceMethod, CommandLineFlags) {
    auto r = nbody::test::parse({"--method", "direct", NBODY_SOURCE_DIR "/scenes/plummer.toml"});
    ASSERT_TRUE(std::holds_alternative<AppOptions>(r));
    EXPECT_EQ(std::get<AppOptions>(r).method, "direct");
    EXPECT_EQ(prepare_run(std::get<AppOptions>(r)).params.method, ForceMethod::Direct);
    testing::internal::CaptureStderr();
    auto bad = nbody::test::parse({"--method", "barnes"});
    auto bad_bench = parse_bench({"--methods", "direct,barnes"});
    auto bad_theta = nbody::test::parse({"--method", "tree", "--theta", "2"});
    auto bad_thetas = parse_bench({"--methods", "tree", "--thetas", "0.5,0"});
    auto bad_alpha = nbody::test::parse({"--method", "tree", "--alpha", "-0.1"});
    auto bad_alphas = parse_bench({"--methods", "tree", "--alphas", "0.001,2"});
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_TRUE(std::holds_alternative<int>(bad_alpha));
    EXPECT_TRUE(std::holds_alternative<int>(bad_alphas));
    EXPECT_NE(err.find("--alpha"), std::string::npos) << err;
    EXPECT_TRUE(std::holds_alternative<int>(bad));
    EXPECT_TRUE(std::holds_alternative<int>(bad_bench));
    EXPECT_TRUE(std::holds_alternative<int>(bad_theta));
    EXPECT_TRUE(std::holds_alternative<int>(bad_thetas));
    EXPECT_NE(err.find("barnes"), std::string::npos) << err;
    EXPECT_NE(err.find("--theta"), std::string::npos) << err;
    auto tree = nbody::test::parse(
        {"--method", "tree", "--theta", "0.7", "--alpha", "0", NBODY_SOURCE_DIR "/scenes/plummer.toml"});
    ASSERT_TRUE(std::holds_alternative<AppOptions>(tree));
    const SimParams tp = prepare_run(std::get<AppOptions>(tree)).params;
    EXPECT_EQ(tp.method, ForceMethod::Tree);
    EXPECT_FLOAT_EQ(tp.tree.theta, 0.7f);
    EXPECT_EQ(tp.tree.alpha, 0.0f);  // off: theta alone
    auto b = parse_bench({"--method", "direct"});
    ASSERT_TRUE(std::holds_alternative<BenchOptions>(b));
    EXPECT_EQ(std::get<BenchOptions>(b).methods, std::vector<std::string>{"direct"});
}

TEST(ForceMethod, SceneKeyWithLocatedError) {
    EXPECT_FALSE(parse_scene(kScene, "s.toml").method);
    const SceneSpec s = parse_scene(std::string("method = \"direct\"\n") + kScene, "s.toml");
    ASSERT_TRUE(s.method);
    EXPECT_EQ(s.apply_to({}).method, ForceMethod::Direct);
    try {
        parse_scene(std::string("dt = 0.01\nmethod = \"barnes\"\n") + kScene, "s.toml");
        FAIL() << "an unknown method was accepted";
    } catch (const SceneError& e) {
        EXPECT_EQ(e.line, 2);
        EXPECT_NE(std::string(e.what()).find("method"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("direct"), std::string::npos) << e.what();
    }
}

TEST(ForceMethod, RunSummaryKeepsOldKeysAndAddsTheSplit) {
    RunSummary s;
    s.rate = throughput(std::size_t{100}, 10, 1.0);
    const std::string j = summary_json(s);
    for (const char* key : {"\"interactions_per_s\"", "\"method\"", "\"body_body_per_s\"", "\"body_cell_per_s\"",
                            "\"equivalent_direct_per_s\"", "\"gflops_20\""})
        EXPECT_NE(j.find(key), std::string::npos) << key;
    EXPECT_NE(summary_text(s).find("direct"), std::string::npos);
}

TEST(KernelFamily, HelpAndChoicesComeFromTheTable) {
    EXPECT_EQ(families_help(), "none, i-unrolled (i), ij-unrolled (ij), tensor (tc; fp32, one GPU), pairs (fp32, one process)");
    const std::vector<std::string> names = family_names();
    for (const std::string& n : names) EXPECT_TRUE(parse_variant(n)) << n;
    EXPECT_EQ(names.size(), 8u);  // five names, three aliases
}

// The automatic choice compares steps per second, derived through the family's work: for direct families the
// rate over N^2, so the measured winner at a measured N is still the fastest in interactions/s.
TEST(KernelFamily, AutomaticChoiceComparesStepsPerSecond) {
    TuningTable t;
    t.source = "test";
    t.rows.push_back({Precision::Fp32, 1000, KernelVariant::IJUnrolled, {4, 4, 256, 0, 1}, 2e11, 0});
    t.rows.push_back({Precision::Fp32, 1000, KernelVariant::Pairs, {4, 2, 64, 0, 1}, 3e11, 0});
    t.rows.push_back({Precision::Fp32, 4000, KernelVariant::IJUnrolled, {4, 4, 256, 0, 1}, 8e11, 0});
    t.rows.push_back({Precision::Fp32, 4000, KernelVariant::Pairs, {4, 2, 64, 0, 1}, 6e11, 0});
    const KernelChoice at = choose_kernel(t, Precision::Fp32, 1000);
    EXPECT_EQ(at.variant, KernelVariant::Pairs);
    EXPECT_DOUBLE_EQ(at.steps_per_s, 3e11 / 1e6);
    const KernelChoice mid = choose_kernel(t, Precision::Fp32, 2000);  // log-halfway: 5e11 vs 4.5e11
    EXPECT_EQ(mid.variant, KernelVariant::IJUnrolled);
    EXPECT_NEAR(mid.steps_per_s, 5e11 / 4e6, 1e-6 * 5e11 / 4e6);
}
