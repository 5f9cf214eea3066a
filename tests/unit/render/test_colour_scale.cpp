// Colouring by a quantity, the arithmetic without GL: the mode words, the density grid's box, the ramp's
// range from a histogram or a list of values, the mass unit of a scene's physical units, and the colour bar's
// words.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "cli_parse.hpp"
#include "render/colour_scale.hpp"

using namespace nbody;

TEST(ColourModes, EveryWordParsesToItsModeAndBackToItsName) {
    ASSERT_EQ(color_mode_words().size(), std::size_t(kColorModes));
    for (int m = 0; m < kColorModes; ++m) {
        const std::optional<ColorMode> parsed = parse_color_mode(color_mode_words()[std::size_t(m)]);
        ASSERT_TRUE(parsed) << color_mode_words()[std::size_t(m)];
        EXPECT_EQ(int(*parsed), m);
        EXPECT_EQ(color_mode_words()[std::size_t(m)], color_mode_name(*parsed));  // the panel's word too
        EXPECT_NE(color_mode_choices().find(color_mode_words()[std::size_t(m)]), std::string::npos);
    }
    EXPECT_EQ(parse_color_mode("group"), ColorMode::Group);  // the old word still works
    EXPECT_FALSE(parse_color_mode("rainbow"));
    EXPECT_FALSE(parse_color_mode("Density"));
    EXPECT_FALSE(parse_color_mode(""));
}

TEST(ColourModes, TheCommandLineTakesTheNewModesAndNamesTheFlagForABadOne) {
    for (const char* flag : {"--color", "--colour"}) {
        auto r = test::parse({flag, "density"});
        ASSERT_TRUE(std::holds_alternative<AppOptions>(r)) << flag;
        EXPECT_EQ(std::get<AppOptions>(r).color, "density");
    }
    testing::internal::CaptureStderr();
    testing::internal::CaptureStdout();
    const auto bad = test::parse({"--colour", "rainbow"});
    const std::string out = testing::internal::GetCapturedStdout() + testing::internal::GetCapturedStderr();
    ASSERT_TRUE(std::holds_alternative<int>(bad));
    EXPECT_NE(std::get<int>(bad), 0);
    EXPECT_NE(out.find("--color"), std::string::npos) << out;
    EXPECT_NE(out.find("rainbow"), std::string::npos) << out;
    for (const std::string& w : color_mode_words()) EXPECT_NE(out.find(w), std::string::npos) << out;
}

TEST(DensityGridBox, ItIsACubeAroundTheTargetWideEnoughForTheView) {
    const glm::vec3 target(1, -2, 3);
    const float fov = glm::radians(45.0f);
    const GridBox near = density_grid_box(target, 2.0f, fov, 16.0f / 9.0f, 1.0f);
    const GridBox far = density_grid_box(target, 20.0f, fov, 16.0f / 9.0f, 1.0f);
    for (const GridBox& b : {near, far}) {
        const glm::vec3 centre = b.lo + glm::vec3(0.5f * b.size);
        EXPECT_NEAR(glm::distance(centre, target), 0.0f, 1e-5f);
    }
    EXPECT_NEAR(far.size / near.size, 10.0f, 1e-3f);  // ten times the distance, ten times the width
    // The wider side of the view sets it: half of 16:9's width at distance 2.
    EXPECT_NEAR(near.size, 2.0f * 2.0f * std::tan(0.5f * fov) * 16.0f / 9.0f, 1e-4f);
    // Zoomed far in, the scene's radius keeps a neighbourhood to measure.
    EXPECT_NEAR(density_grid_box(target, 1e-4f, fov, 1.0f, 5.0f).size, 2.0f, 1e-5f);
}

TEST(ColourRange, HistogramQuantilesByWeight) {
    // Weight spread evenly over bins 100..199 of 400 spanning log10 -20 .. 20 (0.1 decade a bin): log10
    // density -10 .. 0. The 1% and 99.9% quantiles sit near its ends.
    std::vector<uint32_t> bins(400, 0);
    for (int i = 100; i < 200; ++i) bins[std::size_t(i)] = 1000;
    const ValueRange r = log_range_from_histogram(bins, -20, 20, 0.01, 0.999);
    ASSERT_TRUE(r.valid);
    EXPECT_NEAR(r.lo, -10 + 0.01 * 10, 1e-9);
    EXPECT_NEAR(r.hi, -10 + 0.999 * 10, 1e-9);
    // A few very dense cells with little mass do not move the top.
    bins[390] = 1;
    EXPECT_NEAR(log_range_from_histogram(bins, -20, 20, 0.01, 0.999).hi, r.hi, 0.02);
    // Empty: no range; everything in one bin: a range a tenth of a decade wide around it.
    EXPECT_FALSE(log_range_from_histogram(std::vector<uint32_t>(400, 0), -20, 20, 0.01, 0.999).valid);
    std::vector<uint32_t> one(400, 0);
    one[200] = 5;
    const ValueRange o = log_range_from_histogram(one, -20, 20, 0.01, 0.999);
    ASSERT_TRUE(o.valid);
    EXPECT_NEAR(o.hi - o.lo, 0.1, 1e-9);
    EXPECT_TRUE(o.lo < 0.1 && o.hi > 0.0);
}

