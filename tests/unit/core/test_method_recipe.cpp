// A force method added from this file alone (the recipe in docs/architecture.md): "pairwise-test", a plain
// float64 sum over every pair written here, with its own check and label, is one add_method_row call and one
// add_cpu_force_evaluator call. Parsing (scene files, flags, the API), validation, the integrator rows, the
// registry's scopes, the factory's choice and the headless driver all take it; it runs on the CPU under auto,
// and a GPU backend asked for by name refuses it in words. Its own test binary (with the integrator recipe),
// so the added row never reaches the other tests' tables.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "app/headless_run.hpp"
#include "app/options.hpp"
#include "cli_parse.hpp"
#include "core/errors.hpp"
#include "core/rows/force_method.hpp"
#include "core/rows/integrator.hpp"
#include "core/rows/param_checks.hpp"
#include "core/rows/param_registry.hpp"
#include "cpu/cpu_backend.hpp"
#include "cpu/cpu_force_evaluator.hpp"
#include "engine/backend_chooser.hpp"
#include "engine/backend_rows.hpp"
#include "gl_backend/gl_backend_factory.hpp"
#include "gl_backend/gl_shape.hpp"
#include "nbody/nbody.hpp"
#include "pair_scene.hpp"
#include "scene/scene_file.hpp"
#include "test_util.hpp"
#include "wrapped_cpu_backend.hpp"

namespace nbody {
namespace {

// Rows this file's evaluator has summed, over every test: proof that it, not direct summation, ran.
std::size_t g_rows_summed = 0;

// a_i = sum_j m_j (x_j - x_i) / (|x_j - x_i|^2 + eps^2)^(3/2), in float64, j in body order (no G: CpuForces
// applies it). The self term is 0 with eps > 0, which the row's own check asks for.
class PairwiseEvaluator final : public CpuForceEvaluator {
  public:
    void evaluate(Bodies& b, const SimParams& p, std::size_t begin, std::size_t end, int) override {
        for (std::size_t i = begin; i < end; ++i) sum_row(b, p.eps, i);
    }
    void evaluate_rows(Bodies& b, const SimParams& p, const std::vector<std::size_t>& rows, int) override {
        for (std::size_t i : rows) sum_row(b, p.eps, i);
    }

