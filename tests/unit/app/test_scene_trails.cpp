// The trails a scene opens with (app/scene_trails.hpp): on at the scene's length, off again after it, the
// command line's and the View panel's choices kept, and none on a software rasterizer, with the reason.
#include <gtest/gtest.h>

#include "app/scene_trails.hpp"

namespace nbody {
namespace {

TEST(SceneTrails, AScenesTrailsTurnOnAtItsLengthAndOffWithTheNextSceneWithoutThem) {
    SceneTrails s;
    TrailSettings t;
    s.apply(t, 96, false);
    EXPECT_TRUE(t.on);
    EXPECT_EQ(t.length, 96);
    EXPECT_TRUE(s.note.empty());
    s.apply(t, 0, false);
    EXPECT_FALSE(t.on);
    EXPECT_EQ(t.length, 96);  // the length stays for the View panel's switch
}

TEST(SceneTrails, TrailsTheViewPanelChangedStayWhenTheNextSceneHasNone) {
    SceneTrails s;
    TrailSettings t;
    s.apply(t, 128, false);
    t.length = 512;  // the slider moved: the person's trails now
    s.apply(t, 0, false);
    EXPECT_TRUE(t.on);
    EXPECT_EQ(t.length, 512);

    TrailSettings own;
    own.on = true;  // on before any scene asked
    SceneTrails fresh;
    fresh.apply(own, 0, false);
    EXPECT_TRUE(own.on);
}

TEST(SceneTrails, TheCommandLinesTrailsHoldForEveryScene) {
    SceneTrails s;
    s.from_flag = true;
    TrailSettings t;
    t.on = true, t.length = 300;
    s.apply(t, 64, false);
    EXPECT_EQ(t.length, 300);
    s.apply(t, 0, false);
    EXPECT_TRUE(t.on);
}

TEST(SceneTrails, ASoftwareRasterizerLeavesThemOffAndSaysWhy) {
    SceneTrails s;
    TrailSettings t;
    s.apply(t, 128, true);
    EXPECT_FALSE(t.on);
    EXPECT_NE(s.note.find("software rasterizer"), std::string::npos) << s.note;
    EXPECT_NE(s.note.find("128 samples"), std::string::npos) << s.note;
    s.apply(t, 0, true);
    EXPECT_TRUE(s.note.empty());
}

}  // namespace
}  // namespace nbody
