// The legend names colour groups as the scene file names its components.
#include <gtest/gtest.h>

#include "scene/group_labels.hpp"
#include "scene/scene_file.hpp"

using namespace nbody;

TEST(GroupLabels, TheCartwheelNamesItsTargetsHaloDiskAndTheIntruder) {
    const SceneSpec s = load_scene_file(NBODY_SOURCE_DIR "/scenes/cartwheel.toml");
    const std::vector<std::string> labels = group_labels(s);
    ASSERT_EQ(labels.size(), 3u);
    EXPECT_EQ(labels[0], "target disk");
    EXPECT_EQ(labels[1], "target halo");
    EXPECT_EQ(labels[2], "intruder");
}

TEST(GroupLabels, UnnamedSharedAndUnusedGroups) {
    SceneSpec s;
    ComponentSpec a, b, c;
    a.type = ComponentType::Plummer, a.group = 0;
    b.type = ComponentType::PointMass, b.name = "sun", b.group = 0;
    c.type = ComponentType::DiskGalaxy, c.name = "milky way", c.disk.group = c.halo.group = 3;
    s.components = {a, b, c};
    const std::vector<std::string> labels = group_labels(s);
    ASSERT_EQ(labels.size(), 4u);
    EXPECT_EQ(labels[0], "plummer 0 + sun");
    EXPECT_EQ(labels[1], "group 1");
    EXPECT_EQ(labels[3], "milky way");  // halo and disk share the group: the galaxy's own name
}

TEST(GroupLabels, IdentifiersReadAsWords) {
    const SceneSpec s = load_scene_file(NBODY_SOURCE_DIR "/scenes/milky-way-andromeda.toml");
    const std::vector<std::string> labels = group_labels(s);
    ASSERT_GE(labels.size(), 1u);
    for (const std::string& l : labels) EXPECT_EQ(l.find('_'), std::string::npos) << l;
    EXPECT_EQ(labels[0], "milky way disk");
}
