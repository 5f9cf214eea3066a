// The parameter registry (core/rows/param_registry.hpp) read by every way in: validate(), scene files, the command
// line and the public API take a method's parameter under one name, within one range, with one message.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "app/options.hpp"
#include "cli_parse.hpp"
#include "core/errors.hpp"
#include "core/rows/integrator.hpp"
#include "core/rows/param_registry.hpp"
#include "core/rows/sim_params.hpp"
#include "nbody/nbody.hpp"
#include "scene/scene_file.hpp"

using namespace nbody;

namespace {
const char* kTreeScene = R"(name = "t"
method = "tree"
theta = 0.7
leaf = 16
group = 64
[[component]]
type = "plummer"
n = 100
scale = 0.5
)";

std::string scene_error(const std::string& text) {
    try {
        parse_scene(text, "s.toml");
    } catch (const SceneError& e) {
        return e.what();
    }
    return "";
}
}  // namespace

TEST(ParamRegistry, EveryRowReadsBackWhatItWrites) {
    const SimParams defaults;
    for (const ParamSpec& s : param_registry()) {
        EXPECT_EQ(find_param(s.name), &s);
        EXPECT_LE(s.lo, s.hi) << s.name;
        EXPECT_EQ(param_problem(s, s.get(defaults)), "") << s.name << ": the default must be allowed";
        SimParams p;
        s.set(p, s.hi);
        EXPECT_EQ(s.get(p), s.hi) << s.name;
        EXPECT_NE(param_problem(s, s.hi * 2 + 1), "") << s.name;
        EXPECT_FALSE(s.help.empty());
    }
    EXPECT_EQ(find_param("no such"), nullptr);
    EXPECT_EQ(param_problem(*find_param("leaf"), 2.5), "must be a whole number (got 2.5)");
    EXPECT_EQ(param_problem(*find_param("gpus"), 0), "");  // 0: all
    EXPECT_EQ(param_problem(*find_param("gpus"), -1), "must be 0 or from 1 to 64 (0: all) (got -1)");
}

TEST(ParamRegistry, SceneFilesTakeEveryMethodParameterByItsName) {
    const SimParams p = parse_scene(kTreeScene, "s.toml").apply_to({});
    EXPECT_EQ(p.method, ForceMethod::Tree);
    EXPECT_FLOAT_EQ(p.tree.theta, 0.7f);
    EXPECT_EQ(p.tree.leaf, 16);
    EXPECT_EQ(p.tree.group, 64);
    std::string bad = kTreeScene;
    bad.replace(bad.find("leaf = 16"), 9, "leaf = 65");
    const std::string e = scene_error(bad);
    EXPECT_EQ(e.rfind("s.toml:4:", 0), 0u) << e;
    EXPECT_NE(e.find("field 'leaf': must be from 1 to 64"), std::string::npos) << e;
}

TEST(ParamRegistry, TheCommandLineHasAFlagForEachMethodParameter) {
    auto r = test::parse({"--method", "tree", "--leaf", "8", "--group", "16", "--alpha", "0",
                          NBODY_SOURCE_DIR "/scenes/plummer.toml"});
    ASSERT_TRUE(std::holds_alternative<AppOptions>(r));
    const RunSetup s = prepare_run(std::get<AppOptions>(r));
    EXPECT_EQ(s.params.tree.leaf, 8);
    EXPECT_EQ(s.params.tree.group, 16);
    EXPECT_EQ(s.params.tree.alpha, 0.0f);
    testing::internal::CaptureStderr();
    auto bad = test::parse({"--group", "7"});
    const std::string err = testing::internal::GetCapturedStderr();
    ASSERT_TRUE(std::holds_alternative<int>(bad));
    EXPECT_NE(err.find("--group"), std::string::npos) << err;
}

TEST(ParamRegistry, ThePublicApiTakesAndListsMethodParameters) {
    api::Params p;
    p.method = "tree";
    p.method_params["theta"] = 2;
    try {
        api::validate(p);
        ADD_FAILURE() << "theta 2 accepted";
    } catch (const ParamError& e) {
        EXPECT_STREQ(e.what(), "theta: must be from 1e-6 to 1.5 (got 2)");
    }
    p.method_params = {{"thta", 0.5}};
    try {
        api::validate(p);
        ADD_FAILURE() << "an unknown name accepted";
    } catch (const ParamError& e) {
        EXPECT_STREQ(e.what(), "thta: not a method parameter (known: theta, alpha, leaf, group)");
    }
    bool listed = false;
    for (const api::ParameterInfo& info : api::parameters())
        if (info.name == "theta") listed = info.applies_to == "method tree" && info.default_value == 1.0;
    EXPECT_TRUE(listed);
}

TEST(ParamRegistry, TheSceneGuideDocumentsEveryMethodParameter) {
    std::ifstream f(NBODY_SOURCE_DIR "/docs/scenes.md");
    std::stringstream text;
    text << f.rdbuf();
    for (const ParamSpec& s : param_registry())
        if ((s.methods | s.integrators) != 0) {
            EXPECT_NE(text.str().find("| `" + std::string(s.name) + "` |"), std::string::npos) << s.name;
        }
}

// Which integrators take block steps is their rows' flag: eta is read by exactly those, and dt's help names
// exactly those, so a new block-step row needs no list beside the registry.
TEST(ParamRegistry, BlockStepScopesAndHelpFollowTheIntegratorRows) {
    const ParamSpec* eta = find_param("eta");
    const ParamSpec* dt = find_param("dt");
    ASSERT_NE(eta, nullptr);
    ASSERT_NE(dt, nullptr);
    std::string block_names;
    for (const IntegratorInfo& row : integrator_rows()) {
        EXPECT_EQ((eta->integrators & bit(row.id)) != 0, row.block_steps) << row.name;
        if (row.block_steps) block_names += (block_names.empty() ? "" : ", ") + std::string(row.name);
    }
    ASSERT_FALSE(block_names.empty());
    EXPECT_NE(std::string(dt->help).find("(" + block_names + ")"), std::string::npos) << dt->help;
    EXPECT_EQ(param_scope(*eta), "integrator " + block_names);
}
