#pragma once
// How many bodies a scene may load with and keep the window at >= 30 frames/s: direct summation costs N^2
// pair interactions a step, so at a measured rate R (pairs/s) one step of N bodies takes N^2 / R seconds.
// The window gives a step 20 ms of a 33 ms frame (the rest draws the bodies and the panels).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace nbody {

struct LoadBudget {
    static constexpr double kStepSeconds = 0.02;
    static constexpr double kUnmeasuredCpuRate = 1e9;  // pairs/s of two laptop cores, before anything ran
    static constexpr double kFloor = 4096;             // never fewer than this: the scenes still read
    // A rate measured on fewer bodies is mostly per-step overhead (two bodies: a few million pairs/s) and
    // says nothing about a large N: below this it counts as unmeasured.
    static constexpr std::size_t kMinMeasuredN = 2048;

    // The rate to plan with: the one measured at `measured_n` bodies, or 0 (unmeasured).
    static double usable_rate(double pairs_per_s, std::size_t measured_n) {
        return measured_n >= kMinMeasuredN ? pairs_per_s : 0.0;
    }

    // The largest N that steps within kStepSeconds at `pairs_per_s` (0: not measured yet); no limit for a
    // GPU that has not been measured.
    static double smooth_bodies(double pairs_per_s, bool gpu) {
        if (pairs_per_s <= 0 && gpu) return std::numeric_limits<double>::infinity();
        const double rate = pairs_per_s > 0 ? pairs_per_s : kUnmeasuredCpuRate;
        return std::max(kFloor, std::floor(std::sqrt(rate * kStepSeconds)));
    }
    // Seconds one step of n bodies takes at that rate (for the note beside "load full N").
    static double step_seconds(double n, double pairs_per_s) {
        return n * n / (pairs_per_s > 0 ? pairs_per_s : kUnmeasuredCpuRate);
    }
};

}  // namespace nbody
