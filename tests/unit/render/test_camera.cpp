#include <gtest/gtest.h>

#include <cmath>

#include "render/camera.hpp"

using namespace nbody;

TEST(Camera, TargetProjectsToTheCentreOfTheView) {
    Camera c;
    c.frame_all(glm::vec3(1, 2, 3), 2.0f);
    const glm::vec3 p = c.project(glm::vec3(1, 2, 3), 640, 480);
    EXPECT_NEAR(p.x, 320.0f, 1e-3f);
    EXPECT_NEAR(p.y, 240.0f, 1e-3f);
    EXPECT_GT(p.z, 0.0f);  // in front of the eye
}

TEST(Camera, FrameAllFitsTheSphereInTheVerticalFieldOfView) {
    Camera c;
    c.frame_all(glm::vec3(0), 1.0f);
    c.set_angles(-1.5707964f, 0);  // eye on -y looking along +y, z up
    const glm::vec3 top = c.project(glm::vec3(0, 0, 1), 800, 600);
    EXPECT_GT(top.y, 0.0f);    // inside the top edge
    EXPECT_LT(top.y, 300.0f);  // above the centre: screen y grows downwards
}

TEST(Camera, OrbitKeepsTheDistanceAndInertiaDecays) {
    Camera c;
    c.frame_all(glm::vec3(0), 1.0f);
    const float d = c.distance();
    c.orbit(100, 0);
    EXPECT_NEAR(glm::length(c.eye() - c.target()), d, 1e-4f * d);
    c.release();
    const float yaw0 = c.yaw();
    c.update(0.016f);
    const float step1 = std::fabs(std::remainder(c.yaw() - yaw0, 6.2831853f));
    EXPECT_GT(step1, 0.0f);                          // keeps turning after release
    for (int i = 0; i < 600; ++i) c.update(0.016f);  // 10 s: the motion has died out
    const float yaw1 = c.yaw();
    c.update(0.016f);
    EXPECT_NEAR(c.yaw(), yaw1, 1e-5f);
}

TEST(Camera, PitchStopsShortOfThePoles) {
    Camera c;
    c.orbit(0, 1e6f);
    EXPECT_LT(c.pitch(), 1.5708f);
    EXPECT_TRUE(std::isfinite(c.view()[0][0]));
}

TEST(Camera, ZoomAndResetReturnHome) {
    Camera c;
    c.frame_all(glm::vec3(0), 1.0f);
    const float home = c.distance();
    c.zoom(3);
    EXPECT_NEAR(c.distance(), home * std::pow(0.9f, 3.0f), 1e-4f * home);
    c.pan(50, 20, 600);
    EXPECT_GT(glm::length(c.target()), 0.0f);
    c.reset();
    EXPECT_FLOAT_EQ(c.distance(), home);
    EXPECT_FLOAT_EQ(glm::length(c.target()), 0.0f);
}

TEST(Camera, PanFollowsTheCursor) {
    // Dragging right by k pixels moves the target left by k pixels' worth, so a point on the target
    // plane moves right on screen by k pixels.
    Camera c;
    c.frame_all(glm::vec3(0), 1.0f);
    const glm::vec3 before = c.project(glm::vec3(0), 800, 600);
    c.pan(40, 0, 600);
    const glm::vec3 after = c.project(glm::vec3(0), 800, 600);
    EXPECT_NEAR(after.x - before.x, 40.0f, 0.5f);
}

TEST(Camera, HomeViewLooksDownOnTheXYPlaneWithXToTheRight) {
    Camera c;
    c.frame_all(glm::vec3(0), 1.0f);
    const glm::vec3 o = c.project(glm::vec3(0), 800, 600), x = c.project(glm::vec3(0.5f, 0, 0), 800, 600),
                    y = c.project(glm::vec3(0, 0.5f, 0), 800, 600);
    EXPECT_GT(x.x, o.x + 10);  // +x to the right
    EXPECT_NEAR(x.y, o.y, 1.0f);
    EXPECT_LT(y.y, o.y - 10);  // +y up the screen (screen y grows downwards)
}

TEST(Camera, SetHomeTakesASceneCameraAndResetReturnsToIt) {
    Camera c;
    c.set_home(glm::vec3(1, 2, 0), 7.0f, 0.3f, 0.5f);
    c.orbit(200, 50);
    c.zoom(4);
    c.reset();
    EXPECT_FLOAT_EQ(c.distance(), 7.0f);
    EXPECT_NEAR(c.yaw(), 0.3f, 1e-6f);
    EXPECT_NEAR(c.pitch(), 0.5f, 1e-6f);
    EXPECT_NEAR(c.eye().z, 7.0f * std::sin(0.5f), 1e-4f);  // pitch is the elevation above the x-y plane
}

// The bodies are framed in the free area beside the panels: with an offset, the target projects to the middle of
// that area (not the window's), and the picture's scale is unchanged.
TEST(Camera, AViewOffsetCentresTheTargetInTheFreeArea) {
    Camera c;
    c.frame_all(glm::vec3(0), 1.0f);
    const glm::vec3 edge_before = c.project(glm::vec3(0.5f, 0, 0), 1280, 720);
    const glm::vec3 centre_before = c.project(glm::vec3(0), 1280, 720);
    const float left = 436, right = 1280;  // a 436 px column at the left edge
    c.set_view_offset((left + right) / 1280.0f - 1.0f);
    const glm::vec3 p = c.project(glm::vec3(0), 1280, 720);
    EXPECT_NEAR(p.x, 0.5f * (left + right), 0.5f);
    EXPECT_NEAR(p.y, 360.0f, 0.5f);
    const glm::vec3 edge = c.project(glm::vec3(0.5f, 0, 0), 1280, 720);
    EXPECT_NEAR(edge.x - p.x, edge_before.x - centre_before.x, 0.5f);  // shifted, not scaled
}
