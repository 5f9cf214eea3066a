#include <gtest/gtest.h>
#include "cli_parse.hpp"  // parse(args): the real parser on an argument list

#include <filesystem>
#include <vector>

#include "app/options.hpp"
#include "core/errors.hpp"
#include "io/snapshot.hpp"
#include "scene/scene_file.hpp"

using namespace nbody;

using nbody::test::parse;

TEST(CommandLine, ParsesHeadlessRun) {
    auto r = parse({"--headless", "--steps", "10", "--bodies", "500", "--dt", "0.001", "--backend", "cpu",
                    NBODY_SOURCE_DIR "/scenes/plummer.toml"});
    ASSERT_TRUE(std::holds_alternative<AppOptions>(r));
    const AppOptions& o = std::get<AppOptions>(r);
    EXPECT_TRUE(o.headless);
    EXPECT_EQ(o.steps, 10);
    const RunSetup s = prepare_run(o);
    EXPECT_EQ(s.scene.total_bodies(), 500u);
    EXPECT_DOUBLE_EQ(s.params.dt, 0.001);
    EXPECT_EQ(s.params.backend, BackendKind::Cpu);
}

TEST(CommandLine, BadFlagsAndValuesExitNonZero) {
    testing::internal::CaptureStderr();
    testing::internal::CaptureStdout();
    auto r1 = parse({"--dt", "-0.1"});
    auto r2 = parse({"--no-such-flag"});
    auto r3 = parse({"--backend", "gpu"});
    auto r4 = parse({"--steps", "abc"});
    auto r5 = parse({"/no/such/scene.toml"});
    auto help = parse({"--help"});
    const std::string out = testing::internal::GetCapturedStdout() + testing::internal::GetCapturedStderr();
    for (auto* r : {&r1, &r2, &r3, &r4, &r5}) {
        ASSERT_TRUE(std::holds_alternative<int>(*r));
        EXPECT_NE(std::get<int>(*r), 0);
    }
    EXPECT_EQ(std::get<int>(help), 0);
    EXPECT_NE(out.find("--dt: must be from 1e-12 to 1e6 (got -0.1)"), std::string::npos) << out;
    EXPECT_NE(out.find("--no-such-flag"), std::string::npos);
}

TEST(CommandLine, BadKernelShapeNamesTheFlag) {
    auto r = parse({"--variant", "ij", "--k", "3", NBODY_SOURCE_DIR "/scenes/plummer.toml"});
    ASSERT_TRUE(std::holds_alternative<AppOptions>(r));
    try {
        prepare_run(std::get<AppOptions>(r));
        FAIL();
    } catch (const ParamError& e) {
        EXPECT_EQ(std::string(e.what()), "--k: variant ij-unrolled allows k in {2, 4, 8} (got 3)");
    }
}

TEST(CommandLine, LoadSnapshotTakesItsStateAndParameters) {
    State s;
    s.resize(2);
    s.pos_mass[1] = {1.f, 0.f, 0.f, 0.5f};
    s.pos_mass[0].w = 0.5f;
    s.time = 3.25;
    const auto path = std::filesystem::temp_directory_path() / "nbody_cli_snapshot.csv";
    write_snapshot_csv(s, {1.0, 0.0, 0.001, "two"}, path.string());
    auto r = parse({"--load-snapshot", path.string(), "--eps", "0.5"});
    ASSERT_TRUE(std::holds_alternative<AppOptions>(r));
    const RunSetup setup = prepare_run(std::get<AppOptions>(r));
    ASSERT_TRUE(setup.snapshot.has_value());
    const State start = initial_state(setup);
    EXPECT_EQ(start.size(), 2u);
    EXPECT_EQ(start.time, 3.25);
    EXPECT_EQ(setup.params.dt, 0.001);  // from the snapshot
    EXPECT_EQ(setup.params.eps, 0.5);   // the flag wins
    EXPECT_EQ(setup.scene.name, "two");
    // The default scene (the figure-eights) was loaded first: none of its words, view, components or file
    // stay with bodies that are not its own (the card would describe the eight, the camera frame it, the
    // legend name its galaxies and the Scene panel offer its N).
    EXPECT_TRUE(setup.scene.description.empty() && setup.scene.watch.empty()) << setup.scene.watch;
    EXPECT_FALSE(setup.scene.camera.has_value());
    EXPECT_TRUE(setup.scene.components.empty());
    EXPECT_TRUE(setup.scene.source.empty()) << setup.scene.source;
    EXPECT_TRUE(run_group_labels(setup).empty());
    // The same scene's own snapshot keeps them.
    SceneSpec own = load_scene_file(NBODY_SOURCE_DIR "/scenes/figure8-3.toml");
    adopt_saved_scene(own, own.name);
    EXPECT_FALSE(own.watch.empty());
    EXPECT_TRUE(own.camera.has_value());
    auto bad = parse({"--load-snapshot", path.string(), "--bodies", "10"});
    EXPECT_THROW(prepare_run(std::get<AppOptions>(bad)), ParamError);
    std::filesystem::remove(path);
}

