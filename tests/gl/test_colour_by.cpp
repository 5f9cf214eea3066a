// Colour by density and by potential, off-screen: a cluster with a dense core inside a sparse halo is drawn
// with the core's bodies near the top of the colour ramp and the halo's near its bottom, by potential both
// through the exact sum and through the tree's estimate above it; potential colouring without values (too
// many bodies even for the tree) says why and draws nothing by potential.
#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "app/potential_feed.hpp"
#include "gl_test_util.hpp"
#include "render/gl_check.hpp"
#include "render/particle_renderer.hpp"
#include "render/shader.hpp"

using namespace nbody;
using namespace nbody::test;

namespace {
constexpr int kW = 200, kH = 200;

// `half` bodies within 0.08 of the centre and `half` spread through a sphere of radius 1, all of one mass:
// the core is hundreds of times denser and sits deeper in the potential.
std::vector<Float4> core_and_halo(int half = 1500) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<Float4> b;
    for (float radius : {0.08f, 1.0f})
        for (int i = 0; i < half;) {
            const glm::vec3 p(u(rng), u(rng), u(rng));
            if (glm::dot(p, p) > 1.0f) continue;
            b.push_back({radius * p.x, radius * p.y, radius * p.z, 1.0f / float(2 * half)});
            ++i;
        }
    return b;
}

// Where on the ramp (0 bottom .. 1 top) a drawn colour sits: the ramp entry whose hue, scaled as the tone map
// scales a colour (to its brightest channel, then a 1/2.2 power), is nearest. Brightness is left out, since a
// dense region is brighter in every mode.
float ramp_position(const ColormapTable& ramp, Rgb c) {
    const float m = float(std::max({c.r, c.g, c.b, 1}));
    const glm::vec3 hue(float(c.r) / m, float(c.g) / m, float(c.b) / m);
    float best = 1e9f, at = 0;
    for (int i = 0; i < kColormapSize; ++i) {
        const glm::vec3 e = ramp[std::size_t(i)];
        const float em = std::max({e.x, e.y, e.z});
        const glm::vec3 h = glm::pow(e / em, glm::vec3(1.0f / 2.2f));
        const float d = glm::dot(h - hue, h - hue);
        if (d < best) best = d, at = float(i) / float(kColormapSize - 1);
    }
    return at;
}

// The mean ramp position of the lit pixels within [r0, r1) pixels of the image's centre.
float mean_position(const Image& img, const ColormapTable& ramp, float r0, float r1, int bg) {
    double sum = 0;
    int count = 0;
    for (int y = 0; y < kH; ++y)
        for (int x = 0; x < kW; ++x) {
            const float r = std::hypot(float(x) - kW / 2.0f, float(y) - kH / 2.0f);
            const Rgb p = pixel(img, x, y);
            if (r < r0 || r >= r1 || p.sum() < bg + 60) continue;
            sum += ramp_position(ramp, p);
            ++count;
        }
    return count ? float(sum / count) : -1.0f;
}

struct Drawn {
    Image img;
    float centre = 0, rim = 0;
};

// A fixed exposure that keeps the core below the tone map's shoulder, where the brightest light whitens (as a
// photograph's core does) and its hue would no longer say where on the ramp it is.
RenderSettings settings(ColorMode mode) {
    RenderSettings s;
    s.point_size = 3;
    s.color_mode = mode;
    s.auto_exposure = false;
    s.exposure = 1e-4f;
    s.glow = 0;
    return s;
}

Drawn draw_cluster(GlContext& ctx, ParticleRenderer& r, const RenderSettings& s) {
    Camera cam;
    cam.frame_all(glm::vec3(0), 1.0f);
    r.draw(cam, s, DepthRange{0, 10}, kW, kH, ctx.target_framebuffer());
    Drawn d{read_framebuffer(ctx.target_framebuffer(), kW, kH)};
    const int bg = pixel(d.img, 1, 1).sum();
    const glm::vec3 edge = cam.project(glm::vec3(0.3f, 0, 0), kW, kH);
    const float core_px = std::abs(edge.x - kW / 2.0f) * 0.08f / 0.3f;
    d.centre = mean_position(d.img, r.colormap().table, 0, core_px, bg);
    d.rim = mean_position(d.img, r.colormap().table, 4 * core_px, float(kW), bg);
    return d;
}

