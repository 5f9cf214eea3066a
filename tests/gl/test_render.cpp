// The particle renderer off-screen: known bodies appear where the camera projects them, an empty scene is
// background only, groups get distinct colours, and a broken shader reports file and line.
#include <glad/gl.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "gl_test_util.hpp"
#include "render/assets.hpp"
#include "render/gl_check.hpp"
#include "render/particle_renderer.hpp"
#include "render/shader.hpp"

using namespace nbody;
using namespace nbody::test;

namespace {
constexpr int kW = 160, kH = 120;

Image render(GlContext& ctx, ParticleRenderer& r, const Camera& cam, const RenderSettings& s) {
    r.draw(cam, s, DepthRange{0, 10}, kW, kH, ctx.target_framebuffer());
    return read_framebuffer(ctx.target_framebuffer(), kW, kH);
}

}  // namespace

TEST(Render, EmptySceneIsBackgroundOnly) {
    NBODY_HEADLESS_OR_SKIP(ctx, kW, kH);
    ParticleRenderer r(shader_dir());
    r.set_particle_count(0);
    RenderSettings s;
    const Image img = render(*ctx, r, front_view(), s);
    const Rgb first = pixel(img, 0, 0);
    for (int y = 0; y < kH; y += 7)
        for (int x = 0; x < kW; x += 7) {
            const Rgb p = pixel(img, x, y);
            ASSERT_EQ(p.r, first.r);
            ASSERT_EQ(p.g, first.g);
            ASSERT_EQ(p.b, first.b);
        }
    EXPECT_LT(first.sum(), 3 * 40);  // near black
}

TEST(Render, BodiesAppearWhereTheCameraProjectsThem) {
    NBODY_HEADLESS_OR_SKIP(ctx, kW, kH);
    ParticleRenderer r(shader_dir());
    const std::vector<Float4> bodies = {{0.5f, 0.3f, 0.0f, 1.0f}, {-0.6f, -0.2f, 0.1f, 1.0f}};
    r.set_particle_count(bodies.size());
    r.set_groups({0, 0});
    r.upload_positions(bodies.data(), bodies.size());
    RenderSettings s;
    s.point_size = 6;
    const Camera cam = front_view();
    const Image img = render(*ctx, r, cam, s);
    const int bg = pixel(img, 2, 2).sum();
    for (const Float4& b : bodies) {
        const glm::vec3 p = cam.project(glm::vec3(b.x, b.y, b.z), kW, kH);
        ASSERT_GT(p.z, 0.0f);
        EXPECT_GT(brightest_near(img, int(p.x), int(p.y), 2).sum(), bg + 60)
            << "no body at " << p.x << "," << p.y;
    }
    // Halfway between the two, nothing.
    EXPECT_LE(pixel(img, kW / 2, kH / 2).sum(), bg + 3);
    NBODY_GL(glFinish());
}

TEST(Render, GroupsGetDistinctColours) {
    NBODY_HEADLESS_OR_SKIP(ctx, kW, kH);
    ParticleRenderer r(shader_dir());
    const std::vector<Float4> bodies = {{-0.5f, 0, 0, 1}, {0.5f, 0, 0, 1}};
    r.set_particle_count(2);
    r.set_groups({0, 1});
    r.upload_positions(bodies.data(), 2);
    RenderSettings s;
    s.point_size = 8;
    s.color_mode = ColorMode::Group;
    const Camera cam = front_view();
    const Image img = render(*ctx, r, cam, s);
    const glm::vec3 a = cam.project(glm::vec3(-0.5f, 0, 0), kW, kH),
                    b = cam.project(glm::vec3(0.5f, 0, 0), kW, kH);
    const Rgb ca = brightest_near(img, int(a.x), int(a.y), 2),
              cb = brightest_near(img, int(b.x), int(b.y), 2);
    // Group 0 is blue-dominant, group 1 orange (red-dominant): the colours differ in hue, not just level.
    EXPECT_GT(ca.b, ca.r);
    EXPECT_GT(cb.r, cb.b);
}

