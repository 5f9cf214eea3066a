// The measuring tools on the CPU backend (core/session/measurements.hpp): the two-body orbit's period, distance and
// ruler as the Measure panel reads them, the arrows' scale, picks refused past the scene, and the units.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "core/session/measurements.hpp"
#include "core/physics/unit_words.hpp"
#include "cpu/cpu_backend.hpp"
#include "scene/scene.hpp"
#include "scene/scene_file.hpp"

using namespace nbody;

namespace {
// The shipped two-body scene: two bodies of mass 0.5, 1 apart on a circle about the origin, period 2 pi.
State two_body() {
    return build_scene(load_scene_file(std::string(NBODY_SOURCE_DIR) + "/scenes/two-body.toml"));
}

SimParams kepler_params() {
    SimParams p;
    p.dt = 2 * std::numbers::pi / 1000;
    p.eps = 0;
    return p;
}
}  // namespace

TEST(Measurements, TheTwoBodyOrbitReadsItsPeriodDistanceAndRuler) {
    CpuBackend b(1);
    b.reset(two_body(), kepler_params());
    Measurements m;
    m.new_scene(2, 1.0);
    m.pick(0);
    m.pick_second(1);
    for (int frame = 0; frame < 330; ++frame) {  // 1.3 laps at 4 steps a frame
        m.update(b, b.time(), {});
        b.step(4);
    }
    const PeriodReading p = m.period();
    ASSERT_TRUE(p.period);
    EXPECT_NEAR(*p.period, 2 * std::numbers::pi, 1e-3);
    // The leap-frog keeps the circle to about 1e-5 at this step.
    ASSERT_TRUE(m.distance_from_centre());
    EXPECT_NEAR(*m.distance_from_centre(), 0.5, 1e-4);
    ASSERT_TRUE(m.ruler_length());
    EXPECT_NEAR(*m.ruler_length(), 1.0, 1e-4);
    const BodyReading* r = m.reading_of(0);
    ASSERT_NE(r, nullptr);
    EXPECT_NEAR(std::sqrt(dot(r->vel, r->vel)), 0.5, 1e-4);
    EXPECT_NEAR(std::sqrt(dot(r->acc, r->acc)), 0.5, 1e-4);  // G m / d^2 = 0.5 / 1
}

TEST(Measurements, TheFigureEightsPeriodIsTimedByReturnsThroughTheCentre) {
    // Chenciner & Montgomery's eight (docs PHYSICS.md): each star's path runs through the centre of mass, where
    // the angle around it is not defined; the period comes from its returns to where it was picked.
    State s;
    s.resize(3);
    s.pos_mass[0] = {0.97000435669734, -0.24308753153583, 0, 1};
    s.pos_mass[1] = {-0.97000435669734, 0.24308753153583, 0, 1};
    s.pos_mass[2] = {0, 0, 0, 1};
    s.vel[2] = {-0.93240737144104, -0.86473146092102, 0, 0};
    s.vel[0] = s.vel[1] = {0.46620368572052, 0.43236573046051, 0, 0};
    // Finely sampled (dt 1/256, 4 steps a frame), and as the window samples it at 16 steps of the scene's 1/64
    // a frame (0.3 length units between samples: none lands near the crossing).
    struct Sampling {
        double dt;
        int steps, frames;
    };
    for (const Sampling& sampling : {Sampling{1.0 / 256, 4, 560}, Sampling{1.0 / 64, 16, 36}})
    for (std::size_t body : {0u, 2u}) {
        SCOPED_TRACE(std::to_string(body) + " at " + std::to_string(sampling.steps) + " steps a frame");
        SimParams p;
        p.dt = sampling.dt;
        p.eps = 0;
        CpuBackend b(1);
        b.reset(s, p);
        b.step(sampling.steps);  // picked a frame after the start, away from the crossing
        Measurements m;
        m.new_scene(3, 1.0);
        m.pick(body);
        for (int frame = 0; frame < sampling.frames; ++frame) {  // 1.4 periods
            m.update(b, b.time(), {});
            b.step(sampling.steps);
        }
        const PeriodReading r = m.period();
        EXPECT_EQ(r.method, PeriodMethod::Return);
        ASSERT_TRUE(r.period);
        EXPECT_NEAR(*r.period, 6.32591398292621, 5e-3);
        EXPECT_EQ(r.turns, 1);
    }
}

