// The small sprites' compute pass (render/sprite_splat) against GL's points: the same picture from the same
// bodies (sizes from 1 px to the 64 px clamp, bodies behind the camera and outside the view, a hidden group),
// with the big sprites' slots overflowing, the same pixels whatever the bodies' order, and nothing from
// bodies that should add nothing. The choice of the
// path from the renderer's name and $NBODY_SPRITES.
#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>

#include "gl_test_util.hpp"
#include "render/gl_check.hpp"
#include "render/particle_renderer.hpp"
#include "render/shader.hpp"
#include "render/sprite_splat.hpp"

using namespace nbody;
using namespace nbody::test;

namespace {
constexpr int kW = 320, kH = 200;

// A cloud that gives every size of sprite: most bodies in a unit ball around the camera's target (2.6 to
// 5 px at point size 3.5), a few close to the camera (up to the 64 px clamp), some behind it and some beside
// the view. Groups 0, 1 and 2; the test hides group 2.
struct Cloud {
    std::vector<Float4> bodies;
    std::vector<uint32_t> groups;
};

Cloud cloud(const Camera& cam, std::size_t n) {
    std::mt19937 rng(7);
    std::normal_distribution<float> g(0.0f, 0.35f);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    Cloud c;
    const glm::vec3 eye = cam.eye();
    for (std::size_t i = 0; i < n; ++i) {
        glm::vec3 p(g(rng), g(rng), g(rng));
        const float pick = u(rng);
        if (pick < 0.02f)
            p = eye + (glm::vec3(0) - eye) * (0.05f + 0.3f * u(rng)) + 0.1f * p;  // near the eye
        else if (pick < 0.04f)
            p = eye + (eye - glm::vec3(0)) * u(rng) + p;  // behind it
        else if (pick < 0.06f)
            p += glm::vec3(8.0f * (u(rng) - 0.5f), 0.0f, 6.0f * (u(rng) - 0.5f));
        c.bodies.push_back({p.x, p.y, p.z, 1.0f});
        c.groups.push_back(uint32_t(i % 3));
    }
    return c;
}

struct Difference {
    int worst = 0;                // the largest channel difference, 0..255
    double mean = 0;              // mean channel difference
    double over_3 = 0;            // fraction of pixels with a channel more than 3 apart
    double lit_a = 0, lit_b = 0;  // fraction of pixels with a channel above 24
};

Difference compare(const Image& a, const Image& b) {
    Difference d;
    long long sum = 0, over = 0, lit_a = 0, lit_b = 0;
    for (int y = 0; y < kH; ++y)
        for (int x = 0; x < kW; ++x) {
            const Rgb p = pixel(a, x, y), q = pixel(b, x, y);
            const int m = std::max({std::abs(p.r - q.r), std::abs(p.g - q.g), std::abs(p.b - q.b)});
            d.worst = std::max(d.worst, m);
            sum += std::abs(p.r - q.r) + std::abs(p.g - q.g) + std::abs(p.b - q.b);
            over += m > 3;
            lit_a += std::max({p.r, p.g, p.b}) > 24;
            lit_b += std::max({q.r, q.g, q.b}) > 24;
        }
    const double px = double(kW) * kH;
    d.mean = double(sum) / (3 * px);
    d.over_3 = double(over) / px;
    d.lit_a = double(lit_a) / px, d.lit_b = double(lit_b) / px;
    return d;
}

// The same bodies drawn by GL points and by the compute pass (its big-sprite slots as given), manual exposure
// so both tone-map alike.
std::pair<Image, Image> both_ways(GlContext& ctx, const Cloud& c, RenderSettings s, std::size_t big_slots) {
    const Camera cam = front_view();
    s.auto_exposure = false;
    s.exposure = 0.5f;
    Image out[2];
    for (int way = 0; way < 2; ++way) {
        ParticleRenderer r(shader_dir());
        r.set_sprite_path(way == 0 ? SpritePath::Raster : SpritePath::Splat, big_slots);
        r.set_particle_count(c.bodies.size());
        r.set_groups(c.groups);
        r.begin_position_update(0.1);
        r.upload_positions(c.bodies.data(), c.bodies.size());
        r.end_position_update(s.trails);
        r.draw(cam, s, DepthRange{1, 5}, kW, kH, ctx.target_framebuffer());
        out[way] = read_framebuffer(ctx.target_framebuffer(), kW, kH);
        NBODY_GL(glFinish());
    }
    return {out[0], out[1]};
}

RenderSettings settings_with_a_hidden_group() {
    RenderSettings s;
    s.point_size = 3.5f;
    s.glow = 0;
    s.groups[2].visible = false;
    return s;
}

void expect_same_picture(const Image& points, const Image& splat) {
    const Difference d = compare(points, splat);
    // Points sum in the half-float target one blend at a time (rounding at each), the compute pass exactly
    // in fixed point: dense pixels may differ by a few levels, the picture not.
    EXPECT_LT(d.mean, 0.5) << "worst " << d.worst;
    EXPECT_LT(d.over_3, 0.002) << "worst " << d.worst;
    EXPECT_GT(d.lit_a, 0.02) << "too little of the frame is lit for the comparison to mean something";
    EXPECT_NEAR(d.lit_b, d.lit_a, 0.002);
}
}  // namespace