namespace {
// The shaders' folder copied with `file` replaced by `text`; the renderer made from it must fail naming
// `expected` (file:line).
void expect_compile_error(const char* file, const std::string& text, const std::string& expected) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("nbody-shaders-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    for (const char* f :
         {"particles.vert", "particles.frag", "sprite_light.glsl", "fullscreen.vert", "tonemap.frag"})
        fs::copy_file(fs::path(shader_dir()) / f, dir / f, fs::copy_options::overwrite_existing);
    std::ofstream(dir / file) << text;
    try {
        ParticleRenderer r(dir.string());
        ADD_FAILURE() << file << " with an undefined name compiled";
    } catch (const GlError& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find(expected), std::string::npos) << msg;
    }
    fs::remove_all(dir);
}
}  // namespace

TEST(Render, ABrokenShaderNamesFileAndLine) {
    NBODY_HEADLESS_OR_SKIP(ctx, kW, kH);
    expect_compile_error("particles.frag",
                         "#version 450 core\nout vec4 frag;\nvoid main() {\n  frag = oops;\n}\n",
                         "particles.frag:4");
}

TEST(Render, AnErrorInAnIncludedShaderFileNamesThatFileAndLine) {
    NBODY_HEADLESS_OR_SKIP(ctx, kW, kH);
    std::ifstream good(std::filesystem::path(shader_dir()) / "sprite_light.glsl");
    const std::string text((std::istreambuf_iterator<char>(good)), std::istreambuf_iterator<char>());
    expect_compile_error("sprite_light.glsl", "// one\n// two\nfloat broken = oops;\n" + text,
                         "sprite_light.glsl:3");
}

TEST(Render, AMissingShaderFileSaysWhich) {
    NBODY_HEADLESS_OR_SKIP(ctx, kW, kH);
    try {
        ParticleRenderer r("/nonexistent-shader-dir");
        FAIL() << "no error for a missing shader";
    } catch (const GlError& e) {
        EXPECT_NE(std::string(e.what()).find("particles.vert"), std::string::npos) << e.what();
    }
}

// assets/icon.png (made by tools/make_icon.py) is found where the program looks and decodes as the 64 x 64
// RGBA icon the window sets; a missing file is reported with its path, not a crash.
TEST(Assets, WindowIconIsFoundAndDecodes) {
    std::string why;
    const nbody::RgbaImage icon = nbody::load_rgba(nbody::asset_dir() + "/icon.png", &why);
    ASSERT_EQ(icon.width, 64) << why;
    EXPECT_EQ(icon.height, 64);
    ASSERT_EQ(icon.pixels.size(), 64u * 64u * 4u);
    EXPECT_GT(icon.pixels[(32 * 64 + 32) * 4 + 3], 200);  // the bright bulge in the middle is opaque
    EXPECT_EQ(icon.pixels[3], 0);                         // the corner is transparent
    const nbody::RgbaImage missing = nbody::load_rgba("/nonexistent/icon.png", &why);
    EXPECT_EQ(missing.width, 0);
    EXPECT_NE(why.find("/nonexistent/icon.png"), std::string::npos);
}

// The speed and depth ramp comes from assets/colormaps/<name>.txt, switched by RenderSettings::colormap; a
// name with no file keeps drawing with the built-in ramp and says why.
TEST(Render, TheColourMapComesFromTheAssetFilesAndFallsBack) {
    NBODY_HEADLESS_OR_SKIP(ctx, kW, kH);
    ParticleRenderer r(shader_dir());
    EXPECT_NE(r.colormap().source.find("colormaps/ember.txt"), std::string::npos) << r.colormap().error;
    const std::vector<Float4> bodies = {{0.0f, 0.0f, 0.0f, 1.0f}};
    r.set_particle_count(bodies.size());
    r.set_groups({0});
    r.upload_positions(bodies.data(), bodies.size());
    RenderSettings s;
    s.point_size = 8;
    s.color_mode = ColorMode::Depth;
    const Image ember = render(*ctx, r, front_view(), s);
    s.colormap = "ice";
    const Image ice = render(*ctx, r, front_view(), s);
    EXPECT_NE(r.colormap().source.find("colormaps/ice.txt"), std::string::npos) << r.colormap().error;
    const Rgb a = brightest_near(ember, kW / 2, kH / 2, 3), b = brightest_near(ice, kW / 2, kH / 2, 3);
    EXPECT_GT(a.sum(), 0);
    EXPECT_NE(a.r - a.b, b.r - b.b) << "the same colour from both maps";
    s.colormap = "no-such-map";
    render(*ctx, r, front_view(), s);
    EXPECT_EQ(r.colormap().source, "built-in");
    EXPECT_NE(r.colormap().error.find("no-such-map.txt: cannot read"), std::string::npos)
        << r.colormap().error;
}
