// Trails in their bodies' colours (docs/rendering.md, "Trails"): each body's trail in its component's colour,
// kept through a colour-mode change and a new scene's groups (also a scene loaded in the window's Viewer);
// under speed colouring the trail follows the sprites' ramp; a hidden component leaves no trail and dimmed
// dark matter a dimmed one, in every mode.
#include <glad/gl.h>

#include <memory>
#include <vector>

#include "app/viewer.hpp"
#include "gl_test_util.hpp"
#include "render/gl_check.hpp"
#include "render/particle_renderer.hpp"
#include "render/shader.hpp"

using namespace nbody;
using namespace nbody::test;

namespace {
constexpr int kW = 160, kH = 120;
constexpr float kHigh = 0.3f, kLow = -0.3f;  // the two bodies' heights (z)

// Two bodies from x = -0.7 to +0.7, one at z = kHigh and one at z = kLow, in 40 updates of 0.01 time units.
void move_two_bodies(ParticleRenderer& r, const TrailSettings& t) {
    constexpr int kUpdates = 40;
    for (int k = 0; k <= kUpdates; ++k) {
        const float x = -0.7f + 1.4f * float(k) / float(kUpdates);
        const Float4 p[2] = {{x, 0.0f, kHigh, 1.0f}, {x, 0.0f, kLow, 1.0f}};
        r.begin_position_update(k == 0 ? 0.0 : 0.01);
        r.upload_positions(p, 2);
        r.end_position_update(t);
    }
}

// Body 0 in group 0 and body 1 in group 1, moved with trails on.
std::unique_ptr<ParticleRenderer> two_trailed_bodies(const TrailSettings& t) {
    auto r = std::make_unique<ParticleRenderer>(shader_dir());
    r->set_particle_count(2);
    r->set_groups({0, 1});
    move_two_bodies(*r, t);
    return r;
}

RenderSettings red_and_blue() {
    RenderSettings s;
    s.point_size = 4;
    s.trails = {true, 64, 1, 0.35f};
    s.groups[0].colour = {1.0f, 0.05f, 0.05f};
    s.groups[1].colour = {0.05f, 0.05f, 1.0f};
    return s;
}

// The trail's pixel halfway along the path (behind the bodies, which are at x = 0.7 now).
Rgb trail_at(GlContext& ctx, ParticleRenderer& r, const RenderSettings& s, float z) {
    r.draw(front_view(), s, DepthRange{0, 10}, kW, kH, ctx.target_framebuffer());
    const Image img = read_framebuffer(ctx.target_framebuffer(), kW, kH);
    const glm::vec3 p = front_view().project(glm::vec3(-0.2f, 0.0f, z), kW, kH);
    return brightest_near(img, int(p.x), int(p.y), 1);
}

bool reddish(Rgb c) {
    return c.r > c.b + 40;
}
bool bluish(Rgb c) {
    return c.b > c.r + 40;
}
}  // namespace

TEST(TrailColours, EachTrailHasItsComponentsColourThroughModeAndSceneChanges) {
    NBODY_HEADLESS_OR_SKIP(ctx, kW, kH);
    RenderSettings s = red_and_blue();
    const std::unique_ptr<ParticleRenderer> owner = two_trailed_bodies(s.trails);
    ParticleRenderer& r = *owner;
    Rgb high = trail_at(*ctx, r, s, kHigh), low = trail_at(*ctx, r, s, kLow);
    EXPECT_TRUE(reddish(high)) << high.r << " " << high.g << " " << high.b;
    EXPECT_TRUE(bluish(low)) << low.r << " " << low.g << " " << low.b;

    // Speed: both move alike, so both trails take the same colour of the ramp, neither red nor blue.
    s.color_mode = ColorMode::Speed;
    high = trail_at(*ctx, r, s, kHigh), low = trail_at(*ctx, r, s, kLow);
    EXPECT_NEAR(high.r, low.r, 12);
    EXPECT_NEAR(high.b, low.b, 12);
    // Back to components: the colours come back.
    s.color_mode = ColorMode::Group;
    high = trail_at(*ctx, r, s, kHigh), low = trail_at(*ctx, r, s, kLow);
    EXPECT_TRUE(reddish(high)) << high.r << " " << high.g << " " << high.b;
    EXPECT_TRUE(bluish(low)) << low.r << " " << low.g << " " << low.b;
    // Density has no value along a trail's past: the trails keep the component colours.
    s.color_mode = ColorMode::Density;
    high = trail_at(*ctx, r, s, kHigh), low = trail_at(*ctx, r, s, kLow);
    EXPECT_TRUE(reddish(high)) << high.r << " " << high.g << " " << high.b;
    EXPECT_TRUE(bluish(low)) << low.r << " " << low.g << " " << low.b;

    // A new scene of another N whose groups are the other way round: the trails follow the new groups.
    s.color_mode = ColorMode::Group;
    r.set_particle_count(3);
    r.set_groups({1, 0, 0});
    move_two_bodies(r, s.trails);  // the third body stays at the origin, off the sampled points
    high = trail_at(*ctx, r, s, kHigh), low = trail_at(*ctx, r, s, kLow);
    EXPECT_TRUE(bluish(high)) << high.r << " " << high.g << " " << high.b;
    EXPECT_TRUE(reddish(low)) << low.r << " " << low.g << " " << low.b;
    NBODY_GL(glFinish());
}

