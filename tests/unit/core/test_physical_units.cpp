// A scene's [units]: read with located errors, and shown as the legend's time and a scale bar of a round
// length that fits.
#include <gtest/gtest.h>

#include <string>

#include "core/errors.hpp"
#include "core/physics/physical_units.hpp"
#include "scene/scene_error_of.hpp"
#include "scene/scene_file.hpp"

using namespace nbody;

namespace {
std::string error_of(const std::string& text) {
    return test::scene_error_of(text);
}
const std::string kBody = "[[component]]\ntype = \"point_mass\"\n";
}  // namespace

TEST(PhysicalUnits, ScenesDeclareThemAndTimeReadsInThem) {
    const SceneSpec s = parse_scene(
        "[units]\nlength = 10\nlength_unit = \"kpc\"\ntime = 14.9\ntime_unit = \"Myr\"\n" + kBody, "s.toml");
    EXPECT_DOUBLE_EQ(s.units.length, 10.0);
    EXPECT_EQ(s.units.length_unit, "kpc");
    EXPECT_EQ(physical_time(s.units, 31.2), "465 Myr");
    EXPECT_EQ(physical_time(parse_scene(kBody, "s.toml").units, 31.2), "");  // none declared
}

TEST(PhysicalUnits, TheScaleBarIsTheLongestRoundLengthThatFits) {
    PhysicalUnits kpc{10.0, "kpc", 0, ""};
    // 0.1 length units a pixel = 1 kpc a pixel; at most 120 pixels: 100 kpc, 100 pixels.
    ScaleBar b = scale_bar(kpc, 0.1, 120);
    EXPECT_EQ(b.label, "100 kpc");
    EXPECT_NEAR(b.pixels, 100.0, 1e-9);
    b = scale_bar(kpc, 0.1, 60);  // 50 kpc
    EXPECT_EQ(b.label, "50 kpc");
    b = scale_bar(kpc, 0.1, 30);  // 20 kpc
    EXPECT_EQ(b.label, "20 kpc");
    b = scale_bar(PhysicalUnits{}, 0.01, 120);  // N-body units: 1 length unit is 100 pixels
    EXPECT_EQ(b.label, "1 (length)");
    EXPECT_NEAR(b.pixels, 100.0, 1e-9);
    EXPECT_EQ(scale_bar(kpc, 0.0, 100).pixels, 0.0);  // a degenerate camera draws none
}

TEST(PhysicalUnits, UnknownUnitsAndHalfDeclaredPairsAreLocatedErrors) {
    const std::string u = error_of("[units]\nlength = 10\nlength_unit = \"kpcs\"\n" + kBody);
    EXPECT_NE(u.find("s.toml:3:15"), std::string::npos) << u;
    EXPECT_NE(u.find("units.length_unit"), std::string::npos) << u;
    EXPECT_NE(u.find("did you mean 'kpc'"), std::string::npos) << u;
    const std::string n = error_of("[units]\ntime_unit = \"Myr\"\n" + kBody);
    EXPECT_NE(n.find("give 'time' with 'time_unit'"), std::string::npos) << n;
    const std::string m = error_of("[units]\nlength = 10\n" + kBody);
    EXPECT_NE(m.find("units.length_unit"), std::string::npos) << m;
    const std::string z = error_of("[units]\ntime = 0\ntime_unit = \"yr\"\n" + kBody);
    EXPECT_NE(z.find("units.time"), std::string::npos) << z;
}
