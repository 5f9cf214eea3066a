// Trails off-screen: a body that moved leaves lit pixels along its past path with trails on and
// none with them off; a change of N, a rewind and turning trails off clear the ring; a broken trail shader
// names its file and line.
#include <glad/gl.h>

#include <filesystem>
#include <fstream>
#include <memory>

#include "app/viewer.hpp"
#include "gl_test_util.hpp"
#include "render/gl_check.hpp"
#include "render/particle_renderer.hpp"
#include "render/shader.hpp"

using namespace nbody;
using namespace nbody::test;

namespace {
constexpr int kW = 160, kH = 120;

// A renderer for one body of group 0.
std::unique_ptr<ParticleRenderer> one_body_renderer() {
    auto r = std::make_unique<ParticleRenderer>(shader_dir());
    r->set_particle_count(1);
    r->set_groups({0});
    return r;
}

// One body from x = -0.7 to x = +0.7 at z = 0.3 in `updates` position updates of 0.01 time units each.
void move_one_body(ParticleRenderer& r, const TrailSettings& t, int updates) {
    for (int k = 0; k <= updates; ++k) {
        const Float4 p{-0.7f + 1.4f * float(k) / float(updates), 0.0f, 0.3f, 1.0f};
        r.begin_position_update(k == 0 ? 0.0 : 0.01);
        r.upload_positions(&p, 1);
        r.end_position_update(t);
    }
}

Image render(GlContext& ctx, ParticleRenderer& r, const RenderSettings& s) {
    r.draw(front_view(), s, DepthRange{0, 10}, kW, kH, ctx.target_framebuffer());
    return read_framebuffer(ctx.target_framebuffer(), kW, kH);
}

// The brightest pixel sum near the body's path at x, off the current position (x = 0.7).
int path_light(const Image& img, float x) {
    const glm::vec3 p = front_view().project(glm::vec3(x, 0.0f, 0.3f), kW, kH);
    return brightest_near(img, int(p.x), int(p.y), 1).sum();
}
}  // namespace

TEST(Trails, AMovedBodyLeavesLitPixelsAlongItsPathOnlyWithTrailsOn) {
    NBODY_HEADLESS_OR_SKIP(ctx, kW, kH);
    auto trailed = one_body_renderer();
    ParticleRenderer& r = *trailed;
    RenderSettings s;
    s.point_size = 4;
    s.trails.on = true;
    s.trails.stride = 1;
    move_one_body(r, s.trails, 40);
    EXPECT_EQ(r.trails().ring().count(), 41);
    const Image on = render(*ctx, r, s);
    const int bg = pixel(on, 2, 2).sum();
    for (float x : {-0.5f, -0.2f, 0.0f, 0.3f})
        EXPECT_GT(path_light(on, x), bg + 30) << "no trail at x = " << x;
    EXPECT_LE(path_light(on, -0.3f) - bg, path_light(on, 0.3f) - bg + 3);  // older is fainter
    // Above the path, nothing.
    const glm::vec3 above = front_view().project(glm::vec3(0.0f, 0.0f, 0.7f), kW, kH);
    EXPECT_LE(pixel(on, int(above.x), int(above.y)).sum(), bg + 3);

    s.trails.on = false;
    auto plain = one_body_renderer();
    move_one_body(*plain, s.trails, 40);
    const Image off = render(*ctx, *plain, s);
    for (float x : {-0.5f, -0.2f, 0.0f, 0.3f}) EXPECT_LE(path_light(off, x), bg + 3) << "light at x = " << x;
    EXPECT_GT(path_light(off, 0.7f), bg + 60);  // the body itself
    NBODY_GL(glFinish());
}

