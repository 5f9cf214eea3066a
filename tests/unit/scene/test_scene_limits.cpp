// Scenes that pass the type checks but would crash or hang the generators: each gets an error
// naming the file, the field, the value and the allowed range; the generators themselves stay bounded
// when called with such parameters directly.
#include <gtest/gtest.h>

#include <algorithm>

#include <fstream>
#include <sstream>
#include <string>

#include "core/errors.hpp"
#include "scene/build_control.hpp"
#include "scene/disk_galaxy.hpp"
#include "scene/generators.hpp"
#include "scene/scene_file.hpp"

using namespace nbody;

namespace {

std::string shipped(const std::string& name) {
    std::ifstream in(std::string(NBODY_SOURCE_DIR "/scenes/") + name);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// `text` with the n-th (0-based) occurrence of `from` replaced by `to`.
std::string replaced(std::string text, const std::string& from, const std::string& to, int nth = 0) {
    std::size_t at = text.find(from);
    for (int i = 0; i < nth && at != std::string::npos; ++i) at = text.find(from, at + 1);
    if (at == std::string::npos)
        ADD_FAILURE() << "'" << from << "' not found " << nth + 1 << " times";
    else
        text.replace(at, from.size(), to);
    return text;
}

std::string error_of(const std::string& text, const std::string& name = "s.toml") {
    try {
        build_scene(parse_scene(text, name));  // a scene that parses must also build
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

const char* kDisk = R"(eps = 0.01
[[component]]
type = "disk_galaxy"
n = 300
mass = MASS
position = [POS, 0, 0]
[component.disk]
scale_length = 0.25
cutoff = CUTOFF
scale_height = 0.02
[component.halo]
scale = SCALE
)";

std::string disk(const std::string& mass, const std::string& cutoff, const std::string& scale,
                 const std::string& pos = "0") {
    return replaced(replaced(replaced(replaced(kDisk, "MASS", mass), "CUTOFF", cutoff), "SCALE", scale),
                    "POS", pos);
}

void expect_error(const std::string& text, const std::string& needle) {
    const std::string e = error_of(text);
    EXPECT_NE(e.find(needle), std::string::npos) << "expected '" << needle << "' in '" << e << "'";
}

}  // namespace

// The two reported inputs: galaxy-flyby's second halo at scale 1e-320 segfaulted; a disk cut-off of
// 1e-320 (cartwheel, galaxy-flyby) never finished generating.
TEST(SceneLimits, ReportedInputsGiveClearErrors) {
    const std::string flyby = shipped("galaxy-flyby.toml");
    EXPECT_EQ(
        error_of(replaced(flyby, "scale = 0.5", "scale = 1e-320", 1), "galaxy-flyby.toml"),
        "galaxy-flyby.toml:54:9: field 'component[1].halo.scale': must be from 1e-4 to 1e4 (got 1e-320)");
    const std::string e1 = error_of(replaced(flyby, "cutoff = 1.25", "cutoff = 1e-320"), "galaxy-flyby.toml");
    EXPECT_EQ(
        e1,
        "galaxy-flyby.toml:27:10: field 'component[0].disk.cutoff': must be from 1e-4 to 1e4 (got 1e-320)");
    const std::string cartwheel = shipped("cartwheel.toml");
    const std::string e2 = error_of(replaced(cartwheel, "cutoff = 1.25", "cutoff = 1e-320"), "c.toml");
    // The line the cut-off is on in today's file (its comments may move it).
    const auto at = cartwheel.find("cutoff = 1.25");
    ASSERT_NE(at, std::string::npos);
    const std::string line = std::to_string(1 + std::count(cartwheel.begin(), cartwheel.begin() + long(at), '\n'));
    EXPECT_NE(e2.find("c.toml:" + line + ":10: field 'component[0].disk.cutoff': must be from 1e-4 to 1e4 (got 1e-320)"),
              std::string::npos)
        << e2;
}

TEST(SceneLimits, ShippedDiskSettingsPass) {
    EXPECT_EQ(error_of(disk("1", "1.25", "0.5")), "");
}

// A cut-off inside one scale length would reject most radii (0.5% accepted at h / 10): refused by the reader.
TEST(SceneLimits, CutoffInsideTheScaleLengthIsRefused) {
    const std::string e = error_of(disk("1", "0.1", "0.5"));
    EXPECT_NE(e.find("field 'component[0].disk.cutoff': must be at least the disk's scale_length 0.25"),
              std::string::npos)
        << e;
}

TEST(SceneLimits, MassesOutsideTheirRangeAreRefused) {
    for (const char* m : {"1e-320", "0", "-1", "1e-9", "1e9", "1e300"}) {
        const std::string e = error_of(disk(m, "1.25", "0.5"));
        EXPECT_NE(e.find("field 'component[0].mass': must be from 1e-8 to 1e8"), std::string::npos)
            << m << ": " << e;
    }
    EXPECT_NE(error_of(disk("1e-320", "1.25", "0.5")).find("(got 1e-320)"), std::string::npos);
}

// Structures far below the softening, or below what float32 positions resolve where they sit.
TEST(SceneLimits, LengthsAreCheckedAgainstSofteningAndPosition) {
    expect_error(
        replaced(disk("1", "1.25", "1e-4"), "eps = 0.01", "eps = 0.1"),
        "field 'component[0].halo.scale': 1e-4 is far below the softening eps = 0.1: must be at least 1e-3");
    const std::string far = error_of(disk("1", "1.25", "0.5", "1e5"));
    EXPECT_NE(far.find("below what float32 positions resolve 1e5 from the origin"), std::string::npos) << far;
}

TEST(SceneLimits, DispersionsAndOrbitsOutOfRangeAreRefused) {
    const std::string d = disk("1", "1.25", "0.5");
    expect_error(replaced(d, "scale_height = 0.02", "scale_height = 1e-30"),
                 "field 'component[0].disk.scale_height': must be from 1e-4 to 1e4 (got 1e-30)");
    expect_error(replaced(d, "[component.disk]", "[component.disk]\ntoomre_q = 1e-300"),
                 "toomre_q': must be from 0.5 to 10");
    expect_error("[[component]]\ntype = \"uniform_sphere\"\nn = 10\nvirial_ratio = 1e300\n",
                 "virial_ratio': must be from 0 to 10");
    const std::string flyby = shipped("galaxy-flyby.toml");
    expect_error(replaced(flyby, "pericentre = 1.5", "pericentre = 1e-320"),
                 "field 'orbit[0].pericentre': must be from 1e-4 to 1e4 (got 1e-320)");
    expect_error(replaced(flyby, "distance = 6.0", "distance = 1e300"),
                 "field 'orbit[0].distance': must be from 1.5 to 1e4 (got 1e300)");
    expect_error(replaced(flyby, "G = 1.0", "G = 1e-320"), "field 'G': must be from 1e-12 to 1e12");
    expect_error(replaced(flyby, "dt = 0.015625", "dt = 4.9e-324"), "field 'dt': must be from 1e-12");
}

TEST(SceneLimits, SubnormalsAreNamedWhereZeroIsAllowed) {
    expect_error(replaced(shipped("galaxy-flyby.toml"), "eps = 0.025", "eps = 1e-310"),
                 "field 'eps': must be 0 or from 1e-9 to 1e4 (got 1e-310, a subnormal number)");
    expect_error(
        replaced(disk("1", "1.25", "0.5"), "position = [0, 0, 0]", "velocity = [1e-310, 0, 0]"),
        "field 'component[0].velocity': components must be 0 or from 2.2e-308 to 1e6 in size (got 1e-310, a "
        "subnormal number)");
}

// Called directly (no reader), the generators check their parameters and every sampling loop stops.
TEST(SceneLimits, GeneratorsRefuseBadParametersInsteadOfHanging) {
    DiskGalaxyParams p;
    p.n = 100;
    p.disk.cutoff = 1e-320;
    try {
        make_disk_galaxy(p, 1);
        ADD_FAILURE() << "no error";
    } catch (const ParamError& e) {
        EXPECT_EQ(e.field, "disk.cutoff");
    }
    p = {};
    p.n = 100;
    p.halo.scale = 1e-320;
    EXPECT_THROW(make_disk_galaxy(p, 1), ParamError);
    EXPECT_THROW(make_plummer({100, 1.0, 0.25, 0.0, 1.0}, 1), ParamError);  // mass_cut 0: no radius to draw
    EXPECT_THROW(make_uniform_sphere({100, 1e-320, 1.0, 0.0, 1.0}, 1), ParamError);
    // A draw that never succeeds stops after kMaxDraws and names its parameter.
    int calls = 0;
    try {
        draw_until([&]() -> std::optional<double> { return ++calls, std::nullopt; }, "disk.cutoff", "never");
        ADD_FAILURE() << "no error";
    } catch (const ParamError& e) {
        EXPECT_EQ(e.field, "disk.cutoff");
    }
    EXPECT_EQ(calls, kMaxDraws);
}

TEST(SceneLimits, BuildScenePrefixesTheComponent) {
    SceneSpec s = parse_scene(disk("1", "1.25", "0.5"), "s.toml");
    s.components[0].disk.cutoff = 0.01;  // past the reader: the generator still refuses it
    try {
        build_scene(s);
        ADD_FAILURE() << "no error";
    } catch (const ParamError& e) {
        EXPECT_EQ(e.field, "component[0].disk.cutoff");
    }
}

TEST(SceneLimits, BuildReportsProgressAndCancels) {
    const SceneSpec s = parse_scene(disk("1", "1.25", "0.5"), "s.toml");
    SceneSpec big = s;
    big.components[0].n = 5000;
    BuildControl done;
    build_scene(big, &done);
    EXPECT_EQ(done.progress(), 1.0);
    BuildControl cancelled;
    cancelled.cancel();
    EXPECT_THROW(build_scene(big, &cancelled), BuildCancelled);
}