ParticleRenderer& cluster_renderer(ParticleRenderer& r, const std::vector<Float4>& b) {
    r.set_particle_count(b.size());
    r.set_groups(std::vector<uint32_t>(b.size(), 0));
    r.upload_positions(b.data(), b.size());
    r.set_scene_scale(1.0, 1.0f);
    return r;
}
}  // namespace

TEST(ColourBy, DensityPutsTheDenseCoreAtTheTopOfTheRamp) {
    NBODY_HEADLESS_OR_SKIP(ctx, kW, kH);
    ParticleRenderer r(shader_dir());
    cluster_renderer(r, core_and_halo());
    const Drawn d = draw_cluster(*ctx, r, settings(ColorMode::Density));
    NBODY_GL(glFinish());
    // The core is (1 / 0.08)^3 ~ 2,000 times denser than the halo; cells about as wide as the core smooth it
    // out, but the range still spans more than a decade.
    const ValueRange range = r.density_log_range();
    ASSERT_TRUE(range.valid);
    EXPECT_GT(range.hi - range.lo, 1.0) << range.lo << " .. " << range.hi;
    EXPECT_GT(d.centre, 0.7f) << "rim " << d.rim;
    EXPECT_LT(d.rim, 0.45f) << "centre " << d.centre;
    EXPECT_GT(d.centre, d.rim + 0.3f);
    std::printf("ramp position, centre %.2f rim %.2f\n", d.centre, d.rim);
}

namespace {
// The feed's first values drawn: the core's bodies near the top of the ramp, the halo's well below; the note
// says `method` ("exact", "tree estimate").
void expect_deep_centre_on_top(GlContext& ctx, ParticleRenderer& r, PotentialFeed& feed,
                               const std::string& method) {
    SimParams p;
    p.eps = 0.01;
    feed.update(r, p, 0.0, true, true);  // the first values are waited for
    ASSERT_TRUE(r.has_body_scalars()) << feed.note();
    EXPECT_LT(r.body_scalar_range().lo, r.body_scalar_range().hi);
    EXPECT_NE(feed.note().find(method), std::string::npos) << feed.note();
    // The next sum waits a second, and four times the last sum's duration: at most a quarter of the cores.
    EXPECT_FALSE(feed.summing());
    const double due =
        std::max(PotentialFeed::kInterval, PotentialFeed::kDutyFactor * feed.last_sum_seconds());
    feed.update(r, p, 0.9 * due, true, false);
    EXPECT_FALSE(feed.summing());
    feed.update(r, p, 1.01 * due, true, false);
    EXPECT_TRUE(feed.summing());
    feed.finish(r);
    RenderSettings s = settings(ColorMode::Potential);
    const Drawn d = draw_cluster(ctx, r, s);
    EXPECT_GT(d.centre, 0.7f) << "rim " << d.rim;
    EXPECT_GT(d.centre, d.rim + 0.3f);
    std::printf("%s: ramp position, centre %.2f rim %.2f (%zu bodies, %.3f s a sum)\n", method.c_str(),
                d.centre, d.rim, r.particle_count(), feed.last_sum_seconds());
    // Component colouring of the same bodies has no such gradient: the test reads colour, not brightness.
    s.color_mode = ColorMode::Group;
    const Drawn g = draw_cluster(ctx, r, s);
    EXPECT_LT(std::abs(g.centre - g.rim), 0.2f) << g.centre << " vs " << g.rim;
    feed.forget();
}
}  // namespace

TEST(ColourBy, PotentialPutsTheDeepCentreAtTheTopOfTheRamp) {
    NBODY_HEADLESS_OR_SKIP(ctx, kW, kH);
    ParticleRenderer r(shader_dir());
    cluster_renderer(r, core_and_halo());
    PotentialFeed feed;
    expect_deep_centre_on_top(*ctx, r, feed, "exact");
}

