// The spheroid generator (scene/disk_galaxy.hpp's make_spheroid) and the two scenes built on it
// (cluster-black-hole.toml, black-hole-merger.toml), checked as the other scenes are at reduced N on the CPU:
// the stars' enclosed mass against the analytic Hernquist profile, the black hole at the centre, the virial
// ratio, stability in isolation under the scene's own block steps, and the levels they occupy.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <utility>

#include "core/physics/diagnostics.hpp"
#include "core/errors.hpp"
#include "cpu/cpu_backend.hpp"
#include "scene/analysis.hpp"
#include "scene/disk_galaxy.hpp"
#include "scene/scene_file.hpp"
#include "test_util.hpp"

using namespace nbody;

namespace {

std::vector<std::size_t> everything(const State& s) {
    std::vector<std::size_t> all(s.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    return all;
}

SceneSpec shipped(const std::string& name, std::size_t n) {
    SceneSpec s = load_scene_file(std::string(NBODY_SOURCE_DIR) + "/scenes/" + name);
    rescale_bodies(s, n);
    return s;
}

// The heaviest body (the black hole).
std::size_t heaviest(const State& s) {
    std::size_t k = 0;
    for (std::size_t i = 1; i < s.size(); ++i)
        if (s.pos_mass[i].w > s.pos_mass[k].w) k = i;
    return k;
}

}  // namespace

// Stars of a Hernquist cusp (a = 0.2, cut at 95% of the mass) around a 1% hole: the fraction of the stars'
// mass inside r (about the hole) follows (r / (r + a))^2 / 0.95 within 4 binomial sigmas at 20,000 stars; one
// body holds the hole's mass at the stars' centre, nearly at rest.
TEST(Spheroid, HernquistProfileAndACentralHole) {
    const std::size_t n = 20001;
    const std::vector<Body> b =
        make_spheroid({n, 1.0, {HaloProfile::Hernquist, 0.2, 0.95, 0}, 0.01, 0.001, 1.0}, 5);
    ASSERT_EQ(b.size(), n);
    EXPECT_DOUBLE_EQ(b.back().m, 0.01);
    // The hole sits where the stars crowd: the mean of the 100 stars nearest it is within 4e-3 of it (they
    // lie within about 0.015; the whole model's centre of mass, now the origin, is off by its sampling
    // noise).
    std::vector<std::pair<double, std::size_t>> near;
    for (std::size_t i = 0; i + 1 < n; ++i) {
        const Double3 d = b[i].x - b.back().x;
        near.push_back({dot(d, d), i});
    }
    std::partial_sort(near.begin(), near.begin() + 100, near.end());
    Double3 mean{};
    for (std::size_t k = 0; k < 100; ++k) mean = mean + 0.01 * (b[near[k].second].x - b.back().x);
    EXPECT_LT(std::sqrt(dot(mean, mean)), 4e-3);
    EXPECT_LT(std::sqrt(dot(b.back().v, b.back().v)), 2e-2);
    const double a = 0.2, stars = double(n - 1);
    for (const double r : {0.02, 0.05, 0.2, 0.6, 2.0}) {
        std::size_t inside = 0;
        for (std::size_t i = 0; i + 1 < n; ++i) {
            const Double3 d = b[i].x - b.back().x;
            inside += std::sqrt(dot(d, d)) < r;
        }
        const double model = std::min(1.0, (r / (r + a)) * (r / (r + a)) / 0.95),
                     got = double(inside) / stars;
        EXPECT_NEAR(got, model, 4 * std::sqrt(model * (1 - model) / stars) + 1e-4) << "r = " << r;
    }
}

TEST(Spheroid, RefusesOutOfRange) {
    EXPECT_THROW(make_spheroid({100, 1.0, {HaloProfile::Hernquist, 0.2, 0.95, 0}, 0.6, 0.001, 1.0}, 1),
                 ParamError);
    EXPECT_THROW(make_spheroid({100, 1.0, {HaloProfile::Hernquist, 0.0, 0.95, 0}, 0.01, 0.001, 1.0}, 1),
                 ParamError);
    EXPECT_THROW(make_spheroid({100, 1.0, {HaloProfile::Plummer, 0.2, 1.0, 0}, 0.01, 0.001, 1.0}, 1),
                 ParamError);
    // One body with a hole asked for: the body is the hole, all the mass.
    const auto one = make_spheroid({1, 2.0, {HaloProfile::Hernquist, 0.2, 0.95, 0}, 0.01, 0.001, 1.0}, 1);
    ASSERT_EQ(one.size(), 1u);
    EXPECT_EQ(one[0].m, 2.0);
}

// Bounded whatever passes the checks: the corners of every range (profile, scale, truncation, hole,
// softening) give finite bodies (the shell sum and the Abel table are fixed sizes, each star's rejection is
// capped), or, for a scale below eps / 100 (which the scene reader refuses first), a ParamError naming the
// scale.
TEST(Spheroid, EveryCornerOfTheRangesIsFinite) {
    for (const HaloProfile profile : {HaloProfile::Plummer, HaloProfile::Hernquist})
        for (const double scale : {1e-4, 1e4})
            for (const double cut : {0.05, 0.9999})
                for (const double hole : {0.0, 0.5})
                    for (const double eps : {0.0, 1e-4, 1e4}) {
                        const SpheroidParams p{64, 1.0, {profile, scale, cut, 0}, hole, eps, 1.0};
                        if (scale < eps / 100) {
                            try {
                                make_spheroid(p, 3);
                            } catch (const ParamError& e) {
                                EXPECT_EQ(e.field, "scale");
                            }
                            continue;
                        }
                        const auto b = make_spheroid(p, 3);
                        ASSERT_EQ(b.size(), 64u);
                        for (const Body& x : b)
                            ASSERT_TRUE(std::isfinite(x.m + x.x.x + x.x.y + x.x.z + x.v.x + x.v.y + x.v.z))
                                << "scale " << scale << " cut " << cut << " hole " << hole << " eps " << eps;
                    }
}

// Both scenes start in virial equilibrium (2T / -V of the softened forces within 0.05 of 1; each galaxy of
// the merger alone, in its own frame), and the scene file's fields are read back.
TEST(Spheroid, ScenesStartInEquilibrium) {
    const SceneSpec cluster = shipped("cluster-black-hole.toml", 16384);
    ASSERT_EQ(cluster.components.size(), 1u);
    EXPECT_EQ(cluster.components[0].type, ComponentType::Spheroid);
    EXPECT_EQ(cluster.components[0].black_hole, 0.01);
    const State s = build_scene(cluster);
    EXPECT_NEAR(virial_ratio(s, everything(s), cluster.eps, cluster.G), 1.0, 0.05);
    EXPECT_NEAR(s.pos_mass[heaviest(s)].w, 0.01, 1e-12);
    const SceneSpec merger = shipped("black-hole-merger.toml", 16384);
    const State m = build_scene(merger);
    for (uint32_t g : {0u, 1u}) {
        const auto idx = bodies_in_group(m, g);
        EXPECT_NEAR(virial_ratio(m, idx, merger.eps, merger.G), 1.0, 0.05) << "galaxy " << g;
    }
}

// The cluster alone at 4,096 bodies under its own block steps (the tree) to t = 1 (five dynamical times at
// the scale radius, hundreds at the hole): 10/50/90% Lagrangian radii within 10% of their start, 2T/-V within
// 0.1 of 1, and the hole within half a scale radius of the centre of mass (a hole 40 stars heavy wanders by
// about sqrt(m / M) a = 0.03 here). The energy stays within 1e-2: at this N each star is 16 times the full
// scene's, and the block leap-frog's error follows the bodies that change levels (5e-3 at t = 1, against 2e-5
// for the automatic shared step of 1/4096; docs/scenes.md).
TEST(Spheroid, ClusterStableInIsolation) {
    const SceneSpec scene = shipped("cluster-black-hole.toml", 4096);
    const SimParams p = scene.apply_to({});
    ASSERT_EQ(p.integrator, Integrator::LeapFrogBlock);
    const State s0 = build_scene(scene);
    const auto all = everything(s0);
    const double f[] = {0.1, 0.5, 0.9};
    const auto r0 = lagrangian_radii(s0, all, center_of_mass(s0, all), f);
    CpuBackend b(2);
    b.reset(s0, p);
    for (double t = 0.25; t <= 1.0; t += 0.25) {
        test::run_to_sync(b, t);
        State s;
        b.read_state(s);
        const auto r = lagrangian_radii(s, all, center_of_mass(s, all), f);
        for (int k = 0; k < 3; ++k) EXPECT_NEAR(r[k] / r0[k], 1.0, 0.1) << "t = " << t << ", radius " << k;
        EXPECT_NEAR(virial_ratio(s, all, p.eps, p.G), 1.0, 0.1) << "t = " << t;
        const Double4 hole = s.pos_mass[heaviest(s)];
        EXPECT_LT(std::sqrt(hole.x * hole.x + hole.y * hole.y + hole.z * hole.z), 0.1) << "t = " << t;
        EXPECT_LT(relative_energy_error(compute_diagnostics(s0, p.eps, p.G, 2),
                                        compute_diagnostics(s, p.eps, p.G, 2)),
                  1e-2)
            << "t = " << t;
    }
}

// Block steps matter here: at the start of each scene (16,384 bodies, the tree) at least five levels hold
// bodies, and most bodies sit on the top two.
TEST(Spheroid, FiveLevelsOccupied) {
    for (const char* name : {"cluster-black-hole.toml", "black-hole-merger.toml"}) {
        const SceneSpec scene = shipped(name, 16384);
        SimParams p = scene.apply_to({});
        p.method = ForceMethod::Tree;
        CpuBackend b(2);
        b.reset(build_scene(scene), p);
        const std::optional<BlockLevels> l = b.readouts(ReadoutAsk::levels()).block_levels;
        ASSERT_TRUE(l.has_value());
        int occupied = 0;
        std::size_t top = 0;
        for (std::size_t k = 0; k < l->count.size(); ++k)
            occupied += l->count[k] > 0, top += k < 2 ? l->count[k] : 0;
        EXPECT_GE(occupied, 5) << name;
        EXPECT_GT(double(top), 0.5 * double(scene.total_bodies())) << name;
    }
}
