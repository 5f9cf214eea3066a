// The two pieces of the core rewritten so it compiles with libc++ (the WebAssembly build, web/core/build.sh):
// modified Bessel functions (scene/bessel.hpp, for the disk's rotation curve) and number formatting
// (limits::format_number). Each is checked here against the libstdc++ functions it replaces, and the
// Cartwheel's generated bodies against the values the libstdc++ version (std::cyl_bessel_i/k) produced.
#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <random>
#include <string>

#include "core/limits.hpp"
#include "scene/bessel.hpp"
#include "scene/scene.hpp"
#include "scene/scene_file.hpp"

using namespace nbody;

TEST(PortableMath, BesselMatchesLibstdcxxFrom1e6To700) {
    double worst = 0;
    for (double lg = -6; lg <= 2.845; lg += 0.0005) {  // y from 1e-6 to 700, 19,690 points
        const double y = std::pow(10.0, lg);
        const double mine[4] = {bessel::cyl_i(0, y), bessel::cyl_i(1, y), bessel::cyl_k(0, y), bessel::cyl_k(1, y)};
        const double want[4] = {std::cyl_bessel_i(0.0, y), std::cyl_bessel_i(1.0, y), std::cyl_bessel_k(0.0, y),
                                std::cyl_bessel_k(1.0, y)};
        for (int f = 0; f < 4; ++f) worst = std::max(worst, std::abs(mine[f] / want[f] - 1.0));
    }
    EXPECT_LT(worst, 3e-14);
}

// The text std::to_chars wrote before (shortest round trip; scientific from 1e4 up and below 1e-2).
std::string to_chars_text(double v) {
    char buf[64];
    const double a = std::abs(v);
    const auto form =
        a >= 1e4 || (a != 0 && a < 1e-2) ? std::chars_format::scientific : std::chars_format::general;
    return limits::unpadded_exponent(std::string(buf, std::to_chars(buf, buf + sizeof buf, v, form).ptr));
}

TEST(PortableMath, FormatNumberWritesWhatToCharsWrote) {
    for (double v : {0.0, -0.0, 1.0, 100.0, 1e-2, 9999.0, 1e4, 0.1, 0.3, 1e-320, 5e-324, 1.7976931348623157e308,
                     -3.25, 1e30, 1234.5, 0.015625, 1e-4, 1e6, 4.3e-6})
        EXPECT_EQ(limits::format_number(v), to_chars_text(v)) << v;
    std::mt19937_64 rng(7);
    for (int i = 0; i < 200000; ++i) {
        double v;
        const uint64_t bits = rng();
        std::memcpy(&v, &bits, sizeof v);
        if (i % 3 == 1) v = std::ldexp(double(rng() % 100000), -int(rng() % 24));
        if (i % 3 == 2) v = double(rng() % 10000000) / 1000.0;
        if (!std::isfinite(v)) continue;
        ASSERT_EQ(limits::format_number(v), to_chars_text(v)) << v;
    }
}

// Fingerprints of scenes/cartwheel.toml's 18,000 bodies as built with std::cyl_bessel_i/k (libstdc++, before
// scene/bessel.hpp): the positions come out bit for bit the same (the Bessel functions only set speeds), the
// velocities within 2e-13 of 2.7 (measured: 1.9e-13 at most, one body's component).
TEST(PortableMath, CartwheelDiskUnchangedFromLibstdcxxBessel) {
    const State s = build_scene(load_scene_file(std::string(NBODY_SOURCE_DIR) + "/scenes/cartwheel.toml"));
    ASSERT_EQ(s.size(), 18000u);
    double speed_sum = 0, weighted = 0, radius_sum = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const Double4 &v = s.vel[i], &p = s.pos_mass[i];
        speed_sum += std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
        weighted += (v.x + 2 * v.y + 3 * v.z) * double(i % 7 + 1);
        radius_sum += std::sqrt(p.x * p.x + p.y * p.y + p.z * p.z);
    }
    EXPECT_NEAR(speed_sum, 16961.981672230595, 1e-12 * 16961.98);
    EXPECT_NEAR(weighted, 12024.837693118028, 1e-12 * 16961.98 * 7);
    EXPECT_NEAR(radius_sum, 18489.05535120035, 1e-13 * 18489.06);
    const double body[4][4] = {{0, -0.42513672223747295, -0.5745928058859635, 0.9082637457029943},
                               {6000, -0.16777713606180553, -0.8822134779585394, 0.3263223688189266},
                               {9000, 0.30083500729020174, 0.7250571315340261, 0.2615906496270752},
                               {14999, -0.917430238678786, -0.057548152716247386, 0.42598476476034663}};
    for (const auto& b : body) {
        const Double4& v = s.vel[std::size_t(b[0])];
        EXPECT_NEAR(v.x, b[1], 2e-13);
        EXPECT_NEAR(v.y, b[2], 2e-13);
        EXPECT_NEAR(v.z, b[3], 2e-13);
    }
}
