// Surface density maps (scene/analysis.hpp), what nbody-scene-metrics compares two runs' tidal structure by:
// bodies land in the pixel under them (outside and non-finite ones left out), and the comparison counts the
// mass that moved and the log ratio where there is mass.
#include <gtest/gtest.h>

#include <cmath>

#include "core/errors.hpp"
#include "scene/analysis.hpp"

using namespace nbody;

namespace {
State bodies(std::initializer_list<Double4> p) {
    State s;
    s.resize(p.size());
    std::size_t i = 0;
    for (const Double4& b : p) s.pos_mass[i++] = b;
    return s;
}
}  // namespace

TEST(SurfaceMap, BodiesLandInThePixelUnderThem) {
    // 4 x 4 pixels of 1 on [-2, 2)^2 about (10, 0): x = 10.5 is column 2, y = -1.5 row 0.
    const State s = bodies({{10.5, -1.5, 7, 2}, {10.5, -1.2, -3, 1}, {8.0, 1.99, 0, 4}, {12.0, 0, 0, 8},
                            {NAN, 0, 0, 16}, {10, 0, 0, 32}});
    const SurfaceMap m = surface_map(s, {10, 0, 0}, 2, 4);
    ASSERT_EQ(m.mass.size(), 16u);
    EXPECT_EQ(m.mass[0 * 4 + 2], 3.0);   // the first two, z ignored
    EXPECT_EQ(m.mass[3 * 4 + 0], 4.0);   // the left edge is inside
    EXPECT_EQ(m.mass[2 * 4 + 2], 32.0);  // the centre: the pixel above and right of it
    double total = 0;
    for (double v : m.mass) total += v;
    EXPECT_EQ(total, 39.0);  // x = 12 (the right edge) and NaN left out
}

TEST(SurfaceMap, ComparisonCountsTheMovedMassAndTheLogRatio) {
    SurfaceMap a{2, 1, {1, 0, 0, 1}}, b{2, 1, {1, 0, 1, 0}};
    MapDifference d = compare_maps(a, a, 1e-3);
    EXPECT_EQ(d.l1, 0);
    EXPECT_EQ(d.log_rms, 0);
    EXPECT_EQ(d.pixels, 2u);
    d = compare_maps(a, b, 0.01);  // half the mass moved; floor 0.02: log10(50) on two of three pixels
    EXPECT_DOUBLE_EQ(d.l1, 1.0);
    EXPECT_EQ(d.pixels, 3u);
    EXPECT_NEAR(d.log_rms, std::sqrt(2.0 / 3.0) * std::log10(50.0), 1e-12);
    EXPECT_THROW(compare_maps(a, SurfaceMap{3, 1, std::vector<double>(9, 0)}, 0.01), Error);
}
