// The two showcase scenes at reduced N: the Cartwheel's expanding ring and the figure-eight galaxies
// following their orbit. docs/scenes.md records the same measurements at full N.
#include <gtest/gtest.h>

#include <cmath>

#include "cpu/cpu_backend.hpp"
#include "scene/scene_checks.hpp"
#include "scene/scene_file.hpp"

using namespace nbody;

namespace {
SceneSpec shipped(const char* file, std::size_t n) {
    SceneSpec s = load_scene_file(std::string(NBODY_SOURCE_DIR "/scenes/") + file);
    rescale_bodies(s, n);
    return s;
}
}  // namespace

// Lynds & Toomre: after the intruder crosses the disk plane (t ~ 1.65) a ring of surface density above the
// initial profile forms and travels outward, slowing as it goes (0.4 per time unit at t ~ 3, 0.25 at t ~ 4
// at full N: docs/scenes.md checks that against kinematic theory). Criterion, on the
// disk's own annuli (width 0.1, R >= 0.3, annuli with at least 16 bodies at the start):
//  - before the passage (t = 1.25) no annulus is above 1.5 times its initial density (noise at N = 6000
//    and the approaching intruder's pull stay below 1.35);
//  - at t = 2.25, just after the ring forms, and at t = 3.5 the densest annulus relative to the start is
//    at least 1.5 times it (1.8 and 2.5 measured here; 8 at full N by t = 4.5), and the mass-weighted
//    radius of the excess mass has grown by at least 0.2 (0.44 measured here; 0.56 to 0.85 at full N). A
//    disk that merely heats or spreads has no such maximum, and a ring that stands still fails the second.
TEST(SceneRuns, CartwheelRingMovesOutward) {
    const SceneSpec scene = shipped("cartwheel.toml", 6000);
    const SimParams p = scene.apply_to({});
    State s = build_scene(scene);
    const RingTracker ring(s, /*disk group*/ 0, {0, 0, 1}, 1.5, 15, 0.3);
    CpuBackend b;
    b.reset(s, p);
    auto at = [&](double t) {
        b.step(static_cast<int>(std::lround((t - b.time()) / p.dt)));
        b.read_state(s);
        return ring.measure(s);
    };
    const RingSample before = at(1.25), early = at(2.25), late = at(3.5);
    RecordProperty("early_radius", std::to_string(early.excess_radius));
    RecordProperty("late_radius", std::to_string(late.excess_radius));
    RecordProperty("late_contrast", std::to_string(late.contrast));
    EXPECT_LT(before.contrast, 1.5);
    EXPECT_GT(early.contrast, 1.5);
    EXPECT_GT(late.contrast, 1.5);
    EXPECT_GT(late.excess_radius, early.excess_radius + 0.2);
}

// Three galaxies on the figure-eight (lambda = 3, a = 0.25 truncated at 1.87 a, eps = 0.1, dt = 1/64) at 300
// bodies each. Over one full period (2,104 steps) every galaxy's density centre must stay within 3% of the
// eight's size from the eight's path (PHYSICS.md measured 3% on the GPU at lambda = 3), and within 5% of
// where the point-mass choreography is at the same time (measured here: 1.6% and 1.8%; at full N 1.1% and
// 1.9%, docs/scenes.md). At lambda = 1.2 the same galaxies break the eight up: more than 20% (the test
// checks that too, so the criterion can tell a followed eight from a broken one).
TEST(SceneRuns, FigureEightGalaxiesFollowTheEight) {
    auto run = [](double lambda, double* path, double* same_time) {
        SceneSpec scene = shipped("figure8-3.toml", 900);
        scene.orbits[0].scale = lambda;
        ChoreographyTracker eight(scene, 0);
        CpuBackend b;
        b.reset(build_scene(scene), scene.apply_to({}));
        const int steps = static_cast<int>(std::lround(eight.period() / scene.dt));
        State s;
        *path = *same_time = 0;
        for (int done = 0; done < steps; done += 128) {
            b.step(std::min(128, steps - done));
            b.read_state(s);
            *path = std::max(*path, eight.path_deviation(s));
            *same_time = std::max(*same_time, eight.deviation(s));
        }
    };
    double path = 0, same_time = 0;
    run(3.0, &path, &same_time);
    RecordProperty("path_deviation", std::to_string(path));
    RecordProperty("same_time_deviation", std::to_string(same_time));
    EXPECT_LT(path, 0.03);
    EXPECT_LT(same_time, 0.05);
    run(1.2, &path, &same_time);
    EXPECT_GT(same_time, 0.2);
}
