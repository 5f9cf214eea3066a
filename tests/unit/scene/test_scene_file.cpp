#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <utility>

#include <cmath>
#include <cstring>

#include "core/errors.hpp"
#include "cpu/cpu_backend.hpp"
#include "scene/orbits.hpp"
#include "scene/scene_error_of.hpp"
#include "scene/scene_file.hpp"

using namespace nbody;

namespace {
const char* kGood = R"(name = "test"
dt = 0.02
eps = 0.05
seed = 3

[[component]]
type = "plummer"
n = 100
scale = 0.5

[[component]]
type = "uniform_sphere"
n = 50
radius = 2.0
position = [5, 0, 0]
velocity = [0, 0.5, 0]
)";

std::string error_of(const std::string& text) {
    return test::scene_error_of(text);
}
}  // namespace

TEST(SceneFile, ParsesGlobalsAndComponents) {
    const SceneSpec s = parse_scene(kGood, "s.toml");
    EXPECT_EQ(s.name, "test");
    EXPECT_DOUBLE_EQ(s.dt, 0.02);
    EXPECT_DOUBLE_EQ(s.eps, 0.05);
    ASSERT_EQ(s.components.size(), 2u);
    EXPECT_EQ(s.total_bodies(), 150u);
    EXPECT_EQ(s.components[1].type, ComponentType::UniformSphere);
    EXPECT_DOUBLE_EQ(s.components[1].position.x, 5.0);
    EXPECT_EQ(s.components[1].group, 1u);
    const State st = build_scene(s);
    ASSERT_EQ(st.size(), 150u);
    EXPECT_EQ(st.group[120], 1u);
}

TEST(SceneFile, ErrorsNameLineColumnAndField) {
    EXPECT_EQ(error_of("dt = -1\n[[component]]\ntype = \"plummer\"\nn = 10\n"),
              "s.toml:1:6: field 'dt': must be from 1e-12 to 1e6 (got -1)");
    EXPECT_EQ(error_of("dt = 0.1\n[[component]]\ntype = \"plummer\"\nn = 0\n"),
              "s.toml:4:5: field 'component[0].n': must be from 1 to 67108864 (got 0)");
    EXPECT_EQ(error_of("eps = \"small\"\n[[component]]\ntype = \"plummer\"\nn = 10\n"),
              "s.toml:1:7: field 'eps': expected a number");
}

TEST(SceneFile, UnknownKeysSuggestTheNearestKnownOne) {
    const std::string e = error_of("epss = 0.1\n[[component]]\ntype = \"plummer\"\nn = 10\n");
    EXPECT_NE(e.find("s.toml:1:1: unknown key 'epss' (did you mean 'eps'?)"), std::string::npos) << e;
    const std::string t = error_of("[[component]]\ntype = \"plumer\"\nn = 10\n");
    EXPECT_NE(t.find("unknown component type 'plumer' (did you mean 'plummer'?)"), std::string::npos) << t;
}

TEST(SceneFile, SyntaxErrorsAndMissingPieces) {
    EXPECT_NE(error_of("dt = = 1\n").find("s.toml:1:6: TOML syntax"), std::string::npos)
        << error_of("dt = = 1\n");
    EXPECT_NE(error_of("dt = 0.1\n").find("missing [[component]]"), std::string::npos);
    EXPECT_NE(error_of("[[component]]\ntype = \"plummer\"\n").find("missing required field 'component[0].n'"),
              std::string::npos);
    EXPECT_NE(error_of("[[component]]\ntype = \"plummer\"\nn = 3\nposition = [1, 2]\n")
                  .find("expected an array of three numbers"),
              std::string::npos);
}

