// The period read from a picked body's trace (core/session/orbit_trace.hpp): circles, ellipses about a moving centre,
// and paths that do not turn; the trace's fixed memory.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "core/session/orbit_trace.hpp"

using namespace nbody;

namespace {
constexpr double kPi = std::numbers::pi;

// An ellipse of eccentricity e and period `period` about `centre` moving at `drift`, tilted out of the x-y
// plane, sampled every dt from t0 (Kepler's equation solved by Newton's method, so the angular speed varies).
std::vector<TraceSample> kepler_trace(double e, double period, double dt, double t_end, Double3 drift,
                                      double t0 = 0) {
    std::vector<TraceSample> out;
    for (double t = t0; t <= t_end + 1e-12; t += dt) {
        const double mean = 2 * kPi * t / period;
        double ecc = mean;
        for (int k = 0; k < 30; ++k) ecc -= (ecc - e * std::sin(ecc) - mean) / (1 - e * std::cos(ecc));
        const double x = std::cos(ecc) - e, y = std::sqrt(1 - e * e) * std::sin(ecc);
        const Double3 centre = t * drift;
        // Tilted by 30 degrees about the x axis: the plane is found from the path, not assumed.
        const Double3 rel{x, y * std::cos(kPi / 6), y * std::sin(kPi / 6)};
        out.push_back({t, centre + rel, centre});
    }
    return out;
}
}  // namespace

TEST(OrbitPeriod, ACircleTurnsOnceAPeriod) {
    const std::vector<TraceSample> trace = kepler_trace(0, 2 * kPi, 0.01, 2.5 * 2 * kPi, {});
    const PeriodReading p = period_from_trace(trace);
    ASSERT_TRUE(p.period);
    EXPECT_NEAR(*p.period, 2 * kPi, 1e-3);
    EXPECT_EQ(p.turns, 2);
    EXPECT_NEAR(p.angle, 2.5 * 2 * kPi, 1e-2);
}

TEST(OrbitPeriod, AnEllipseAboutADriftingCentreInATiltedPlane) {
    // e = 0.7: the body sweeps most of its angle near pericentre; the period is still the time between
    // passages of the same angle, whatever the angle picked first (here the trace starts mid-orbit).
    const std::vector<TraceSample> trace = kepler_trace(0.7, 3.0, 0.002, 1.3 + 2.2 * 3.0, {0.3, -0.2, 0.1}, 1.3);
    const PeriodReading p = period_from_trace(trace);
    ASSERT_TRUE(p.period);
    EXPECT_NEAR(*p.period, 3.0, 2e-3);
    EXPECT_EQ(p.turns, 2);
}

TEST(OrbitPeriod, NoPeriodBeforeAFullTurnOrForARadialFall) {
    const PeriodReading part = period_from_trace(kepler_trace(0, 2 * kPi, 0.01, 0.6 * 2 * kPi, {}));
    EXPECT_FALSE(part.period);
    EXPECT_EQ(part.turns, 0);
    EXPECT_NEAR(part.angle, 0.6 * 2 * kPi, 1e-2);
    std::vector<TraceSample> fall;
    for (int k = 0; k < 50; ++k) fall.push_back({0.1 * k, {1.0 - 0.01 * k, 0, 0}, {}});
    EXPECT_FALSE(period_from_trace(fall).period);
    EXPECT_FALSE(period_from_trace({}).period);
}

TEST(OrbitTrace, KeepsItsMemoryAndReachesBackToThePick) {
    OrbitTrace trace(8);
    for (int k = 0; k < 100; ++k) trace.add({double(k), {double(k), 0, 0}, {}});
    const std::vector<TraceSample>& s = trace.samples();
    ASSERT_LE(s.size(), 8u);
    ASSERT_GE(s.size(), 4u);
    EXPECT_EQ(s.front().t, 0.0);
    EXPECT_GE(s.back().t, 100.0 - 2 * (s[1].t - s[0].t));  // the newest is at most one spacing old
    for (std::size_t k = 1; k < s.size(); ++k) EXPECT_EQ(s[k].t - s[k - 1].t, s[1].t - s[0].t) << k;
}

TEST(OrbitTrace, TimeGoingBackStartsAgainAndTheSameTimeIsIgnored) {
    OrbitTrace trace;
    trace.add({1, {}, {}});
    trace.add({2, {}, {}});
    trace.add({2, {}, {}});
    EXPECT_EQ(trace.samples().size(), 2u);
    trace.add({0.5, {}, {}});  // a reset or a rewind
    ASSERT_EQ(trace.samples().size(), 1u);
    EXPECT_EQ(trace.samples()[0].t, 0.5);
}