// Above the exact sum's limit the tree's estimate draws the same picture.
TEST(ColourBy, PotentialAboveTheExactLimitIsTheTreeEstimate) {
    NBODY_HEADLESS_OR_SKIP(ctx, kW, kH);
    ParticleRenderer r(shader_dir());
    cluster_renderer(r, core_and_halo(int(PotentialFeed::kExactMax / 2) + 500));
    ASSERT_GT(r.particle_count(), PotentialFeed::kExactMax);
    PotentialFeed feed;
    expect_deep_centre_on_top(*ctx, r, feed, "tree estimate");
}

TEST(ColourBy, PotentialAboveTheTreeLimitSaysWhyAndShowsNone) {
    NBODY_HEADLESS_OR_SKIP(ctx, kW, kH);
    ParticleRenderer r(shader_dir());
    const std::vector<Float4> many(PotentialFeed::kTreeMax + 1, Float4{0.1f, 0.2f, 0.3f, 1e-5f});
    cluster_renderer(r, many);
    PotentialFeed feed;
    feed.update(r, SimParams{}, 0.0, true, true);
    EXPECT_FALSE(r.has_body_scalars());
    EXPECT_NE(feed.note().find("not shown"), std::string::npos) << feed.note();
    EXPECT_NE(feed.note().find(std::to_string(PotentialFeed::kTreeMax + 1)), std::string::npos)
        << feed.note();
}

// A body the tree cannot place (a blown-up run's NaN) leaves the others in component colours, and the note
// names it rather than the picture showing nothing without a word.
TEST(ColourBy, PotentialOfBodiesTheTreeRefusesSaysWhy) {
    NBODY_HEADLESS_OR_SKIP(ctx, kW, kH);
    ParticleRenderer r(shader_dir());
    std::vector<Float4> b = core_and_halo(int(PotentialFeed::kExactMax / 2) + 500);
    b[1234].y = NAN;
    cluster_renderer(r, b);
    PotentialFeed feed;
    feed.update(r, SimParams{}, 0.0, true, true);
    EXPECT_FALSE(r.has_body_scalars());
    feed.update(r, SimParams{}, 0.5, true, false);
    EXPECT_FALSE(feed.summing());  // no new refresh every frame: the pace holds
    EXPECT_NE(feed.note().find("not shown: tree: body 1234"), std::string::npos) << feed.note();
}

// Few-body scenes (two-body, figure-eight) draw each body at least kFewBodySpritePx across; a galaxy keeps
// the one-pixel floor.
TEST(FewBodies, EachBodyIsDrawnLargeEnoughToSee) {
    NBODY_HEADLESS_OR_SKIP(ctx, kW, kH);
    EXPECT_EQ(few_body_sprite_px(3), kFewBodySpritePx);
    EXPECT_EQ(few_body_sprite_px(kFewBodies), kFewBodySpritePx);
    EXPECT_EQ(few_body_sprite_px(kFewBodies + 1), 1.0f);
    ParticleRenderer r(shader_dir());
    const std::vector<Float4> three = {{-0.5f, 0, 0, 1}, {0, 0.3f, 0, 1}, {0.5f, 0, 0, 1}};
    cluster_renderer(r, three);
    Camera cam;
    cam.frame_all(glm::vec3(0), 1.0f);
    auto lit_pixels = [&](float min_px) {
        RenderSettings s;
        s.point_size = 1;  // a far view: the sprites would be a pixel wide
        s.min_sprite_px = min_px;
        r.draw(cam, s, DepthRange{0, 10}, kW, kH, ctx->target_framebuffer());
        const Image img = read_framebuffer(ctx->target_framebuffer(), kW, kH);
        const int bg = pixel(img, 1, 1).sum();
        int lit = 0;
        for (int y = 0; y < kH; ++y)
            for (int x = 0; x < kW; ++x) lit += pixel(img, x, y).sum() > bg + 60;
        return lit;
    };
    const int plain = lit_pixels(1.0f), floored = lit_pixels(few_body_sprite_px(three.size()));
    std::printf("lit pixels: %d plain, %d with the floor\n", plain, floored);
    EXPECT_GE(floored, 3 * 20) << "plain " << plain;  // each body a disc of 20 pixels or more
    EXPECT_GT(floored, 4 * plain);
}