// Every file in tests/data/bad/ must be rejected with the message its first line ("# expect: ...") names.
TEST(SceneFile, BadFileCorpus) {
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(NBODY_TEST_DATA "/bad")) {
        std::ifstream in(entry.path());
        std::string first;
        std::getline(in, first);
        ASSERT_EQ(first.rfind("# expect: ", 0), 0u) << entry.path();
        const std::string expect = first.substr(10);
        try {
            load_scene_file(entry.path().string());
            ADD_FAILURE() << entry.path() << " loaded without error";
        } catch (const SceneError& e) {
            EXPECT_NE(std::string(e.what()).find(expect), std::string::npos) << e.what();
            EXPECT_EQ(e.file, entry.path().string());
        }
        ++files;
    }
    EXPECT_GE(files, 5);
}

TEST(SceneFile, MissingFileIsAnErrorNotACrash) {
    EXPECT_THROW(load_scene_file("/nonexistent/scene.toml"), SceneError);
}

// Every shipped scene, at reduced N (point masses keep their count), builds the same bits twice from its
// seed and runs 50 steps on the CPU backend without a NaN.
TEST(SceneFile, ShippedScenesBuildReproduciblyAndRun50Steps) {
    int count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(NBODY_SOURCE_DIR "/scenes")) {
        if (entry.path().extension() != ".toml") continue;
        SceneSpec s = load_scene_file(entry.path().string());
        if (s.total_bodies() > 512) rescale_bodies(s, 512);
        const State a = build_scene(s), b = build_scene(s);
        ASSERT_EQ(a.size(), b.size());
        EXPECT_EQ(0, std::memcmp(a.pos_mass.data(), b.pos_mass.data(), a.size() * sizeof(Float4)))
            << entry.path();
        EXPECT_EQ(0, std::memcmp(a.vel.data(), b.vel.data(), a.size() * sizeof(Float4))) << entry.path();
        EXPECT_EQ(a.group, b.group);
        CpuBackend backend;
        backend.reset(a, s.apply_to({}));
        backend.step(50);
        State end;
        backend.read_state(end);
        EXPECT_EQ(first_non_finite(end), -1) << entry.path();
        EXPECT_FALSE(s.description.empty()) << entry.path();
        ++count;
    }
    EXPECT_GE(count, 8);
}

TEST(SceneFile, DifferentSeedsGiveDifferentDiskGalaxies) {
    SceneSpec s = load_scene_file(NBODY_SOURCE_DIR "/scenes/cartwheel.toml");
    rescale_bodies(s, 300);
    const State a = build_scene(s);
    s.seed += 1;
    const State b = build_scene(s);
    EXPECT_NE(0, std::memcmp(a.pos_mass.data(), b.pos_mass.data(), a.size() * sizeof(Float4)));
}

TEST(SceneFile, RescaleKeepsProportionsAndTotal) {
    SceneSpec s = parse_scene(kGood, "s.toml");
    rescale_bodies(s, 3000);
    EXPECT_EQ(s.total_bodies(), 3000u);
    EXPECT_EQ(s.components[0].n, 2000u);
    EXPECT_THROW(rescale_bodies(s, 1), ParamError);
}

TEST(SceneFile, RescaleKeepsPointMassesSingle) {
    SceneSpec s = parse_scene(R"(
[[component]]
type = "point_mass"
mass = 0.25
[[component]]
type = "disk_galaxy"
n = 1000
)",
                              "s.toml");
    rescale_bodies(s, 101);
    EXPECT_EQ(s.components[0].n, 1u);
    EXPECT_EQ(s.components[1].n, 100u);
    EXPECT_THROW(rescale_bodies(s, 1), ParamError);
}

namespace {
const char* kFull = R"(name = "full"
dt = 0.01
bodies = 1000
zero_momentum = true
[camera]
distance = 7.5
target = [1, 2, 3]
yaw = 45
pitch = -10
trails = 64
[[component]]
name = "disk"
type = "disk_galaxy"
fraction = 0.8
mass = 2.0
axis = [0, 1, 0]
position = [1, 0, 0]
group = 4
[component.disk]
mass_fraction = 0.3
body_fraction = 0.5
scale_length = 0.5
toomre_q = 2.0
[component.halo]
profile = "hernquist"
scale = 1.0
mass_cut = 0.9
group = 7
[[component]]
name = "bullet"
type = "plummer"
fraction = 0.2
mass = 0.5
scale = 0.1
mass_cut = 0.7
virialize = true
[[orbit]]
type = "head_on"
components = ["disk", "bullet"]
distance = 4.0
speed = 2.0
tilt = 90.0
offset = 0.5
)";
}  // namespace

