#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/errors.hpp"
#include "scene/scene_file.hpp"

using namespace nbody;

namespace {
const char* kGood = R"(name = "test"
dt = 0.02
eps = 0.05
seed = 3

[[component]]
type = "plummer"
n = 100
scale = 0.5

[[component]]
type = "uniform_sphere"
n = 50
radius = 2.0
position = [5, 0, 0]
velocity = [0, 0.5, 0]
)";

std::string error_of(const std::string& text) {
    try {
        parse_scene(text, "s.toml");
    } catch (const SceneError& e) {
        return e.what();
    }
    return "";
}
}  // namespace

TEST(SceneFile, ParsesGlobalsAndComponents) {
    const SceneSpec s = parse_scene(kGood, "s.toml");
    EXPECT_EQ(s.name, "test");
    EXPECT_DOUBLE_EQ(s.dt, 0.02);
    EXPECT_DOUBLE_EQ(s.eps, 0.05);
    ASSERT_EQ(s.components.size(), 2u);
    EXPECT_EQ(s.total_bodies(), 150u);
    EXPECT_EQ(s.components[1].type, ComponentType::UniformSphere);
    EXPECT_DOUBLE_EQ(s.components[1].position.x, 5.0);
    EXPECT_EQ(s.components[1].group, 1u);
    const State st = build_scene(s);
    ASSERT_EQ(st.size(), 150u);
    EXPECT_EQ(st.group[120], 1u);
}

TEST(SceneFile, ErrorsNameLineColumnAndField) {
    EXPECT_EQ(error_of("dt = -1\n[[component]]\ntype = \"plummer\"\nn = 10\n"),
              "s.toml:1:6: field 'dt': must be > 0 and at most 1000000 (got -1)");
    EXPECT_EQ(error_of("dt = 0.1\n[[component]]\ntype = \"plummer\"\nn = 0\n"),
              "s.toml:4:5: field 'component[0].n': must be from 1 to 67108864 (got 0)");
    EXPECT_EQ(error_of("eps = \"small\"\n[[component]]\ntype = \"plummer\"\nn = 10\n"),
              "s.toml:1:7: field 'eps': expected a number");
}

TEST(SceneFile, UnknownKeysSuggestTheNearestKnownOne) {
    const std::string e = error_of("epss = 0.1\n[[component]]\ntype = \"plummer\"\nn = 10\n");
    EXPECT_NE(e.find("s.toml:1:1: unknown key 'epss' (did you mean 'eps'?)"), std::string::npos) << e;
    const std::string t = error_of("[[component]]\ntype = \"plumer\"\nn = 10\n");
    EXPECT_NE(t.find("unknown component type 'plumer' (did you mean 'plummer'?)"), std::string::npos) << t;
}

TEST(SceneFile, SyntaxErrorsAndMissingPieces) {
    EXPECT_NE(error_of("dt = = 1\n").find("s.toml:1:6: TOML syntax"), std::string::npos) << error_of("dt = = 1\n");
    EXPECT_NE(error_of("dt = 0.1\n").find("missing [[component]]"), std::string::npos);
    EXPECT_NE(error_of("[[component]]\ntype = \"plummer\"\n").find("missing required field 'component[0].n'"),
              std::string::npos);
    EXPECT_NE(error_of("[[component]]\ntype = \"plummer\"\nn = 3\nposition = [1, 2]\n")
                  .find("expected an array of three numbers"),
              std::string::npos);
}

// Every file in tests/data/bad/ must be rejected with the message its first line ("# expect: ...") names.
TEST(SceneFile, BadFileCorpus) {
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(NBODY_TEST_DATA "/bad")) {
        std::ifstream in(entry.path());
        std::string first;
        std::getline(in, first);
        ASSERT_EQ(first.rfind("# expect: ", 0), 0u) << entry.path();
        const std::string expect = first.substr(10);
        try {
            load_scene_file(entry.path().string());
            ADD_FAILURE() << entry.path() << " loaded without error";
        } catch (const SceneError& e) {
            EXPECT_NE(std::string(e.what()).find(expect), std::string::npos) << e.what();
            EXPECT_EQ(e.file, entry.path().string());
        }
        ++files;
    }
    EXPECT_GE(files, 5);
}

TEST(SceneFile, MissingFileIsAnErrorNotACrash) {
    EXPECT_THROW(load_scene_file("/nonexistent/scene.toml"), SceneError);
}

TEST(SceneFile, ShippedScenesLoadAndBuildSmall) {
    int count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(NBODY_SOURCE_DIR "/scenes")) {
        if (entry.path().extension() != ".toml") continue;
        SceneSpec s = load_scene_file(entry.path().string());
        if (s.total_bodies() > 512) rescale_bodies(s, 512);
        const State st = build_scene(s);
        EXPECT_EQ(first_non_finite(st), -1) << entry.path();
        ++count;
    }
    EXPECT_GE(count, 2);
}

TEST(SceneFile, RescaleKeepsProportionsAndTotal) {
    SceneSpec s = parse_scene(kGood, "s.toml");
    rescale_bodies(s, 3000);
    EXPECT_EQ(s.total_bodies(), 3000u);
    EXPECT_EQ(s.components[0].n, 2000u);
    EXPECT_THROW(rescale_bodies(s, 1), ParamError);
}
