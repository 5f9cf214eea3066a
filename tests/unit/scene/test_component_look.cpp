// What a scene says its components are (kind) and their colours: read from [[component]] and a disk galaxy's
// part tables, defaulted sensibly, gathered per colour group for the renderer, and refused with file, line,
// column and the allowed values when unknown.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/errors.hpp"
#include "scene/component_look.hpp"
#include "scene/group_labels.hpp"
#include "scene/scene_error_of.hpp"
#include "scene/scene_file.hpp"

using namespace nbody;

namespace {
std::string error_of(const std::string& text) {
    return test::scene_error_of(text);
}

const char* kGalaxyAndIntruder = R"([[component]]
type = "disk_galaxy"
n = 100
group = 0
[component.disk]
colour = "#ff8000"
[component.halo]
group = 1

[[component]]
type = "plummer"
n = 10
kind = "intruder"
colour = "cyan"
group = 2

[[component]]
type = "point_mass"
group = 3
)";
}  // namespace

TEST(ComponentLook, ColoursParseAsHexOrNamesIntoLinearLight) {
    const auto orange = parse_colour("#FF8000");
    ASSERT_TRUE(orange);
    EXPECT_FLOAT_EQ((*orange)[0], 1.0f);
    EXPECT_NEAR((*orange)[1], std::pow(128.0f / 255.0f, 2.2f), 1e-6);  // sRGB 128 is 22% of the light
    EXPECT_FLOAT_EQ((*orange)[2], 0.0f);
    EXPECT_TRUE(parse_colour("white"));
    for (const char* bad : {"", "#12345", "#1234567", "#gg0000", "ff8000", "White", "purple"})
        EXPECT_FALSE(parse_colour(bad)) << bad;
}

TEST(ComponentLook, ScenesSayWhatEachGroupIsAndHalosAreDarkMatter) {
    const SceneSpec s = parse_scene(kGalaxyAndIntruder, "s.toml");
    const std::vector<ComponentLook> looks = group_looks(s);
    ASSERT_EQ(looks.size(), 4u);
    EXPECT_EQ(looks[0].kind, ComponentKind::Disk);
    ASSERT_TRUE(looks[0].colour);
    EXPECT_FLOAT_EQ((*looks[0].colour)[0], 1.0f);
    EXPECT_EQ(looks[1].kind, ComponentKind::Halo);
    EXPECT_TRUE(is_dark_matter(looks[1].kind));
    EXPECT_FALSE(looks[1].colour);
    EXPECT_EQ(looks[2].kind, ComponentKind::Intruder);
    EXPECT_TRUE(looks[2].colour);
    EXPECT_EQ(looks[3].kind, ComponentKind::Star);  // a point mass unless the file says otherwise
    for (const ComponentLook& l : {looks[0], looks[2], looks[3]}) EXPECT_FALSE(is_dark_matter(l.kind));
}

TEST(ComponentLook, AGalaxyInOneGroupReadsAsItsDiskNotDarkMatter) {
    const SceneSpec s = parse_scene("[[component]]\ntype = \"disk_galaxy\"\nn = 100\n", "s.toml");
    const std::vector<ComponentLook> looks = group_looks(s);
    ASSERT_EQ(looks.size(), 1u);
    EXPECT_EQ(looks[0].kind, ComponentKind::Disk);
}

TEST(ComponentLook, UnknownKindsAndColoursAreLocatedErrors) {
    const std::string k = error_of("[[component]]\ntype = \"plummer\"\nn = 10\nkind = \"intruderr\"\n");
    EXPECT_NE(k.find("s.toml:4:8"), std::string::npos) << k;
    EXPECT_NE(k.find("component[0].kind"), std::string::npos) << k;
    EXPECT_NE(k.find("did you mean 'intruder'"), std::string::npos) << k;
    const std::string c = error_of("[[component]]\ntype = \"plummer\"\nn = 10\ncolour = \"#12345\"\n");
    EXPECT_NE(c.find("s.toml:4:10"), std::string::npos) << c;
    EXPECT_NE(c.find("unknown colour '#12345'"), std::string::npos) << c;
    EXPECT_NE(c.find("#rrggbb"), std::string::npos) << c;
    const std::string h =
        error_of("[[component]]\ntype = \"disk_galaxy\"\nn = 10\n[component.halo]\ncolour = \"mauve\"\n");
    EXPECT_NE(h.find("s.toml:5:10"), std::string::npos) << h;
    EXPECT_NE(h.find("component[0].halo.colour"), std::string::npos) << h;
    // A disk galaxy says what its parts are in their own tables, not at the top.
    const std::string g = error_of("[[component]]\ntype = \"disk_galaxy\"\nn = 10\nkind = \"disk\"\n");
    EXPECT_NE(g.find("unknown key 'kind'"), std::string::npos) << g;
}