TEST(SceneFile, ParsesTheExtendedFormat) {
    const SceneSpec s = parse_scene(kFull, "s.toml");
    ASSERT_TRUE(s.camera.has_value());
    EXPECT_DOUBLE_EQ(s.camera->distance, 7.5);
    EXPECT_DOUBLE_EQ(s.camera->target.z, 3.0);
    EXPECT_DOUBLE_EQ(s.camera->yaw_deg, 45.0);
    EXPECT_EQ(s.camera->trails, 64);
    EXPECT_EQ(s.camera->frame_width, 0.0);  // no frame box: the distance holds
    const SceneSpec boxed =
        parse_scene("[camera]\nframe = [22, 10.5]\n[[component]]\ntype = \"plummer\"\nn = 10\n", "s.toml");
    EXPECT_DOUBLE_EQ(boxed.camera->frame_width, 22.0);
    EXPECT_DOUBLE_EQ(boxed.camera->frame_height, 10.5);
    EXPECT_EQ(parse_scene("[camera]\ndistance = 3\n[[component]]\ntype = \"plummer\"\nn = 10\n", "s.toml")
                  .camera->trails,
              0);
    EXPECT_TRUE(s.zero_momentum);
    ASSERT_EQ(s.components.size(), 2u);
    const ComponentSpec& d = s.components[0];
    EXPECT_EQ(d.type, ComponentType::DiskGalaxy);
    EXPECT_EQ(d.n, 800u);
    EXPECT_DOUBLE_EQ(d.disk.cutoff, 2.5);  // default: 5 scale lengths
    EXPECT_EQ(d.disk.group, 4u);           // default: the component's group
    EXPECT_EQ(d.halo.profile, HaloProfile::Hernquist);
    EXPECT_EQ(d.halo.group, 7u);
    EXPECT_EQ(s.components[1].n, 200u);
    EXPECT_TRUE(s.components[1].virialize);
    ASSERT_EQ(s.orbits.size(), 1u);
    EXPECT_EQ(s.orbits[0].type, OrbitType::HeadOn);

    const State st = build_scene(s);
    EXPECT_EQ(st.size(), 1000u);
    // Disk bodies lie in the plane perpendicular to the spin axis (0, 1, 0), around the component's position.
    double y2 = 0, x2 = 0;
    int disk = 0;
    for (std::size_t i = 0; i < st.size(); ++i)
        if (st.group[i] == 4)
            y2 += st.pos_mass[i].y * st.pos_mass[i].y, x2 += std::pow(st.pos_mass[i].x - 1.0, 2), ++disk;
    EXPECT_EQ(disk, 400);
    EXPECT_LT(y2, 0.05 * x2);
    // zero_momentum: the whole system's momentum is zero.
    double p = 0;
    for (std::size_t i = 0; i < st.size(); ++i) p += st.pos_mass[i].w * st.vel[i].z;
    EXPECT_NEAR(p, 0.0, 1e-5);
}

