// An integrator row added from this file alone (the recipe in docs/architecture.md): a block-step leap-frog
// under a name of its own, its scheme an existing one. Parsing, validation, the method rows, the registry's
// scopes and help, scene files and the headless driver all take it, and it runs bit for bit as the built-in
// row with the same flags: adding an integrator that changes only a row's flags edits no other file. Its own
// test binary, so the added row never reaches the other tests' tables.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "app/headless_run.hpp"
#include "app/options.hpp"
#include "core/errors.hpp"
#include "core/rows/force_method.hpp"
#include "core/rows/integrator.hpp"
#include "core/rows/param_checks.hpp"
#include "core/rows/param_registry.hpp"
#include "cpu/cpu_backend.hpp"
#include "pair_scene.hpp"
#include "scene/scene_file.hpp"

namespace nbody {
namespace {

// Added once, the first time a test asks.
Integrator test_row() {
    static const Integrator id = [] {
        IntegratorInfo row = integrator_info(Integrator::LeapFrogBlock);
        row.name = "kdk-block-test";
        row.description = "a block-step leap-frog that lives in a unit test";
        return add_integrator_row(row);
    }();
    return id;
}

SimParams plummer_like(Integrator in) {
    SimParams p;
    p.backend = BackendKind::Cpu;
    p.cpu_threads = 1;
    p.integrator = in;
    p.dt = 1.0 / 16, p.eps = 0.05, p.eta = 0.3;
    return p;
}

State few_bodies(std::size_t n = 48) {
    State s;
    s.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double x = double(i % 4) - 1.5, y = double(i / 4 % 4) - 1.5, z = double(i / 16) - 1.0;
        s.pos_mass[i] = {x * (1 + 0.1 * double(i % 3)), y, z, 1.0 / double(n)};
        s.vel[i] = {-0.2 * y, 0.2 * x, 0.0, 0.0};
    }
    return s;
}

TEST(IntegratorRecipe, ItsNameParsesAndNamesIt) {
    const Integrator id = test_row();
    EXPECT_NE(id, Integrator::LeapFrogBlock);
    EXPECT_EQ(parse_integrator("kdk-block-test"), id);
    EXPECT_EQ(integrator_name(id), "kdk-block-test");
    EXPECT_EQ(integrator_table().back().name, "kdk-block-test");
}

TEST(IntegratorRecipe, ValidationAndTheMethodRowsTakeIt) {
    const Integrator id = test_row();
    EXPECT_TRUE(method_info(ForceMethod::Direct).integrators & bit(id));
    EXPECT_TRUE(method_info(ForceMethod::Tree).integrators & bit(id));
    SimParams p = plummer_like(id);
    EXPECT_NO_THROW(validate(p));
    p.method = ForceMethod::Tree;
    EXPECT_NO_THROW(validate(p));
    p.eta = 2;  // the registry's range holds for it as for the others
    EXPECT_THROW(validate(p), ParamError);
}

TEST(IntegratorRecipe, TheRegistryScopesAndHelpNameIt) {
    const Integrator id = test_row();
    EXPECT_TRUE(block_step_integrators() & bit(id));
    const ParamSpec* eta = find_param("eta");
    ASSERT_NE(eta, nullptr);
    EXPECT_TRUE(eta->integrators & bit(id));
    EXPECT_NE(param_scope(*eta).find("kdk-block-test"), std::string::npos) << param_scope(*eta);
    EXPECT_NE(std::string(find_param("dt")->help).find("kdk-block-test"), std::string::npos);
}

TEST(IntegratorRecipe, ASceneFileNamesIt) {
    const Integrator id = test_row();
    const SceneSpec s = parse_scene(
        test::pair_scene_text("dt = 0.0625\nintegrator = \"kdk-block-test\"\neta = 0.2\n"), "pair.toml");
    ASSERT_TRUE(s.integrator.has_value());
    EXPECT_EQ(*s.integrator, id);
    EXPECT_EQ(s.apply_to(SimParams{}).eta, 0.2);
}

// The headless driver steps it, and its steps are the built-in row's with the same flags, bit for bit.
TEST(IntegratorRecipe, TheHeadlessDriverRunsItAsTheRowItCopies) {
    const Integrator id = test_row();
    auto run = [](Integrator in) {
        CpuBackend b;
        b.reset(few_bodies(), plummer_like(in));
        AppOptions o;
        o.steps = 40;
        o.quiet = true;
        o.diagnostics = false;
        RunSetup setup;
        setup.params = plummer_like(in);
        const RunSummary s = run_headless(b, setup, o);
        State out;
        b.read_state(out);
        return std::make_pair(s, out);
    };
    const auto [mine, mine_state] = run(id);
    const auto [theirs, theirs_state] = run(Integrator::LeapFrogBlock);
    EXPECT_EQ(mine.steps, 40);
    EXPECT_EQ(mine.integrator, "kdk-block-test");
    EXPECT_GT(mine.sim_time, 0.0);
    EXPECT_EQ(mine.sim_time, theirs.sim_time);
    ASSERT_EQ(mine_state.size(), theirs_state.size());
    for (std::size_t i = 0; i < mine_state.size(); ++i) {
        EXPECT_EQ(mine_state.pos_mass[i].x, theirs_state.pos_mass[i].x) << i;
        EXPECT_EQ(mine_state.vel[i].y, theirs_state.vel[i].y) << i;
    }
}

}  // namespace
}  // namespace nbody
