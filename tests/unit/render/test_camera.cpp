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

// Beside panels the picture shrinks so that what the whole window's height holds fits the free area: for a
// sphere (frame_all) by the free area's smaller side over the window's height.
TEST(Camera, AFreeAreaShrinksASphereByItsSmallerSide) {
    Camera c;
    c.frame_all(glm::vec3(0), 1.0f);
    const float before = c.project(glm::vec3(0.5f, 0, 0), 1280, 720).x - c.project(glm::vec3(0), 1280, 720).x;
    c.set_view_rect(400, 40, 1280, 640, 1280, 720);  // 880 x 600
    EXPECT_NEAR(c.view_scale(), 600.0f / 720.0f, 1e-6f);
    const glm::vec3 centre = c.project(glm::vec3(0), 1280, 720);
    EXPECT_NEAR(centre.x, 840.0f, 0.5f);
    EXPECT_NEAR(centre.y, 340.0f, 0.5f);
    const float after = c.project(glm::vec3(0.5f, 0, 0), 1280, 720).x - centre.x;
    EXPECT_NEAR(after / before, 600.0f / 720.0f, 1e-3f);
}

// A scene's frame box (wider than the window) is kept whole: headless, the whole window is the free area;
// beside panels, the box fits the free area's width. The box's corners land inside the view either way.
TEST(Camera, AFrameBoxStaysWholeInTheWindowAndBesideThePanels) {
    Camera c;
    c.set_home_frame(glm::vec3(0), 22.0f, 10.0f, 0.0f, 1.55f);  // looking down, nearly
    EXPECT_FLOAT_EQ(c.frame_aspect(), 2.2f);
    EXPECT_FLOAT_EQ(c.fov_y, Camera::kFrameFovY);  // narrow: the box's ends are not stretched
    const auto corners_inside = [&](float left, float top, float right, float bottom) {
        for (float sx : {-1.0f, 1.0f})
            for (float sy : {-1.0f, 1.0f}) {
                // Yaw 0, looking down: the picture's right is the scene's +y, its up the scene's -x.
                const glm::vec3 p = c.project(glm::vec3(sy * 5.0f, sx * 11.0f, 0), 1280, 720);
                // 8 px of slack: at pitch 1.55 the box's near edge is a little wider (perspective).
                if (!(p.x >= left - 8 && p.x <= right + 8 && p.y >= top - 8 && p.y <= bottom + 8))
                    return false;
            }
        return true;
    };
    // Headless (no free area): the box's width fills the window.
    EXPECT_TRUE(corners_inside(0, 0, 1280, 720));
    const float wide =
        c.project(glm::vec3(0, 11.0f, 0), 1280, 720).x - c.project(glm::vec3(0, -11.0f, 0), 1280, 720).x;
    EXPECT_NEAR(std::abs(wide), 1280.0f, 20.0f);  // perspective: the box's near edge is a little wider
    // Beside 400 px of panels the box fits the 880 px left.
    c.set_view_rect(400, 0, 1280, 720, 1280, 720);
    EXPECT_NEAR(c.view_scale(), 880.0f / (2.2f * 720.0f), 1e-5f);
    EXPECT_TRUE(corners_inside(400, 0, 1280, 720));
    // Frame all is a sphere again.
    c.frame_all(glm::vec3(0), 1.0f);
    EXPECT_FLOAT_EQ(c.frame_aspect(), 1.0f);
    EXPECT_FLOAT_EQ(c.fov_y, Camera::kDefaultFovY);
    EXPECT_NEAR(c.view_scale(), 1.0f, 1e-6f);
}