// The head_on helper reproduces the Cartwheel set-up of PHYSICS.md: from (0.05, 0, 3) at (0, 0, -1.5), and
// tilting by 90 degrees turns the path into the disk plane (towards +x for a disk spinning about z).
TEST(SceneFile, OrbitHelpersPlaceTheirComponents) {
    const SceneSpec cart = load_scene_file(NBODY_SOURCE_DIR "/scenes/cartwheel.toml");
    std::vector<ComponentSpec> c = cart.components;
    apply_orbits(c, cart.orbits, cart.G);
    EXPECT_NEAR(c[1].position.x, 0.05, 1e-12);
    EXPECT_NEAR(c[1].position.z, 3.0, 1e-12);
    EXPECT_NEAR(c[1].velocity.z, -1.5, 1e-12);
    EXPECT_NEAR(c[1].velocity.x, 0.0, 1e-12);

    SceneSpec tilted = cart;
    tilted.orbits[0].tilt_deg = 90;
    c = tilted.components;
    apply_orbits(c, tilted.orbits, tilted.G);
    EXPECT_NEAR(c[1].position.x, 3.0, 1e-12);
    EXPECT_NEAR(c[1].position.z, -0.05, 1e-12);
    EXPECT_NEAR(c[1].velocity.x, -1.5, 1e-12);

    // parabolic: the two start `distance` apart with zero orbital energy and the centre of mass at rest.
    const SceneSpec fly = load_scene_file(NBODY_SOURCE_DIR "/scenes/galaxy-flyby.toml");
    c = fly.components;
    apply_orbits(c, fly.orbits, fly.G);
    const Double3 r = c[1].position - c[0].position, v = c[1].velocity - c[0].velocity;
    const double mt = c[0].mass + c[1].mass;
    EXPECT_NEAR(std::sqrt(dot(r, r)), 6.0, 1e-12);
    EXPECT_NEAR(0.5 * dot(v, v) - fly.G * mt / std::sqrt(dot(r, r)), 0.0, 1e-12);
    EXPECT_LT(dot(r, v), 0.0);  // approaching
    const Double3 l = cross(r, v);
    const double q = dot(l, l) / (2.0 * fly.G * mt);  // pericentre of a parabola: h^2 / (2 mu)
    EXPECT_NEAR(q, 1.5, 1e-12);
    EXPECT_GT(l.z, 0.0);  // counter-clockwise about +z: prograde for disks spinning about +z
}

