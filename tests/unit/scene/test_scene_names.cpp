// Scenes by name wherever a file is accepted (scene/scene_names.hpp): the command line takes "cartwheel" as
// the shipped scene, and a misspelt name lists the scenes and the closest one.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "app/options.hpp"
#include "cli_parse.hpp"
#include "scene/scene_names.hpp"

using namespace nbody;

TEST(SceneNames, AShippedSceneIsFoundByItsName) {
    const std::string dir = NBODY_SOURCE_DIR "/scenes";
    EXPECT_EQ(find_scene("cartwheel", dir), dir + "/cartwheel.toml");
    EXPECT_EQ(find_scene("cartwheel.toml", dir), dir + "/cartwheel.toml");
    EXPECT_EQ(find_scene("some/path.toml", dir),
              "some/path.toml");  // a path is itself (its error comes later)
    EXPECT_FALSE(find_scene("cartweel", dir));
    const std::vector<std::string> names = scene_names(dir);
    EXPECT_NE(std::find(names.begin(), names.end(), "plummer"), names.end());
    const std::string m = unknown_scene_message("cartweel", dir);
    EXPECT_NE(m.find("'cartweel'"), std::string::npos) << m;
    EXPECT_NE(m.find("did you mean 'cartwheel'?"), std::string::npos) << m;
    EXPECT_NE(m.find("plummer"), std::string::npos) << m;
}

TEST(SceneNames, TheCommandLineTakesASceneName) {
    auto r = test::parse({"--headless", "cartwheel"});
    ASSERT_TRUE(std::holds_alternative<AppOptions>(r));
    EXPECT_EQ(std::get<AppOptions>(r).scene_path, scenes_dir() + "/cartwheel.toml");
    testing::internal::CaptureStderr();
    testing::internal::CaptureStdout();
    auto bad = test::parse({"--headless", "cartweel"});
    const std::string out = testing::internal::GetCapturedStdout() + testing::internal::GetCapturedStderr();
    ASSERT_TRUE(std::holds_alternative<int>(bad));
    EXPECT_NE(std::get<int>(bad), 0);
    EXPECT_NE(out.find("did you mean 'cartwheel'?"), std::string::npos) << out;
    EXPECT_NE(out.find("the shipped scenes: "), std::string::npos) << out;
}

// A name that is the start of a shipped one, or its letters run together, is pointed at it.
TEST(SceneNames, APartOfASceneNameGetsDidYouMean) {
    const std::string dir = NBODY_SOURCE_DIR "/scenes";
    const std::string m = unknown_scene_message("milkyway", dir);
    EXPECT_NE(m.find("did you mean 'milky-way-andromeda'?"), std::string::npos) << m;
    EXPECT_EQ(unknown_scene_message("zz", dir).find("did you mean"), std::string::npos);
}

// An unknown flag is named, with the closest known one, rather than its value being taken for the scene.
TEST(SceneNames, AnUnknownFlagIsNamedNotTakenForTheScene) {
    testing::internal::CaptureStderr();
    testing::internal::CaptureStdout();
    auto bad = test::parse({"--headless", "--stepz", "5"});
    const std::string out = testing::internal::GetCapturedStdout() + testing::internal::GetCapturedStderr();
    ASSERT_TRUE(std::holds_alternative<int>(bad));
    EXPECT_NE(std::get<int>(bad), 0);
    EXPECT_NE(out.find("unknown flag '--stepz' (did you mean '--steps'?)"), std::string::npos) << out;
    EXPECT_EQ(out.find("no scene"), std::string::npos) << out;
    auto good = test::parse({"--headless", "--steps=5", "--", "two-body"});
    EXPECT_TRUE(std::holds_alternative<AppOptions>(good));
}

// The README's scene table names every shipped scene file.
TEST(SceneNames, TheReadmeTableListsEveryShippedScene) {
    std::ifstream in(NBODY_SOURCE_DIR "/README.md");
    ASSERT_TRUE(in) << "README.md not found";
    const std::string readme((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (const std::string& name : scene_names(NBODY_SOURCE_DIR "/scenes"))
        EXPECT_NE(readme.find("| `" + name + ".toml` |"), std::string::npos) << name << ".toml is not in README.md's table";
}
