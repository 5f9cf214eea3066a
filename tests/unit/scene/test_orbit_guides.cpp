// The guide curves drawn for choreography orbits: the closed path point masses trace, placed as the orbit
// helper places its members.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "cpu/cpu_backend.hpp"
#include "scene/orbit_guides.hpp"
#include "scene/scene_file.hpp"

using namespace nbody;

namespace {

// Distance from p to the nearest segment of the polyline.
double distance_to_path(Double3 p, const std::vector<Double3>& path) {
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i + 1 < path.size(); ++i) {
        const Double3 a = path[i], ab = path[i + 1] - a;
        const double t = std::clamp(dot(p - a, ab) / std::max(dot(ab, ab), 1e-300), 0.0, 1.0);
        const Double3 d = p - (a + t * ab);
        best = std::min(best, std::sqrt(dot(d, d)));
    }
    return best;
}

double extent(const std::vector<Double3>& path, double Double3::*axis, bool top) {
    double v = top ? -1e300 : 1e300;
    for (const Double3& p : path) v = top ? std::max(v, p.*axis) : std::min(v, p.*axis);
    return v;
}

SceneSpec four_galaxy_eight(const std::string& orbit_extra, bool zero_momentum) {
    std::string text = zero_momentum ? "zero_momentum = true\n" : "";
    for (int i = 0; i < 4; ++i)
        text += "[[component]]\ntype = \"point_mass\"\nname = \"g" + std::to_string(i) + "\"\nmass = 0.5\n";
    text += "[[orbit]]\ntype = \"figure8_4\"\ncomponents = [\"g0\", \"g1\", \"g2\", \"g3\"]\nscale = 8.0\n" +
            orbit_extra;
    return parse_scene(text, "guides.toml");
}

}  // namespace

// Every member of the off-centre eight starts on the one curve member 0 traces in a period (a choreography),
// and the curve spans the eight's extremes: x from body 2's -1.3085 to body 0's 1.2017 (where their
// velocities are along y). A wrong period, a first-order integrator or a wrong body would leave a member off
// the curve by far more than 1e-4.
TEST(OrbitGuides, FourBodyPathPassesThroughEveryMember) {
    const auto ic = figure8_four_initial();
    const std::vector<Double3> path = choreography_path(ic, kFigure8FourPeriod, kGuideSamples);
    ASSERT_EQ(path.size(), std::size_t(kGuideSamples) + 1);
    for (const PointOrbitState& b : ic)
        EXPECT_LT(distance_to_path(b.x, path), 1e-4) << b.x.x << ", " << b.x.y;
    EXPECT_NEAR(extent(path, &Double3::x, true), 1.201675137236, 1e-4);
    EXPECT_NEAR(extent(path, &Double3::x, false), -1.308472291674, 1e-4);
    // Closed, and the last step is a sample's length like every other (no jump left where the ends meet).
    EXPECT_EQ(path.back().x, path.front().x);
    const Double3 last = path[path.size() - 1] - path[path.size() - 2], first = path[1] - path[0];
    EXPECT_NEAR(std::sqrt(dot(last, last)), std::sqrt(dot(first, first)), 0.2 * std::sqrt(dot(first, first)));
}

TEST(OrbitGuides, ThreeBodyPathPassesThroughEveryMember) {
    const auto ic = figure8_initial();
    const std::vector<Double3> path = choreography_path(ic, kFigure8Period, kGuideSamples);
    for (const PointOrbitState& b : ic) EXPECT_LT(distance_to_path(b.x, path), 1e-4);
    // The symmetric eight: x from -1.0786 to 1.0786 (Simo's orbit).
    EXPECT_NEAR(extent(path, &Double3::x, true), -extent(path, &Double3::x, false), 1e-4);
}

