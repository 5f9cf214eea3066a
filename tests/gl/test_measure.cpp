// The measuring tools in the picture (render/measure_renderer.hpp through the Viewer): the picked body's
// velocity and acceleration arrows drawn where they point, a click on a body picks it and a click on empty
// sky changes nothing, a new scene clears the pick, and a pick past the scene is refused naming the flag.
#include <cmath>
#include <string>

#include "app/viewer.hpp"
#include "gl_test_util.hpp"

using namespace nbody;
using namespace nbody::test;

namespace {
constexpr int kW = 1280, kH = 720;

AppOptions two_body(std::vector<std::size_t> pick) {
    AppOptions o;
    o.scene_path = std::string(NBODY_SOURCE_DIR) + "/scenes/two-body.toml";
    o.backend = "cpu";
    o.width = kW, o.height = kH;
    o.headless = true;
    o.paused = true;
    o.pick = std::move(pick);
    return o;
}

glm::vec3 v3(Double3 d) { return glm::vec3(float(d.x), float(d.y), float(d.z)); }

// The brightest pixel within 2 px of the world point's projection.
Rgb at(Viewer& v, const Image& img, glm::vec3 world) {
    const glm::vec3 p = v.camera().project(world, kW, kH);
    return brightest_near(img, int(p.x), int(p.y), 2);
}
}  // namespace

TEST(Measure, ThePickedBodysArrowsAreDrawnWhereTheyPoint) {
    NBODY_HEADLESS_OR_SKIP(ctx, kW, kH);
    Viewer v(two_body({0}), *ctx);
    v.measurements().every_body = false;  // the pick's arrows alone
    v.simulate_and_draw(0.0, 1.0);
    const Image img = v.capture();
    const BodyReading* r = v.measurements().reading_of(0);
    ASSERT_NE(r, nullptr);
    const ArrowScale s = v.measurements().arrow_scale();
    ASSERT_GT(s.velocity_time, 0);
    // Halfway along each arrow: green for the velocity (along +y), orange for the pull (towards the other body).
    const Rgb vel = at(v, img, v3(r->pos + (0.5 * s.velocity_time) * r->vel));
    EXPECT_GT(vel.g, 150) << vel.r << " " << vel.g << " " << vel.b;
    EXPECT_GT(vel.g, vel.r + 60);
    const Rgb acc = at(v, img, v3(r->pos + (0.5 / s.accel_per_length) * r->acc));
    EXPECT_GT(acc.r, 150) << acc.r << " " << acc.g << " " << acc.b;
    EXPECT_GT(acc.r, acc.b + 100);
    // The other body has no arrows: halfway along where its velocity arrow would be, the sky.
    const Rgb none = at(v, img, glm::vec3(-0.5f, -0.5f * float(s.velocity_time) * 0.5f, 0));
    EXPECT_LT(none.g, 60) << none.r << " " << none.g << " " << none.b;
}

TEST(Measure, AClickPicksTheBodyUnderItAndEmptySkyChangesNothing) {
    NBODY_HEADLESS_OR_SKIP(ctx, kW, kH);
    Viewer v(two_body({}), *ctx);
    v.simulate_and_draw(0.0, 1.0);
    const glm::vec3 b1 = v.camera().project(glm::vec3(-0.5f, 0, 0), kW, kH);
    ASSERT_TRUE(v.pick_at(b1.x + 2, b1.y - 3, false));
    EXPECT_EQ(v.measurements().picked(), 1u);
    EXPECT_FALSE(v.pick_at(5, 5, false));  // a corner of empty sky
    EXPECT_EQ(v.measurements().picked(), 1u);
    const glm::vec3 b0 = v.camera().project(glm::vec3(0.5f, 0, 0), kW, kH);
    ASSERT_TRUE(v.pick_at(b0.x, b0.y, true));  // Shift: the ruler's second body
    EXPECT_EQ(v.measurements().second(), 0u);
    v.simulate_and_draw(0.0, 1.0);
    ASSERT_TRUE(v.measurements().ruler_length());
    EXPECT_NEAR(*v.measurements().ruler_length(), 1.0, 1e-6);
    ASSERT_EQ(v.load_scene(std::string(NBODY_SOURCE_DIR) + "/scenes/two-body.toml", 1.0), "");
    EXPECT_FALSE(v.measurements().picked());  // a new scene: no pick carried over
}

TEST(Measure, FollowKeepsThePickedBodyAtTheCameraTarget) {
    NBODY_HEADLESS_OR_SKIP(ctx, kW, kH);
    AppOptions o = two_body({1});
    o.paused = false;
    Viewer v(o, *ctx);
    v.measurements().follow = true;
    for (int frame = 0; frame < 3; ++frame) v.simulate_and_draw(0.0, 1.0);
    const BodyReading* r = v.measurements().reading_of(1);
    ASSERT_NE(r, nullptr);
    EXPECT_GT(v.sim().backend().time(), 0.0);  // the body moved
    const glm::vec3 target = v.camera().target();
    EXPECT_NEAR(target.x, r->pos.x, 1e-6);
    EXPECT_NEAR(target.y, r->pos.y, 1e-6);
    EXPECT_GT(std::abs(target.y), 1e-3);  // off the centre of mass, where the camera started
}

TEST(Measure, APickPastTheSceneIsRefusedNamingTheFlag) {
    NBODY_HEADLESS_OR_SKIP(ctx, kW, kH);
    try {
        Viewer v(two_body({7}), *ctx);
        FAIL() << "picked body 7 of 2";
    } catch (const ParamError& e) {
        EXPECT_EQ(e.field, "--pick");
        EXPECT_NE(std::string(e.what()).find("has 2 bodies"), std::string::npos) << e.what();
    }
}

// A choreography's guide (scene/orbit_guides.hpp): dashes along the exact eight, gaps between them, and nothing
// with the View panel's switch off. Samples 80 to 84 of 512 are the eleventh dash, 84 to 88 a gap, away from
// the three stars (samples 0, 171 and 341 at the start).
TEST(Measure, TheOrbitGuideIsDrawnDashedAndTheSwitchHidesIt) {
    NBODY_HEADLESS_OR_SKIP(ctx, kW, kH);
    AppOptions o = two_body({});
    o.scene_path = std::string(NBODY_SOURCE_DIR) + "/scenes/three-body-figure8.toml";
    Viewer v(o, *ctx);
    ASSERT_EQ(v.guides().size(), 1u);
    const std::vector<Double3>& curve = v.guides()[0].points;
    ASSERT_EQ(curve.size(), std::size_t(kGuideSamples) + 1);
    v.simulate_and_draw(0.0, 1.0);
    const Image on = v.capture();
    const Rgb dash = at(v, on, v3(curve[82])), gap = at(v, on, v3(curve[86]));
    EXPECT_GT(dash.b, 60) << dash.r << " " << dash.g << " " << dash.b;
    EXPECT_GE(dash.b, dash.r);  // the guide's blue-white, not a star's colour
    EXPECT_LT(gap.b, 30) << gap.r << " " << gap.g << " " << gap.b;
    v.settings().orbit_guides = false;
    v.draw_only();
    const Rgb hidden = at(v, v.capture(), v3(curve[82]));
    EXPECT_LT(hidden.b, 30) << hidden.r << " " << hidden.g << " " << hidden.b;
}