TEST(TrailColours, AHiddenComponentLeavesNoTrailAndDarkMatterADimOneInAnyMode) {
    NBODY_HEADLESS_OR_SKIP(ctx, kW, kH);
    RenderSettings s = red_and_blue();
    const std::unique_ptr<ParticleRenderer> owner = two_trailed_bodies(s.trails);
    ParticleRenderer& r = *owner;
    s.groups[1].visible = false;  // the View panel's components list
    for (const ColorMode mode : {ColorMode::Group, ColorMode::Speed, ColorMode::Depth}) {
        SCOPED_TRACE(int(mode));
        s.color_mode = mode;
        const Rgb shown = trail_at(*ctx, r, s, kHigh), hidden = trail_at(*ctx, r, s, kLow);
        EXPECT_GT(shown.sum(), hidden.sum() + 60);
        // The sky, with at most a little of the shown trail's glow (ahead of the hidden one's 280 and more).
        EXPECT_LE(hidden.sum(), 60) << hidden.r << " " << hidden.g << " " << hidden.b;
    }
    // Dark matter, not shown: its trail at a tenth of the light under speed colouring, as its sprites.
    s.groups[1].visible = true;
    s.groups[1].dark_matter = true;
    s.color_mode = ColorMode::Speed;
    const Rgb bright = trail_at(*ctx, r, s, kHigh), dim = trail_at(*ctx, r, s, kLow);
    EXPECT_LT(2 * dim.sum(), bright.sum()) << dim.sum() << " against " << bright.sum();
    NBODY_GL(glFinish());
}

// Through the window's own path: after the Scene panel's Load of the figure-eight (from the two-body scene,
// where trails were already on), each star's trail a few dozen frames back has its own component's colour.
TEST(TrailColours, ANewScenesTrailsTakeItsComponentsColours) {
    constexpr int kWin = 640, kWinH = 360;
    NBODY_HEADLESS_OR_SKIP(ctx, kWin, kWinH);
    AppOptions o;
    o.scene_path = std::string(NBODY_SOURCE_DIR) + "/scenes/two-body.toml";
    o.backend = "cpu";
    o.threads = 1;
    o.width = kWin, o.height = kWinH;
    o.headless = true;
    o.trails = 128;
    Viewer v(o, *ctx);
    for (int f = 0; f < 10; ++f) v.simulate_and_draw(0.0, 1.0);
    ASSERT_EQ(v.load_scene(std::string(NBODY_SOURCE_DIR) + "/scenes/three-body-figure8.toml", 1.0), "");
    v.measurements().every_body = false;  // no arrows over the trails
    v.settings().orbit_guides = false;    // nor the exact eight's dashes, which run where the trails do
    v.settings().trails.stride = 1;
    std::vector<Float4> then(3);
    for (int f = 0; f < 60; ++f) {
        v.simulate_and_draw(0.0, 1.0);
        if (f == 30) v.sim().backend().copy_positions_to_host(then.data());
    }
    const Image img = v.capture();
    const std::vector<uint32_t>& group = v.sim().initial_state().group;
    for (std::size_t i = 0; i < 3; ++i) {
        const glm::vec3 p = v.camera().project(glm::vec3(then[i].x, then[i].y, then[i].z), kWin, kWinH);
        const Rgb c = brightest_near(img, int(p.x), int(p.y), 2);
        // The group colour nearest in direction to the pixel's is the body's own.
        std::size_t nearest = 0;
        float best = -1;
        for (std::size_t g = 0; g < 3; ++g) {
            const glm::vec3 want = glm::normalize(v.settings().groups[g].colour);
            const glm::vec3 seen = glm::vec3(float(c.r), float(c.g), float(c.b)) + 1e-3f;
            const float cosine = glm::dot(want, glm::normalize(seen));
            if (cosine > best) best = cosine, nearest = g;
        }
        EXPECT_GT(c.sum(), 60) << "no trail behind body " << i;
        EXPECT_EQ(nearest, group[i] % kGroupColours)
            << "body " << i << ": " << c.r << " " << c.g << " " << c.b;
    }
}