TEST(SpriteSplat, DrawsThePicturePointsDrawInComponentColours) {
    NBODY_HEADLESS_OR_SKIP(ctx, kW, kH);
    const Cloud c = cloud(front_view(), 6000);
    const auto [points, splat] = both_ways(*ctx, c, settings_with_a_hidden_group(), kBigSpriteSlots);
    expect_same_picture(points, splat);
}

TEST(SpriteSplat, DrawsThePicturePointsDrawInDepthColours) {
    NBODY_HEADLESS_OR_SKIP(ctx, kW, kH);
    const Cloud c = cloud(front_view(), 6000);
    RenderSettings s = settings_with_a_hidden_group();
    s.color_mode = ColorMode::Depth;
    const auto [points, splat] = both_ways(*ctx, c, s, kBigSpriteSlots);
    expect_same_picture(points, splat);
}

TEST(SpriteSplat, BigSpritesPastTheSlotsAreAddedByTheComputePass) {
    NBODY_HEADLESS_OR_SKIP(ctx, kW, kH);
    const Cloud c = cloud(front_view(), 6000);
    const auto [points, splat] = both_ways(*ctx, c, settings_with_a_hidden_group(), 8);
    expect_same_picture(points, splat);
}

// Integer sums: the same bodies in another order give the same pixels, big sprites included (their slots
// are taken in no fixed order). Half-float blending would round differently in each order.
TEST(SpriteSplat, ThePixelsDoNotDependOnTheBodiesOrder) {
    NBODY_HEADLESS_OR_SKIP(ctx, kW, kH);
    Cloud c = cloud(front_view(), 6000);
    RenderSettings s = settings_with_a_hidden_group();
    s.auto_exposure = false;
    Image out[2];
    for (int order = 0; order < 2; ++order) {
        if (order == 1) {
            std::mt19937 rng(11);
            for (std::size_t i = c.bodies.size() - 1; i > 0; --i) {
                const std::size_t j = std::uniform_int_distribution<std::size_t>(0, i)(rng);
                std::swap(c.bodies[i], c.bodies[j]);
                std::swap(c.groups[i], c.groups[j]);
            }
        }
        ParticleRenderer r(shader_dir());
        r.set_sprite_path(SpritePath::Splat);
        r.set_particle_count(c.bodies.size());
        r.set_groups(c.groups);
        r.upload_positions(c.bodies.data(), c.bodies.size());
        r.draw(front_view(), s, DepthRange{1, 5}, kW, kH, ctx->target_framebuffer());
        out[order] = read_framebuffer(ctx->target_framebuffer(), kW, kH);
    }
    std::size_t differ = 0;
    for (std::size_t i = 0; i < out[0].rgba.size(); ++i) differ += out[0].rgba[i] != out[1].rgba[i];
    EXPECT_EQ(differ, 0u);
    EXPECT_GT(compare(out[0], out[0]).lit_a, 0.02);
}

TEST(SpriteSplat, HiddenAndUnseenBodiesAddNothing) {
    NBODY_HEADLESS_OR_SKIP(ctx, kW, kH);
    const Camera cam = front_view();
    const glm::vec3 eye = cam.eye();
    Cloud c;
    for (int i = 0; i < 500; ++i) {
        const float t = float(i) / 500.0f;
        const glm::vec3 behind = eye + (eye - glm::vec3(0)) * (0.1f + t);  // behind the camera
        const glm::vec3 hidden(0.2f * t, 0.0f, 0.1f * t);                  // in view, group 2 hidden
        const glm::vec3 beside(40.0f + t, 0.0f, 0.0f);                     // far outside the view
        for (const glm::vec3& p : {behind, hidden, beside}) c.bodies.push_back({p.x, p.y, p.z, 1.0f});
        c.groups.insert(c.groups.end(), {0u, 2u, 1u});
    }
    RenderSettings s = settings_with_a_hidden_group();
    ParticleRenderer r(shader_dir());
    r.set_sprite_path(SpritePath::Splat);
    r.set_particle_count(c.bodies.size());
    r.set_groups(c.groups);
    r.upload_positions(c.bodies.data(), c.bodies.size());
    for (int frame = 0; frame < 2; ++frame)
        r.draw(cam, s, DepthRange{1, 5}, kW, kH, ctx->target_framebuffer());
    const Image img = read_framebuffer(ctx->target_framebuffer(), kW, kH);
    const Rgb first = pixel(img, 0, 0);
    for (int y = 0; y < kH; ++y)
        for (int x = 0; x < kW; ++x) ASSERT_EQ(pixel(img, x, y).sum(), first.sum()) << x << "," << y;
    EXPECT_LT(first.sum(), 3 * 40);  // the background
}

TEST(SpriteSplat, ThePathFollowsTheRendererAndTheEnvironment) {
    unsetenv("NBODY_SPRITES");
    EXPECT_EQ(sprite_path_for("llvmpipe (LLVM 15.0.6, 256 bits)"), SpritePath::Raster);
    EXPECT_EQ(sprite_path_for("NVIDIA H200/PCIe/SSE2"), SpritePath::Splat);
    EXPECT_EQ(sprite_path_for(nullptr), SpritePath::Splat);
    setenv("NBODY_SPRITES", "splat", 1);
    EXPECT_EQ(sprite_path_for("llvmpipe (LLVM 15.0.6, 256 bits)"), SpritePath::Splat);
    setenv("NBODY_SPRITES", "raster", 1);
    EXPECT_EQ(sprite_path_for("NVIDIA H200/PCIe/SSE2"), SpritePath::Raster);
    unsetenv("NBODY_SPRITES");
}