TEST(Trails, NChangeRewindAndOffClearTheRing) {
    NBODY_HEADLESS_OR_SKIP(ctx, kW, kH);
    auto owner = one_body_renderer();
    ParticleRenderer& r = *owner;
    RenderSettings s;
    s.trails = {true, 64, 2, 0.35f};
    move_one_body(r, s.trails, 20);  // 21 updates, every second sampled
    EXPECT_EQ(r.trails().ring().count(), 11);
    EXPECT_EQ(r.trails().bytes(), std::size_t(64 * 16));

    r.set_particle_count(3);  // a new scene's N
    EXPECT_EQ(r.trails().ring().count(), 0);
    const Image img = render(*ctx, r, s);
    const int bg = pixel(img, 2, 2).sum();
    EXPECT_LE(path_light(img, -0.3f), bg + 3);  // nothing of the old trail drawn
    const std::vector<Float4> three(3, Float4{0.0f, 0.0f, 0.0f, 1.0f});
    r.set_groups({0, 1, 2});
    r.begin_position_update(0.01);
    r.upload_positions(three.data(), 3);
    r.end_position_update(s.trails);
    EXPECT_EQ(r.trails().ring().count(), 1);
    EXPECT_EQ(r.trails().bytes(), std::size_t(3 * 64 * 16));  // re-created for the new N

    r.begin_position_update(-0.5);  // a rewind: time went back
    r.upload_positions(three.data(), 3);
    r.end_position_update(s.trails);
    EXPECT_EQ(r.trails().ring().count(), 1);  // cleared, then the restored positions sampled

    s.trails.on = false;
    r.end_position_update(s.trails);
    EXPECT_EQ(r.trails().bytes(), 0u);  // off frees the ring
}

TEST(Trails, ABrokenTrailShaderNamesFileAndLine) {
    NBODY_HEADLESS_OR_SKIP(ctx, kW, kH);
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("nbody-trail-shaders-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    for (const auto& f : fs::directory_iterator(shader_dir()))  // the drawing shaders (compute/ is a folder)
        if (f.is_regular_file())
            fs::copy_file(f.path(), dir / f.path().filename(), fs::copy_options::overwrite_existing);
    std::ofstream(dir / "trails.frag")
        << "#version 450 core\nin vec3 v_colour;\nout vec4 frag;\nvoid main() {\n"
           "  frag = vec4(v_colour, nope);\n}\n";
    try {
        ParticleRenderer r(dir.string());
        FAIL() << "a trail shader with an undefined name compiled";
    } catch (const GlError& e) {
        EXPECT_NE(std::string(e.what()).find("trails.frag:5"), std::string::npos) << e.what();
    }
    fs::remove_all(dir);
}

// The whole window path off-screen: samples while running, none while paused, cleared by a rewind through the
// timeline (then the restored positions start a new trail) and by a reset; the off-screen program has no
// timeline.
TEST(Trails, ViewerSamplesWhileRunningAndClearsOnRewindAndReset) {
    NBODY_HEADLESS_OR_SKIP(ctx, 64, 48);
    AppOptions o;
    o.scene_path = NBODY_TEST_DATA "/two_clusters.toml";
    o.bodies = 200;
    o.backend = "cpu";
    o.threads = 1;
    o.trails = 32;
    o.steps_per_frame = 1;
    Viewer v(o, *ctx);
    EXPECT_TRUE(v.settings().trails.on);
    EXPECT_EQ(v.settings().trails.length, 32);
    v.settings().trails.stride = 1;
    for (int f = 0; f < 10; ++f) v.simulate_and_draw(0.0, 1.0);
    EXPECT_EQ(v.trails().ring().count(), 10);
    EXPECT_EQ(v.trails().bytes(), std::size_t(200 * 32 * 16));
    v.sim().set_paused(true);
    for (int f = 0; f < 5; ++f) v.simulate_and_draw(0.0, 1.0);
    EXPECT_EQ(v.trails().ring().count(), 10);  // paused: no new samples
    ASSERT_GT(v.sim().rewind().size(), 0);
    ASSERT_TRUE(v.sim().scrub_to(0.0));  // what dragging the timeline to its start does
    v.simulate_and_draw(0.0, 1.0);
    EXPECT_EQ(v.trails().ring().count(), 1);
    v.sim().set_paused(false);
    for (int f = 0; f < 3; ++f) v.simulate_and_draw(0.0, 1.0);
    EXPECT_EQ(v.trails().ring().count(), 4);
    v.reset();
    EXPECT_EQ(v.trails().ring().count(), 0);

    o.headless = true;
    Viewer off(o, *ctx);
    EXPECT_EQ(off.sim().rewind().capacity(), 0);
}