// Placed as the members are: scaled by lambda, moved to `position`, turned onto `axis`; the period scales as
// lambda^1.5 / sqrt(G m).
TEST(OrbitGuides, GuideIsPlacedWhereTheOrbitPutsItsMembers) {
    const SceneSpec s = four_galaxy_eight("position = [1.0, 2.0, 3.0]\naxis = [1.0, 0.0, 0.0]\n", false);
    const std::vector<OrbitGuide> guides = orbit_guides(s);
    ASSERT_EQ(guides.size(), 1u);
    EXPECT_EQ(guides[0].label, "the four-body eight");
    EXPECT_NEAR(guides[0].period, kFigure8FourPeriod * std::pow(8.0, 1.5) / std::sqrt(0.5), 1e-9);
    std::vector<ComponentSpec> placed = s.components;
    apply_orbits(placed, s.orbits, s.G);
    for (const ComponentSpec& c : placed) EXPECT_LT(distance_to_path(c.position, guides[0].points), 8e-4);
    // Turned onto x: the curve lies in the plane x = 1.
    for (const Double3& p : guides[0].points) EXPECT_NEAR(p.x, 1.0, 1e-9);
}

// The curve moves with its centre of mass, less what zero_momentum takes from the whole system.
TEST(OrbitGuides, GuideMovesWithTheOrbitsCentreOfMass) {
    const std::string moving = "velocity = [0.25, 0.0, 0.0]\n";
    EXPECT_NEAR(orbit_guides(four_galaxy_eight(moving, false))[0].velocity.x, 0.25, 1e-12);
    EXPECT_NEAR(orbit_guides(four_galaxy_eight(moving, true))[0].velocity.x, 0.0, 1e-12);
}

TEST(OrbitGuides, OtherOrbitsHaveNone) {
    const SceneSpec s = parse_scene(
        "[[component]]\ntype = \"point_mass\"\nname = \"a\"\n[[component]]\ntype = \"point_mass\"\nname = "
        "\"b\"\n"
        "[[orbit]]\ntype = \"parabolic\"\ncomponents = [\"a\", \"b\"]\npericentre = 1.0\n",
        "parabolic.toml");
    EXPECT_TRUE(orbit_guides(s).empty());
}

// Where the guide marks each point mass at time t is where the point masses are: four unit masses run a
// quarter period with KDK on the CPU backend (2,048 steps a period: about 2e-4 of error) land on their marks
// within 2e-3, and each member's phase is a multiple of a quarter (member 0 at 0). A phase off by one member
// misses by the eight's size; a mark that ran backwards along the curve, by about 1.
TEST(OrbitGuides, MarksAreWhereThePointMassesAre) {
    std::string text = "eps = 0.0\n";
    for (int i = 0; i < 4; ++i)
        text += "[[component]]\ntype = \"point_mass\"\nname = \"p" + std::to_string(i) + "\"\n";
    text += "[[orbit]]\ntype = \"figure8_4\"\ncomponents = [\"p0\", \"p1\", \"p2\", \"p3\"]\n";
    const SceneSpec s = parse_scene(text, "marks.toml");
    const OrbitGuide g = orbit_guides(s).at(0);
    ASSERT_EQ(g.phases.size(), 4u);
    EXPECT_EQ(g.phases[0], 0.0);
    for (double p : g.phases) EXPECT_NEAR(std::fmod(p * 4.0, 1.0), 0.0, 1e-12);
    const State s0 = build_scene(s);
    for (std::size_t k = 0; k < 4; ++k) {  // at t = 0: where each member starts
        const Double3 at = guide_position(g, g.phases[k], 0.0);
        EXPECT_NEAR(at.x, s0.pos_mass[k].x, 1e-5);
        EXPECT_NEAR(at.y, s0.pos_mass[k].y, 1e-5);
    }
    SimParams p = s.apply_to({});
    const int steps = 512;
    p.dt = g.period / 4 / steps;
    CpuBackend b(1);
    b.reset(s0, p);
    b.step(steps);
    State st;
    b.read_state(st);
    for (std::size_t k = 0; k < 4; ++k) {
        const Double3 at = guide_position(g, g.phases[k], g.period / 4);
        EXPECT_NEAR(at.x, st.pos_mass[k].x, 2e-3) << "member " << k;
        EXPECT_NEAR(at.y, st.pos_mass[k].y, 2e-3) << "member " << k;
    }
    // A whole period later, and before the start, the marks are back where they began.
    const Double3 a = guide_position(g, g.phases[1], g.period),
                  b0 = guide_position(g, g.phases[1], -g.period);
    EXPECT_NEAR(a.x, s0.pos_mass[1].x, 1e-5);
    EXPECT_NEAR(b0.y, s0.pos_mass[1].y, 1e-5);
}
