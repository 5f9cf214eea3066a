// Picking a body by a click (render/screen_pick.hpp) and the measuring tools' shapes on screen
// (render/measure_overlay.hpp): the body under the cursor, nothing on empty sky or behind the eye, and
// arrows whose heads sit on the projected tip.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "render/measure_overlay.hpp"
#include "render/screen_pick.hpp"

using namespace nbody;

namespace {
constexpr int kW = 800, kH = 600;

Camera side_camera() {
    Camera c;
    c.frame_all(glm::vec3(0), 1.0f);
    c.set_angles(-1.5707964f, 0);  // eye on -y looking along +y: x to the right, z up
    return c;
}

glm::vec2 screen(const Camera& c, glm::vec3 w) {
    const glm::vec3 p = c.project(w, kW, kH);
    return {p.x, p.y};
}
}  // namespace

TEST(ScreenPick, TheBodyUnderTheCursorAndNothingOnEmptySky) {
    const Camera c = side_camera();
    const std::vector<Float4> pos{{-0.5f, 0, 0, 1}, {0.5f, 0, 0, 1}, {0, 0, 0.5f, 1}};
    for (std::size_t i = 0; i < pos.size(); ++i) {
        const glm::vec2 at = screen(c, {pos[i].x, pos[i].y, pos[i].z}) + glm::vec2(3, -2);  // a few px off
        EXPECT_EQ(nearest_on_screen(pos, c, kW, kH, at), i);
    }
    EXPECT_FALSE(nearest_on_screen(pos, c, kW, kH, {5, 5}));  // a corner: no body within the radius
    EXPECT_FALSE(nearest_on_screen({}, c, kW, kH, {400, 300}));
}

TEST(ScreenPick, TheNearerOfTwoInLineAndNoneBehindTheEyeOrHidden) {
    const Camera c = side_camera();
    const glm::vec3 eye = c.eye();
    // Two bodies on one line of sight through the centre: the one nearer the eye is picked.
    const std::vector<Float4> pos{{0, 0.5f, 0, 1}, {0, -0.5f, 0, 1}, {eye.x, eye.y - 1.0f, eye.z, 1}};
    const glm::vec2 centre = screen(c, {0, 0, 0});
    EXPECT_EQ(nearest_on_screen(pos, c, kW, kH, centre), 1u);
    // Body 2 is behind the eye: its projection may land anywhere, but it is never picked.
    for (int x = 0; x < kW; x += 20)
        for (int y = 0; y < kH; y += 20) EXPECT_NE(nearest_on_screen(pos, c, kW, kH, glm::vec2(x, y)), 2u);
    // A hidden body is passed over for the one behind it.
    const auto not_1 = [](std::size_t i) { return i != 1; };
    EXPECT_EQ(nearest_on_screen(pos, c, kW, kH, centre, kPickRadiusPx, not_1), 0u);
}

TEST(MeasureOverlay, AnArrowsHeadSitsOnTheProjectedTip) {
    const Camera c = side_camera();
    OverlayShapes shapes;
    shapes.lines.push_back({{glm::vec3(0, 0, 0), glm::vec3(0.5f, 0, 0)}, kVelocityColour, 2.0f, true});
    const std::vector<OverlayVertex> tri = overlay_triangles(shapes, c, kW, kH);
    ASSERT_EQ(tri.size() % 3, 0u);
    ASSERT_GE(tri.size(), 9u);  // a head and a shaft of two triangles
    const glm::vec2 tip = screen(c, {0.5f, 0, 0}), tail = screen(c, {0, 0, 0});
    float max_x = -1e9f, min_x = 1e9f;
    for (const OverlayVertex& v : tri) {
        max_x = std::max(max_x, v.x), min_x = std::min(min_x, v.x);
        EXPECT_NEAR(v.y, tip.y, 6.0f);  // a horizontal arrow: nothing strays more than the head's half width
        EXPECT_FLOAT_EQ(v.g, kVelocityColour.g);
    }
    EXPECT_NEAR(max_x, tip.x, 0.5f);   // the head's point is the tip
    EXPECT_NEAR(min_x, tail.x + 4.0f, 0.5f);  // the shaft starts just off the body, leaving it visible
}

TEST(MeasureOverlay, ALineWithAnEndBehindTheEyeIsLeftOut) {
    const Camera c = side_camera();
    OverlayShapes shapes;
    shapes.lines.push_back({{glm::vec3(0), c.eye() - glm::vec3(0, 1, 0)}, kRulerColour, 2.0f, false});
    shapes.rings.push_back({c.eye() - glm::vec3(0, 1, 0), kPickColour, 10.0f});
    EXPECT_TRUE(overlay_triangles(shapes, c, kW, kH).empty());
}

// A guide's dashes: `on` samples drawn, `off` left out, every dash sharing its ends with the curve's samples;
// the last dash stops at the curve's end.
TEST(MeasureOverlay, DashesTakeOnSamplesAndSkipOff) {
    std::vector<glm::vec3> curve;
    for (int k = 0; k <= 20; ++k) curve.push_back({float(k), 0, 0});
    OverlayShapes s;
    add_dashes(s, curve, kGuideColour, 2.0f, 4, 4);
    ASSERT_EQ(s.lines.size(), 3u);  // 0-4, 8-12, 16-20
    for (std::size_t d = 0; d < s.lines.size(); ++d) {
        ASSERT_EQ(s.lines[d].points.size(), 5u);
        EXPECT_EQ(s.lines[d].points.front().x, float(8 * d));
        EXPECT_EQ(s.lines[d].points.back().x, float(8 * d + 4));
        EXPECT_FALSE(s.lines[d].arrow);
    }
    OverlayShapes t;
    add_dashes(t, {curve.begin(), curve.begin() + 11}, kGuideColour, 2.0f, 4, 4);  // 0..10: the last dash 8-10
    ASSERT_EQ(t.lines.size(), 2u);
    EXPECT_EQ(t.lines[1].points.back().x, 10.0f);
    OverlayShapes none;
    add_dashes(none, {curve.front()}, kGuideColour, 2.0f, 4, 4);  // one point: no segment to draw
    EXPECT_TRUE(none.lines.empty());
}
