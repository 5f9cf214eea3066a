// Every shipped scene (scenes/*.toml) loads and draws one frame off-screen, and the picture shows its
// components: each colour group's bodies, projected with the viewer's camera, land on pixels whose hue is
// that group's colour (src/render/colormap.cpp group_colour) more than any other group's; a colour swap, a
// wrong projection or bodies not drawn fail it (a single-pixel check of 'something is lit' did not). Paused
// and at 4096 bodies, so the CPU-only CI machine does not evaluate 131,072^2 forces; the gpu-labelled test
// runs them at full size.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <vector>

#include "app/viewer.hpp"
#include "gl_test_util.hpp"
#include "render/colormap.hpp"

using namespace nbody;
using namespace nbody::test;

namespace {
constexpr int kW = 320, kH = 240;

// The light a pixel received, up to a factor, undoing the tone map (shaders/tonemap.frag: the background
// blend, and the hue scaled as a whole by the stretch and shown with gamma 2.2), so that colours compare as
// the renderer added them. Below the curve's whitening (t < 0.75) the hue is exact. Saturated channels cap.
glm::vec3 light_of(const Rgb& c, const RenderSettings& s) {
    const float v[3] = {float(c.r), float(c.g), float(c.b)};
    glm::vec3 out;
    for (int i = 0; i < 3; ++i) {
        const float bg = std::pow(s.background[i], 1 / 2.2f);
        out[i] = std::pow(std::clamp((v[i] / 255.0f - bg) / (1.0f - bg), 0.0f, 1.0f), 2.2f);
    }
    return out;
}

// Cosine between two colours as directions in RGB: 1 for the same hue and saturation at any brightness.
double colour_cosine(const glm::vec3& a, const glm::vec3& b) {
    const float na = glm::length(a), nb = glm::length(b);
    return na > 0 && nb > 0 ? double(glm::dot(a, b) / (na * nb)) : 0.0;
}

struct GroupCount {
    int in_view = 0;  // bodies projected inside the image, in front of the eye
    int lit = 0;      // ... on a pixel brighter than the background
    int graded = 0;   // ... where this group draws most of the bodies and the pixel is not saturated
    int own_hue = 0;  // ... whose colour is nearer this group's than any other group's in the scene
};

// How many bodies of each group draw on each pixel: every projected body marks the box its sprite covers.
class Coverage {
  public:
    Coverage(const Camera& cam, const State& s, int radius, uint32_t groups)
        : m_groups(groups), m_count(std::size_t(kW) * kH * groups, 0) {
        for (std::size_t i = 0; i < s.size(); ++i) {
            const Double4& p = s.pos_mass[i];
            const glm::vec3 q = cam.project(glm::vec3(float(p.x), float(p.y), float(p.z)), kW, kH);
            if (q.z <= 0) continue;
            for (int y = int(q.y) - radius; y <= int(q.y) + radius; ++y)
                for (int x = int(q.x) - radius; x <= int(q.x) + radius; ++x)
                    if (x >= 0 && y >= 0 && x < kW && y < kH) ++m_count[index(x, y) + s.group[i]];
        }
    }
    // The share of the bodies drawing on (x, y) that belong to group g.
    double share(int x, int y, uint32_t g) const {
        int all = 0;
        for (uint32_t h = 0; h < m_groups; ++h) all += m_count[index(x, y) + h];
        return all ? double(m_count[index(x, y) + g]) / all : 0.0;
    }