TEST(SceneFile, ExtendedFormatErrors) {
    const std::string comp = "[[component]]\ntype = \"plummer\"\nn = 10\n";
    // [camera]'s fields: each bad value, and where it is (line:column of the value or the element).
    const std::pair<const char*, const char*> camera[] = {
        {"pitch = 95", "s.toml:2:9: field 'camera.pitch': must be from -89 to 89 (got 95)"},
        {"trails = 1", "s.toml:2:10: field 'camera.trails': must be from 2 to 4096 (got 1)"},
        {"trails = 12.5", "s.toml:2:10: field 'camera.trails': expected an integer"},
        {"frame = [20, 0]", "s.toml:2:14: field 'camera.frame': height must be from 1e-4 to 1e9 (got 0)"},
        {"frame = [20]",
         "s.toml:2:9: field 'camera.frame': expected an array of two numbers [width, height]"},
        {"frame = [20, \"wide\"]",
         "s.toml:2:14: field 'camera.frame': expected an array of two numbers [width, height]"},
        {"distance = 3\nframe = [20, 10]",
         "s.toml:3:9: field 'camera.frame': give 'distance' or 'frame', not both"},
    };
    for (const auto& [field, message] : camera)
        EXPECT_EQ(error_of("[camera]\n" + std::string(field) + "\n" + comp), message) << field;
    EXPECT_NE(
        error_of("[[component]]\ntype = \"disk_galaxy\"\nn = 10\n[component.halo]\nprofile = \"nfw\"\n")
            .find("s.toml:5:11: field 'component[0].halo.profile': unknown halo profile 'nfw'; allowed: "
                  "plummer, hernquist"),
        std::string::npos);
    EXPECT_NE(error_of("[[component]]\ntype = \"plummer\"\nfraction = 0.5\n")
                  .find("needs the scene's total 'bodies'"),
              std::string::npos);
    EXPECT_NE(error_of("bodies = 10\n[[component]]\ntype = \"plummer\"\nn = 3\nfraction = 0.5\n")
                  .find("give either 'n' or 'fraction'"),
              std::string::npos);
    EXPECT_NE(
        error_of("[[component]]\ntype = \"point_mass\"\nn = 3\n").find("a point_mass is exactly one body"),
        std::string::npos);
    EXPECT_NE(error_of(comp + "axis = [0, 0, 0]\n").find("must be a non-zero direction"), std::string::npos);
    EXPECT_NE(error_of(comp + "virialize = 1\n").find("expected true or false"), std::string::npos);
    const std::string named =
        "[[component]]\ntype = \"point_mass\"\nname = \"a\"\n"
        "[[component]]\ntype = \"point_mass\"\nname = \"b\"\nmass = 2\n"
        "[[component]]\ntype = \"point_mass\"\nname = \"c\"\n";
    EXPECT_NE(error_of(named + "[[orbit]]\ntype = \"figure8\"\ncomponents = [\"a\", \"b\", \"c\"]\n")
                  .find("a choreography needs equal masses"),
              std::string::npos);
    EXPECT_NE(error_of(named + "[[orbit]]\ntype = \"figure8\"\ncomponents = [\"a\", \"bb\", \"c\"]\n")
                  .find("no component named 'bb' (did you mean 'b'?)"),
              std::string::npos);
    EXPECT_NE(error_of(named + "[[orbit]]\ntype = \"head_on\"\ncomponents = [\"a\", \"b\", \"c\"]\n")
                  .find("this orbit places exactly 2 components (got 3)"),
              std::string::npos);
    EXPECT_NE(error_of(named + "[[orbit]]\ntype = \"figure_eight\"\ncomponents = [\"a\"]\n")
                  .find("unknown orbit type 'figure_eight'"),
              std::string::npos);
    EXPECT_NE(error_of(named + "[[orbit]]\ntype = \"parabolic\"\ncomponents = [\"a\", \"b\"]\nscale = 2\n")
                  .find("unknown key 'scale'"),
              std::string::npos);
    const std::string placed =
        "[[component]]\ntype = \"point_mass\"\nname = \"a\"\n"
        "[[component]]\ntype = \"point_mass\"\nname = \"b\"\nposition = [1, 0, 0]\n";
    EXPECT_NE(error_of(placed + "[[orbit]]\ntype = \"parabolic\"\ncomponents = [\"a\", \"b\"]\n")
                  .find("s.toml:7:12: field 'orbit[0].components': component 'b' is placed by this orbit"),
              std::string::npos);
}

TEST(SceneFile, PrecisionIntegratorAndEtaAreOptionalSettings) {
    const SceneSpec plain = parse_scene(kGood, "s.toml");
    EXPECT_FALSE(plain.precision || plain.integrator || !plain.method_params.empty());
    EXPECT_EQ(plain.apply_to({}).integrator, Integrator::LeapFrog);
    const SceneSpec s = parse_scene(
        std::string("precision = \"fp64\"\nintegrator = \"hermite-block\"\neta = 0.02\n") + kGood, "s.toml");
    const SimParams p = s.apply_to({});
    EXPECT_EQ(p.precision, Precision::Fp64);
    EXPECT_EQ(p.integrator, Integrator::HermiteBlock);
    EXPECT_DOUBLE_EQ(p.eta, 0.02);
    const SimParams lb =
        parse_scene(std::string("integrator = \"leapfrog-block\"\neta = 0.15\n") + kGood, "s.toml")
            .apply_to({});
    EXPECT_EQ(lb.integrator, Integrator::LeapFrogBlock);
    EXPECT_DOUBLE_EQ(lb.eta, 0.15);
    try {
        parse_scene(std::string("integrator = \"euler\"\n") + kGood, "s.toml");
        FAIL() << "an unknown integrator was accepted";
    } catch (const SceneError& e) {
        EXPECT_EQ(e.line, 1);
        EXPECT_NE(std::string(e.what()).find("leapfrog, hermite, hermite-block"), std::string::npos)
            << e.what();
    }
}