  private:
    static void sum_row(Bodies& b, double eps, std::size_t i) {
        double ax = 0, ay = 0, az = 0;
        for (std::size_t j = 0; j < b.size(); ++j) {
            const double dx = b.x[j] - b.x[i], dy = b.y[j] - b.y[i], dz = b.z[j] - b.z[i];
            const double r2 = dx * dx + dy * dy + dz * dz + eps * eps;
            const double w = b.m[j] / (r2 * std::sqrt(r2));
            ax += w * dx, ay += w * dy, az += w * dz;
        }
        b.ax[i] = ax, b.ay[i] = ay, b.az[i] = az;
        ++g_rows_summed;
    }
};

void needs_softening(const SimParams& p) {
    if (p.eps <= 0) throw ParamError("eps", "the pairwise-test method needs softening (got eps 0)");
}
std::string pairwise_label(const SimParams&) { return "pairwise-test float64"; }
double quadratic(double n) { return n * n; }

// The registration, as a real method's own file makes it: the row, then its CPU evaluator.
ForceMethod add_pairwise_method() {
    MethodInfo row{};
    row.name = "pairwise-test";
    row.description = "every pair in float64, a method that lives in a unit test";
    row.integrators = bit(Integrator::LeapFrog) | bit(Integrator::LeapFrogBlock);
    row.precisions = bit(Precision::Fp64);
    row.relative_work = quadratic;
    row.validate = needs_softening;
    row.label = pairwise_label;
    const ForceMethod m = add_method_row(row);
    add_cpu_force_evaluator(m, [] { return std::make_unique<PairwiseEvaluator>(); });
    return m;
}
// At static initialisation, before main, as the recipe registers a method.
const ForceMethod kPairwise = add_pairwise_method();

ForceMethod test_method() { return kPairwise; }

SimParams pairwise_params(BackendKind backend = BackendKind::Cpu) {
    SimParams p;
    p.backend = backend;
    p.cpu_threads = 1;
    p.method = test_method();
    p.precision = Precision::Fp64;
    p.dt = 1.0 / 64, p.eps = 0.05;
    return p;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(MethodRecipe, ItsNameParsesAndNamesIt) {
    const ForceMethod id = test_method();
    EXPECT_NE(id, ForceMethod::Direct);
    EXPECT_NE(id, ForceMethod::Tree);
    EXPECT_EQ(parse_method("pairwise-test"), id);
    EXPECT_EQ(method_name(id), "pairwise-test");
    EXPECT_EQ(method_table().back().name, "pairwise-test");
    EXPECT_EQ(&method_info(id), &method_rows().back());
    const std::vector<std::string> api_names = api::choices("method");
    EXPECT_NE(std::find(api_names.begin(), api_names.end(), "pairwise-test"), api_names.end());
}

TEST(MethodRecipe, TheIntegratorRowsListItAndOnlyThose) {
    const ForceMethod id = test_method();
    // the two its row names (and an integrator row added later that copies one of theirs), no other
    const unsigned named = bit(Integrator::LeapFrog) | bit(Integrator::LeapFrogBlock);
    EXPECT_EQ(method_info(id).integrators & named, named);
    for (Integrator other : {Integrator::Hermite, Integrator::HermiteBlock, Integrator::Hermite6,
                             Integrator::Hermite6Block})
        EXPECT_FALSE(method_info(id).integrators & bit(other)) << integrator_name(other);
    EXPECT_TRUE(integrator_info(Integrator::LeapFrog).methods & bit(id));
    EXPECT_TRUE(integrator_info(Integrator::LeapFrogBlock).methods & bit(id));
    EXPECT_FALSE(integrator_info(Integrator::Hermite).methods & bit(id));
    // the built-in methods' masks are as they were
    EXPECT_TRUE(method_info(ForceMethod::Direct).integrators & bit(Integrator::Hermite));
    EXPECT_FALSE(method_info(ForceMethod::Tree).integrators & bit(Integrator::Hermite));
}

TEST(MethodRecipe, ValidationTakesItWithItsOwnRules) {
    SimParams p = pairwise_params();
    EXPECT_NO_THROW(validate(p));
    EXPECT_EQ(kernel_label(p), "pairwise-test float64");
    SimParams hermite = p;
    hermite.integrator = Integrator::Hermite;
    try {
        validate(hermite);
        ADD_FAILURE() << "hermite with pairwise-test validated";
    } catch (const ParamError& e) {
        EXPECT_TRUE(contains(e.what(), "the pairwise-test runs with leapfrog and leapfrog-block")) << e.what();
        EXPECT_TRUE(contains(e.what(), "(got hermite)")) << e.what();
    }
    SimParams fp32 = p;
    fp32.precision = Precision::Fp32;
    EXPECT_THROW(validate(fp32), ParamError);
    SimParams unsoftened = p;
    unsoftened.eps = 0;
    try {
        validate(unsoftened);
        ADD_FAILURE() << "its own check did not run";
    } catch (const ParamError& e) {
        EXPECT_TRUE(contains(e.what(), "pairwise-test method needs softening")) << e.what();
    }
    SimParams moved = p;
    moved.method = ForceMethod::Tree;
    moved.precision = Precision::Fp32;
    EXPECT_NO_THROW(validate(moved));  // the tree's own rows still hold
}

TEST(MethodRecipe, ASceneFileAFlagAndTheApiNameIt) {
    const ForceMethod id = test_method();
    const SceneSpec s = parse_scene(
        test::pair_scene_text("dt = 0.0625\nmethod = \"pairwise-test\"\nprecision = \"fp64\"\neps = 0.05\n"),
        "pair.toml");
    ASSERT_TRUE(s.method.has_value());
    EXPECT_EQ(*s.method, id);
    EXPECT_EQ(s.apply_to(SimParams{}).method, id);

    const auto flag = test::parse({"--method", "pairwise-test"});
    ASSERT_TRUE(std::holds_alternative<AppOptions>(flag));
    EXPECT_EQ(std::get<AppOptions>(flag).method, "pairwise-test");
    std::string help_arg[] = {"nbody-sandbox", "--help"};
    char* help_argv[] = {help_arg[0].data(), help_arg[1].data()};
    std::ostringstream help;
    parse_command_line(2, help_argv, &help);
    EXPECT_TRUE(contains(help.str(), "direct, tree, pairwise-test")) << "--method's help does not list it";

    // The C++ API, as an outside program names it: a pair on a circle, stepped by the method on auto.
    api::Params ap;
    ap.method = "pairwise-test";
    ap.precision = "fp64";
    ap.eps = 0.05;
    ap.cpu_threads = 1;
    const double pos[] = {0.5, 0, 0, -0.5, 0, 0}, vel[] = {0, 0.5, 0, 0, -0.5, 0}, mass[] = {0.5, 0.5};
    const std::size_t summed_before = g_rows_summed;
    api::Simulation sim = api::Simulation::from_arrays(2, pos, vel, mass, ap);
    sim.step(3);
    EXPECT_GT(sim.time(), 0.0);
    EXPECT_EQ(sim.params().method, "pairwise-test");
    EXPECT_GE(g_rows_summed - summed_before, 2u * 3u) << "the API's simulation did not run its evaluator";
    EXPECT_TRUE(contains(sim.backend_name(), "cpu")) << sim.backend_name();
}

// The scope a parameter names follows the rows: an added method reads no tree parameter.
TEST(MethodRecipe, TheRegistryScopesLeaveItOut) {
    const ForceMethod id = test_method();
    const ParamSpec* theta = find_param("theta");
    ASSERT_NE(theta, nullptr);
    EXPECT_FALSE(theta->methods & bit(id));
    EXPECT_EQ(param_scope(*theta), "method tree");
    EXPECT_FALSE(param_applies(*theta, pairwise_params()));
}

// A GPU backend that runs direct summation only: its row says so, and the factory reads the row.
class DirectOnlyGpu final : public WrappedCpuBackend {
  public:
    std::string name() const override { return "direct-only gpu"; }
    BackendCaps caps() const override { return {true, false, false}; }
};
constexpr auto kDirectOnlyKind = BackendKind::Gl;  // a GPU kind with a name, its real row left out

BackendRows rows_with_direct_only_gpu() {
    BackendRows rows = backend_rows();
    BackendRow gpu;
    gpu.kind = kDirectOnlyKind;
    gpu.label = "Direct-only GPU";
    gpu.auto_rank = 5;  // before every real row
    gpu.auto_words = "the direct-only GPU";
    gpu.fallback = {BackendKind::Cpu, true};
    gpu.unavailable = [] { return std::string(); };
    gpu.start = [](const SimParams&, const BackendMakeOptions&, BackendPick) {
        BackendStart s;
        s.backend = std::make_unique<DirectOnlyGpu>();
        s.note = "direct-only GPU";
        return s;
    };
    gpu.runs_method = [](ForceMethod m) { return m == ForceMethod::Direct; };
    rows.push_back(gpu);
    return rows;
}

TEST(MethodRecipe, AutoPassesOverAGpuWithoutItAndSaysWhy) {
    const BackendRows rows = rows_with_direct_only_gpu();
    SimParams direct = pairwise_params(BackendKind::Auto);
    direct.method = ForceMethod::Direct;
    BackendChoice c;
    auto gpu = choose_backend(rows, direct, &c, WhenAskedFails::Throw);
    EXPECT_EQ(c.running, kDirectOnlyKind);  // the row runs what it has code for
    auto cpu = choose_backend(rows, pairwise_params(BackendKind::Auto), &c, WhenAskedFails::Throw);
    EXPECT_EQ(c.running, BackendKind::Cpu);
    EXPECT_FALSE(cpu->caps().gpu);
    EXPECT_TRUE(contains(c.note, "the gl backend runs method direct only (got pairwise-test)")) << c.note;
    EXPECT_TRUE(contains(c.fallback, "pairwise-test")) << c.fallback;
}

TEST(MethodRecipe, AGpuBackendAskedForByNameRefusesItInWords) {
    const std::string words = "the gl backend runs method direct only (got pairwise-test); choose backend cpu, "
                              "which runs every method";
    // the factory's row, before any device is asked: the test's row and the real GL compute row
    for (const BackendRows& rows : {rows_with_direct_only_gpu(), backend_rows_with_gl()}) {
        try {
            choose_backend(rows, pairwise_params(BackendKind::Gl), nullptr, WhenAskedFails::Throw);
            ADD_FAILURE() << "the gl backend took pairwise-test";
        } catch (const BackendError& e) {
            EXPECT_EQ(std::string(e.what()), "--backend gl: " + words);
        }
    }
    // the GL backend's own check, as its reset and refusal() make it
    try {
        check_gl_params(pairwise_params(BackendKind::Gl));
        ADD_FAILURE() << "check_gl_params took pairwise-test";
    } catch (const ParamError& e) {
        EXPECT_EQ(std::string(e.what()), "method: " + words);
    }
    // the sandbox, which goes on: the CPU takes over, with the words for the banner
    BackendChoice c;
    auto b = choose_backend(rows_with_direct_only_gpu(), pairwise_params(BackendKind::Gl), &c,
                            WhenAskedFails::FallBack);
    EXPECT_EQ(c.running, BackendKind::Cpu);
    EXPECT_TRUE(contains(c.fallback, words)) << c.fallback;
}

// The CPU backend with the method, stepped `steps` times by the headless driver; its accelerations after.
struct RunResult {
    RunSummary summary;
    std::vector<Double4> acc;
};
RunResult run_steps(std::unique_ptr<Backend> b, const SimParams& p, const State& start, int steps) {
    b->reset(start, p);
    AppOptions o;
    o.steps = steps;
    o.quiet = true;
    o.diagnostics = false;
    RunSetup setup;
    setup.params = p;
    RunResult r;
    r.summary = run_headless(*b, setup, o);
    b->read_accelerations(r.acc);
    return r;
}

TEST(MethodRecipe, AutoRunsItOnTheCpuAsDirectSummationWouldToOnePartInAMillion) {
    const State start = test::plummer_state(96, 11);
    for (Integrator in : {Integrator::LeapFrog, Integrator::LeapFrogBlock}) {
        SimParams mine = pairwise_params(BackendKind::Auto);
        mine.integrator = in;
        mine.eta = 0.3;
        BackendChoice c;
        auto chosen = choose_backend(rows_with_direct_only_gpu(), mine, &c, WhenAskedFails::Throw);
        ASSERT_EQ(c.running, BackendKind::Cpu);
        const std::size_t summed_before = g_rows_summed;
        const RunResult ours = run_steps(std::move(chosen), mine, start, 8);
        EXPECT_GE(g_rows_summed - summed_before, start.size()) << "its evaluator did not run";
        SimParams direct = mine;
        direct.method = ForceMethod::Direct;
        direct.backend = BackendKind::Cpu;
        const RunResult theirs = run_steps(std::make_unique<CpuBackend>(1), direct, start, 8);

        EXPECT_EQ(ours.summary.steps, 8);
        EXPECT_EQ(ours.summary.method, "pairwise-test");
        EXPECT_TRUE(contains(ours.summary.variant, "pairwise-test float64")) << ours.summary.variant;
        EXPECT_GT(ours.summary.sim_time, 0.0);
        EXPECT_EQ(ours.summary.sim_time, theirs.summary.sim_time);
        ASSERT_EQ(ours.acc.size(), start.size());
        ASSERT_EQ(theirs.acc.size(), start.size());
        double worst = 0;
        for (std::size_t i = 0; i < start.size(); ++i) {
            const Double4 a = ours.acc[i], d = theirs.acc[i];
            const double diff = std::sqrt((a.x - d.x) * (a.x - d.x) + (a.y - d.y) * (a.y - d.y) + (a.z - d.z) * (a.z - d.z));
            const double norm = std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
            ASSERT_GT(norm, 0.0) << i;
            worst = std::max(worst, diff / norm);
        }
        EXPECT_LT(worst, 1e-6) << integrator_name(in);
    }
}

}  // namespace
}  // namespace nbody
