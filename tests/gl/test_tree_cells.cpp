// The tree's cells over the bodies, off-screen: with cells on at depth 2 on a small Plummer sphere (CPU tree),
// pixels of each depth's line colour appear where the boxes' edges project, and none with cells off.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "app/viewer.hpp"
#include "gl_test_util.hpp"
#include "render/cell_renderer.hpp"

using namespace nbody;
using namespace nbody::test;

namespace {
constexpr int kW = 320, kH = 240;

// The pixel the line would make over `under`: alpha blending in display space, 8 bits a channel.
Rgb blended(const Rgb& under, const glm::vec3& c, float a) {
    auto ch = [&](int u, float v) { return int(std::lround(a * v * 255.0f + (1.0f - a) * float(u))); };
    return {ch(under.r, c.r), ch(under.g, c.g), ch(under.b, c.b)};
}

bool near_colour(const Rgb& p, const Rgb& q, int tol) {
    return std::abs(p.r - q.r) <= tol && std::abs(p.g - q.g) <= tol && std::abs(p.b - q.b) <= tol;
}

// Whether a pixel within one of (x, y) in `img` is the line colour c at opacity a over that pixel in `under`.
bool shows_line(const Image& img, const Image& under, int x, int y, const glm::vec3& c, float a) {
    for (int j = y - 1; j <= y + 1; ++j)
        for (int i = x - 1; i <= x + 1; ++i)
            if (near_colour(pixel(img, i, j), blended(pixel(under, i, j), c, a), 6)) return true;
    return false;
}

// How many drawn boxes have an edge through p (on two of their faces, within the third's extent): points on
// exactly one are drawn once, in that box's colour.
int edges_through(const std::vector<TreeCellBox>& boxes, const glm::vec3& p) {
    int count = 0;
    for (const TreeCellBox& b : boxes) {
        const glm::vec3 d = glm::abs(p - glm::vec3(b.cx, b.cy, b.cz));
        const float tol = 1e-4f * b.half;
        int on_face = 0, inside = 0;
        for (int a = 0; a < 3; ++a) on_face += std::abs(d[a] - b.half) <= tol, inside += d[a] <= b.half + tol;
        count += on_face >= 2 && inside == 3;
    }
    return count;
}
}  // namespace

TEST(TreeCells, BoxEdgesShowInTheirDepthColourOnlyWithCellsOn) {
    NBODY_HEADLESS_OR_SKIP(ctx, kW, kH);
    AppOptions o;
    o.scene_path = NBODY_SOURCE_DIR "/scenes/plummer.toml";
    o.bodies = 2000;
    o.backend = "cpu";
    o.threads = 1;
    o.method = "tree";
    o.tree_cells = 2;
    o.paused = true;
    o.width = kW, o.height = kH;
    Viewer v(o, *ctx);
    v.simulate_and_draw(0.0, 1.0);
    const std::vector<TreeCellBox> boxes = v.sim().tree_cells();
    ASSERT_GT(boxes.size(), 9u);  // the root, its children and some of theirs
    ASSERT_EQ(v.cells().boxes(), boxes.size());
    EXPECT_EQ(std::max_element(boxes.begin(), boxes.end(), [](auto& a, auto& b) { return a.depth < b.depth; })->depth, 2);
    // The whole root cube in view (a Plummer sphere's outliers make it far larger than the framed core).
    v.camera().set_target(glm::vec3(boxes[0].cx, boxes[0].cy, boxes[0].cz));
    v.camera().set_distance(5.0f * boxes[0].half);
    v.draw_only();
    const Image on = v.capture();
    v.settings().cells.on = false;
    v.draw_only();
    const Image off = v.capture();

    // Points a third of the way in from both ends of every edge of every box, where they are on screen and on one box only.
    const float a = v.settings().cells.opacity;
    int tried = 0, lit_on = 0, lit_off = 0;
    for (const TreeCellBox& b : boxes)
        for (int axis = 0; axis < 3; ++axis)
            for (int s = 0; s < 8; ++s) {
                glm::vec3 p(b.cx, b.cy, b.cz);
                const int u = (axis + 1) % 3, w = (axis + 2) % 3;
                p[axis] += (s & 4 ? 1.0f : -1.0f) * b.half / 3;
                p[u] += (s & 1 ? 1.0f : -1.0f) * b.half;
                p[w] += (s & 2 ? 1.0f : -1.0f) * b.half;
                if (edges_through(boxes, p) != 1) continue;
                const glm::vec3 q = v.camera().project(p, kW, kH);
                if (q.z <= 0 || q.x < 2 || q.y < 2 || q.x >= kW - 2 || q.y >= kH - 2) continue;
                ++tried;
                const glm::vec3 c = cell_colour(b.depth);
                lit_on += shows_line(on, off, int(q.x), int(q.y), c, a);
                lit_off += shows_line(off, off, int(q.x), int(q.y), c, a);
            }
    std::printf("edge points in the box colour: %d of %d with cells on, %d with them off\n", lit_on, tried, lit_off);
    ASSERT_GT(tried, 20);
    EXPECT_GT(lit_on, tried * 7 / 10) << lit_on << " of " << tried << " edge points in the box colour";
    EXPECT_LT(lit_off, tried / 10) << lit_off << " of " << tried << " with cells off";
}