TEST(Measurements, AFewBodySceneReadsEveryBodyALargeOneOnlyItsPicks) {
    Measurements few;
    few.new_scene(2, 1.0);
    CpuBackend b(1);
    b.reset(two_body(), kepler_params());
    few.update(b, b.time(), {});
    EXPECT_EQ(few.readings().size(), 2u);  // arrows on every body, without a pick
    few.every_body = false;
    few.update(b, b.time(), {});
    EXPECT_TRUE(few.readings().empty());
    // The scale draws the largest speed and pull (0.5 each) as arrows about 0.4 of the view radius long,
    // rounded: 0.8 time units to 1, and 1.25 per length unit to 1.
    EXPECT_DOUBLE_EQ(few.arrow_scale().velocity_time, 1.0);
    EXPECT_DOUBLE_EQ(few.arrow_scale().accel_per_length, 1.0);
    few.every_body = true;
    few.new_scene(2, 10.0);  // a wider view: longer arrows, the same round steps
    few.update(b, b.time(), {});
    EXPECT_DOUBLE_EQ(few.arrow_scale().velocity_time, 10.0);
    EXPECT_DOUBLE_EQ(few.arrow_scale().accel_per_length, 0.1);
}

TEST(Measurements, AboveAFewBodiesOnlyThePicksAreRead) {
    State s;
    s.resize(Measurements::kFewBodies + 1);
    for (std::size_t i = 0; i < s.size(); ++i) s.pos_mass[i] = {double(i), 0, 0, 1};
    SimParams p;
    p.eps = 0.1;
    CpuBackend b(1);
    b.reset(s, p);
    Measurements m;
    m.new_scene(s.size(), 10.0);
    m.update(b, b.time(), {});
    EXPECT_TRUE(m.readings().empty());  // every_body is on, but this is no few-body scene
    m.pick(3);
    m.update(b, b.time(), {});
    ASSERT_EQ(m.readings().size(), 1u);
    EXPECT_EQ(m.readings()[0].index, 3u);
    EXPECT_DOUBLE_EQ(m.readings()[0].pos.x, 3.0);
    EXPECT_DOUBLE_EQ(m.readings()[0].mass, 1.0);
}

TEST(Measurements, APickPastTheSceneIsRefusedWithBothNumbers) {
    Measurements m;
    m.new_scene(2, 1.0);
    try {
        m.pick(5);
        FAIL() << "picked body 5 of 2";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("body 5"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("has 2 bodies"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(m.picked());
    m.pick_second(1);  // no first pick: it becomes the first
    EXPECT_EQ(m.picked(), 1u);
    EXPECT_FALSE(m.second());
    m.pick_second(1);  // a ruler to itself measures nothing
    EXPECT_FALSE(m.second());
    m.new_scene(3, 1.0);  // a new scene clears the picks
    EXPECT_FALSE(m.picked());
}

TEST(UnitWords, PhysicalUnitsWhereDeclaredElseNBodyUnits) {
    PhysicalUnits au;
    au.length = 1, au.length_unit = "AU", au.time = 1 / (2 * std::numbers::pi), au.time_unit = "yr";
    EXPECT_EQ(length_words(au, 0.571), "0.571 AU");
    EXPECT_EQ(time_words(au, 2 * std::numbers::pi), "1 yr");
    EXPECT_EQ(speed_words(au, 1.0), "6.28 AU/yr");
    EXPECT_EQ(length_words({}, 0.5), "0.5 length units");
    EXPECT_EQ(time_words({}, 6.2832), "6.28 time units");
    EXPECT_EQ(speed_words({}, 0.5), "0.5 (length/time)");
    EXPECT_DOUBLE_EQ(round_125(0.3), 0.2);
    EXPECT_DOUBLE_EQ(round_125(0.4), 0.5);
    EXPECT_DOUBLE_EQ(round_125(80), 100);
    EXPECT_DOUBLE_EQ(round_125(1.3), 1);
    EXPECT_DOUBLE_EQ(round_125(0), 1);
}