  private:
    std::size_t index(int x, int y) const { return (std::size_t(y) * kW + std::size_t(x)) * m_groups; }
    uint32_t m_groups;
    std::vector<int> m_count;
};

// Up to `per_group` bodies of each group, spread over its index range, sampled in the image.
std::map<uint32_t, GroupCount> sample_groups(const Image& img, const Camera& cam, const RenderSettings& rs,
                                             const State& s, int per_group) {
    std::map<uint32_t, std::vector<std::size_t>> members;
    for (std::size_t i = 0; i < s.size(); ++i) members[s.group[i]].push_back(i);
    const Coverage cover(cam, s, int(rs.point_size / 2) + 1, members.rbegin()->first + 1);
    const int bg = pixel(img, 0, 0).sum();
    std::map<uint32_t, GroupCount> out;
    for (const auto& [g, idx] : members) {
        GroupCount& c = out[g];
        const std::size_t stride = std::max<std::size_t>(1, idx.size() / std::size_t(per_group));
        for (std::size_t k = 0; k < idx.size(); k += stride) {
            const Double4& p = s.pos_mass[idx[k]];
            const glm::vec3 q = cam.project(glm::vec3(float(p.x), float(p.y), float(p.z)), kW, kH);
            if (q.z <= 0 || q.x < 1 || q.y < 1 || q.x >= kW - 1 || q.y >= kH - 1) continue;
            ++c.in_view;
            if (brightest_near(img, int(q.x), int(q.y), 1).sum() <= bg + 24) continue;
            ++c.lit;
            // Graded where this group draws most of the light (a disk inside its halo: other groups' light
            // mixes in) and the pixel kept its hue (a saturated core is white).
            const Rgb px = pixel(img, int(q.x), int(q.y));
            if (cover.share(int(q.x), int(q.y), g) < 0.6) continue;
            if (std::max({px.r, px.g, px.b}) >= 250 || px.sum() <= bg + 24) continue;
            ++c.graded;
            const glm::vec3 light = light_of(px, rs);
            const double own = colour_cosine(light, group_colour(g));
            bool nearest = true;
            for (const auto& [other, unused] : members)
                nearest = nearest && (other == g || colour_cosine(light, group_colour(other)) < own);
            c.own_hue += nearest;
        }
    }
    return out;
}
}  // namespace

TEST(Scenes, EveryShippedSceneShowsEachComponentInItsColourWhereItsBodiesAre) {
    NBODY_HEADLESS_OR_SKIP(ctx, kW, kH);
    int scenes = 0;
    for (const auto& f : std::filesystem::directory_iterator(NBODY_SOURCE_DIR "/scenes")) {
        if (f.path().extension() != ".toml") continue;
        SCOPED_TRACE(f.path().filename().string());
        AppOptions o;
        o.scene_path = f.path().string();
        o.backend = "cpu";
        o.paused = true;
        o.bodies = 4096;
        o.width = kW, o.height = kH;
        Viewer v(o, *ctx);
        v.settings().orbit_guides = false;  // the figure-eights' guide is drawn over their bodies: their own colours
        v.simulate_and_draw(0.0, 1.0);
        // A fixed exposure that puts white far above any core, and no glow: the curve keeps each pixel's hue
        // (it whitens only near white) and each pixel holds only its sprites' light.
        // Dark matter at full light: a group's hue is checked where its bodies are most of those drawn.
        v.settings().show_dark_matter = true;
        v.settings().auto_exposure = false;
        v.settings().exposure = 0.001f;
        v.settings().glow = 0;
        v.draw_only();
        const Image img = v.capture();
        const auto groups = sample_groups(img, v.camera(), v.settings(), v.sim().initial_state(), 200);
        int shown = 0;
        for (const auto& [g, c] : groups) {
            if (c.in_view == 0) continue;  // a component outside the starting view (the cartwheel's intruder)
            ++shown;
            SCOPED_TRACE("group " + std::to_string(g) + ": " + std::to_string(c.in_view) +
                         " bodies in view, " + std::to_string(c.lit) + " lit, " + std::to_string(c.graded) +
                         " graded, " + std::to_string(c.own_hue) + " in its own colour");
            EXPECT_GE(c.lit, 0.95 * c.in_view) << "bodies where the camera puts them are not drawn";
            EXPECT_GE(c.graded, std::min(c.in_view, 10))
                << "too few pixels where this group's colour can be read";
            EXPECT_GE(c.own_hue, 0.9 * c.graded) << "the group's bodies are not drawn in its colour";
        }
        EXPECT_GE(shown, 1) << "no component in view";
        ++scenes;
    }
    EXPECT_GE(scenes, 1);
}