// A snapshot of a shipped scene, loaded over the default one: that scene's card, view, units and components
// come with it, so the legend names its galaxies and the Scene panel selects its file.
TEST(CommandLine, ASnapshotOfAShippedSceneWearsThatScene) {
    const SceneSpec galaxies = load_scene_file(NBODY_SOURCE_DIR "/scenes/milky-way-andromeda.toml");
    State s;
    s.resize(4);
    for (uint32_t i = 0; i < 4; ++i) s.pos_mass[i] = {float(i), 0.f, 0.f, 0.25f}, s.group[i] = i;
    const auto path = std::filesystem::temp_directory_path() / "nbody_cli_galaxies_snapshot.csv";
    write_snapshot_csv(s, {1.0, 0.05, 0.001, galaxies.name}, path.string());
    auto r = parse({"--load-snapshot", path.string()});
    ASSERT_TRUE(std::holds_alternative<AppOptions>(r));
    const RunSetup setup = prepare_run(std::get<AppOptions>(r));
    EXPECT_EQ(setup.scene.name, galaxies.name);
    EXPECT_EQ(std::filesystem::path(setup.scene.source).filename(), "milky-way-andromeda.toml");
    EXPECT_EQ(setup.scene.description, galaxies.description);
    EXPECT_EQ(setup.scene.units.length_unit, "kpc");  // the time and scale bar in kpc and Myr
    EXPECT_TRUE(setup.scene.camera.has_value());
    const std::vector<std::string> labels = run_group_labels(setup);
    ASSERT_EQ(labels.size(), 4u);
    EXPECT_EQ(labels[0], "milky way disk");
    EXPECT_EQ(labels[3], "andromeda halo");
    EXPECT_EQ(initial_state(setup).size(), 4u);  // the bodies are the snapshot's, not the scene's
    EXPECT_EQ(setup.params.dt, 0.001);           // and so are its dt and eps
    EXPECT_EQ(setup.params.eps, 0.05);
    std::filesystem::remove(path);
}

TEST(CommandLine, EngineAxesFromFlags) {
    auto r = parse({"--precision", "fp64", "--integrator", "hermite-block", "--eta", "0.02", "--gpus", "all",
                    "--variant", "ij", NBODY_SOURCE_DIR "/scenes/plummer.toml"});
    ASSERT_TRUE(std::holds_alternative<AppOptions>(r));
    const RunSetup s = prepare_run(std::get<AppOptions>(r));
    EXPECT_EQ(s.params.precision, Precision::Fp64);
    EXPECT_EQ(s.params.integrator, Integrator::HermiteBlock);
    EXPECT_DOUBLE_EQ(s.params.eta, 0.02);
    EXPECT_EQ(s.params.gpus, 0);
    EXPECT_FALSE(s.params.kernel_auto);
    EXPECT_EQ(s.params.variant, KernelVariant::IJUnrolled);

    auto lb = parse({"--integrator", "leapfrog-block", "--method", "tree", "--eta", "0.1",
                     NBODY_SOURCE_DIR "/scenes/plummer.toml"});
    ASSERT_TRUE(std::holds_alternative<AppOptions>(lb));
    const RunSetup block = prepare_run(std::get<AppOptions>(lb));
    EXPECT_EQ(block.params.integrator, Integrator::LeapFrogBlock);
    EXPECT_EQ(block.params.method, ForceMethod::Tree);
    EXPECT_DOUBLE_EQ(block.params.eta, 0.1);

    auto d = parse({NBODY_SOURCE_DIR "/scenes/plummer.toml"});
    const RunSetup def = prepare_run(std::get<AppOptions>(d));
    EXPECT_TRUE(def.params.kernel_auto);
    EXPECT_EQ(def.params.precision, Precision::Fp32);
    EXPECT_EQ(def.params.gpus, 1);

    testing::internal::CaptureStderr();
    auto bad1 = parse({"--precision", "fp16"});
    auto bad2 = parse({"--gpus", "0"});
    auto bad3 = parse({"--eta", "nan"});
    const std::string err = testing::internal::GetCapturedStderr();
    for (auto* b : {&bad1, &bad2, &bad3}) ASSERT_TRUE(std::holds_alternative<int>(*b));
    EXPECT_NE(err.find("--gpus: expected a GPU count from 1 to 64, or 'all' (got '0')"), std::string::npos)
        << err;
}
