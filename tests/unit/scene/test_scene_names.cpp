// Scenes by name wherever a file is accepted (scene/scene_names.hpp): the command line takes "cartwheel" as
// the shipped scene, and a misspelt name lists the scenes and the closest one.
#include <gtest/gtest.h>

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