TEST(ColourRange, QuantilesOfValuesSkipNonFiniteOnes) {
    std::vector<float> v(1001);
    std::iota(v.begin(), v.end(), -1000.0f);  // -1000 .. 0
    std::shuffle(v.begin(), v.end(), std::mt19937(3));
    v.push_back(std::nanf(""));
    v.push_back(-INFINITY);
    const ValueRange r = quantile_range(v, 0.01, 0.99);
    ASSERT_TRUE(r.valid);
    EXPECT_NEAR(r.lo, -990.0, 1e-3);
    EXPECT_NEAR(r.hi, -10.0, 1e-3);
    EXPECT_FALSE(quantile_range({std::nanf("")}, 0.01, 0.99).valid);
    const ValueRange same = quantile_range(std::vector<float>(10, -2.0f), 0.01, 0.99);
    ASSERT_TRUE(same.valid);
    EXPECT_LT(same.lo, same.hi);
}

TEST(ColourBarUnits, MassUnitFollowsFromLengthTimeAndG) {
    // AU, year and G = 4 pi^2: the mass unit is the Sun's (Kepler's third law in those units).
    const PhysicalUnits solar{1, "AU", 1, "yr"};
    EXPECT_NEAR(mass_unit_in_suns(solar, 4 * M_PI * M_PI), 1.0, 2e-3);
    // Galaxy units: 10 kpc and 14.9 Myr with G = 1. Against G = 4.30091e-6 kpc (km/s)^2 / M_sun:
    // M = v^2 L / G with v = 10 kpc / 14.9 Myr in km/s.
    const PhysicalUnits galaxy{10, "kpc", 14.9, "Myr"};
    const double v_kms = 10 * 3.0856775814913673e16 / (14.9 * 3.15576e13);  // kpc/Myr -> km/s
    EXPECT_NEAR(mass_unit_in_suns(galaxy, 1.0) / (v_kms * v_kms * 10 / 4.30091e-6), 1.0, 1e-3);
    EXPECT_EQ(mass_unit_in_suns(PhysicalUnits{}, 1.0), 0.0);  // none declared
}

TEST(ColourBarUnits, EachQuantityReadsInItsUnits) {
    const PhysicalUnits none;
    const PhysicalUnits galaxy{10, "kpc", 14.9, "Myr"};
    const ColourBarText speed = colour_bar_text(ColorMode::Speed, galaxy, 1, {0, 1.49, true});
    EXPECT_EQ(speed.right, "1");  // 1.49 x 10 kpc / 14.9 Myr
    EXPECT_EQ(speed.unit, "kpc/Myr");
    EXPECT_EQ(colour_bar_text(ColorMode::Speed, none, 1, {0, 2, true}).unit, "length/time");

    const ColourBarText rho = colour_bar_text(ColorMode::Density, none, 1, {-3, 2, true});
    EXPECT_EQ(rho.left, "0.001");
    EXPECT_EQ(rho.right, "100");
    EXPECT_NE(rho.unit.find("mass/length"), std::string::npos);
    EXPECT_NE(rho.title.find("log"), std::string::npos);
    const ColourBarText rho_kpc = colour_bar_text(ColorMode::Density, galaxy, 1, {0, 1, true});
    EXPECT_NE(rho_kpc.unit.find("M_sun/kpc"), std::string::npos);
    // log10 1 in N-body units: one mass unit in (10 kpc)^3.
    const double expect = mass_unit_in_suns(galaxy, 1) / 1000;
    EXPECT_NEAR(std::stod(rho_kpc.left) / expect, 1.0, 0.01);

    // Potential: the shallow end at the left, the deep at the right; (length/time)^2.
    const ColourBarText phi = colour_bar_text(ColorMode::Potential, none, 1, {-2.5, -0.25, true});
    EXPECT_EQ(phi.left, "-0.25");
    EXPECT_EQ(phi.right, "-2.5");
    EXPECT_NE(phi.unit.find("(length/time)"), std::string::npos);
    const ColourBarText phi_kpc = colour_bar_text(ColorMode::Potential, galaxy, 1, {-1.49, -0.149, true});
    EXPECT_EQ(phi_kpc.right, "-0.671");  // -1.49 x (10 / 14.9)^2
    EXPECT_NE(phi_kpc.unit.find("(kpc/Myr)"), std::string::npos);
}
