#pragma once
// Modified Bessel functions I_n and K_n (n = 0, 1) for Freeman's exponential-disk rotation curve, written here
// because std::cyl_bessel_i/k exist only in libstdc++ (not libc++: the WebAssembly build, clang on macOS).
// Relative error about 1e-14 for every y > 0 (tests/unit/scene/test_portable_math.cpp checks them against
// libstdc++'s on a grid from 1e-6 to 700), in bounded time whatever y is.
//
// How: up to y = 30 the power series for I_n (positive terms: no cancellation; at most ~100 terms) and, for
// K_n, the integral K_n(y) = int_0^inf exp(-y cosh t) cosh(n t) dt by the trapezoid rule: the integrand is
// analytic in the strip |Im t| < pi/2, where it grows by at most exp(y (1 - cos s)) at height s, so the rule's
// error is below exp(-2 pi s / h + y (1 - cos s)) for any such s: under 1e-17 with h = min(1/4, 0.6/sqrt(y)),
// and it stops where y cosh t passes 745 (exp underflows). Beyond y = 30 the Hankel asymptotic series, whose
// smallest term there is about exp(-2y) < 1e-26.
#include <algorithm>
#include <cmath>

namespace nbody::bessel {

inline constexpr double kSeriesLimit = 30.0;
inline constexpr double kPi = 3.14159265358979323846;

// sum_k (-1)^k a_k(n) / y^k (sign -1: I_n) or sum_k a_k(n) / y^k (sign +1: K_n), with
// a_k = (4n^2 - 1)(4n^2 - 9)...(4n^2 - (2k-1)^2) / (k! 8^k); summed while the terms shrink (y > 30: < 60).
inline double hankel_sum(int n, double y, double sign) {
    const double mu = 4.0 * n * n;
    double term = 1.0, sum = 1.0;
    for (int k = 1; k < 60; ++k) {
        const double next = term * (mu - (2.0 * k - 1) * (2.0 * k - 1)) / (k * 8.0 * y);
        if (std::abs(next) >= std::abs(term) || next == 0) break;
        term = next;
        sum += (k % 2 && sign < 0) ? -term : term;
    }
    return sum;
}

// I_n(y) for n = 0 or 1, y >= 0.
inline double cyl_i(int n, double y) {
    if (y > kSeriesLimit) return std::exp(y) / std::sqrt(2.0 * kPi * y) * hankel_sum(n, y, -1.0);
    // (y/2)^n / n! * sum_k (y^2/4)^k / (k! (k+n)!): terms peak near k = y/2 and fall below 1e-17 of the sum
    // by k = 100 for y <= 30.
    const double q = 0.25 * y * y;
    double term = n == 0 ? 1.0 : 0.5 * y, sum = term;
    for (int k = 1; k < 200; ++k) {
        term *= q / (k * double(k + n));
        sum += term;
        if (term < 1e-17 * sum) break;
    }
    return sum;
}

// K_n(y) for n = 0 or 1, y > 0.
inline double cyl_k(int n, double y) {
    if (y > kSeriesLimit) return std::sqrt(kPi / (2.0 * y)) * std::exp(-y) * hankel_sum(n, y, 1.0);
    // exp(-y cosh t) < 1e-324 beyond y cosh t = 745: t_max = acosh(745 / y), at most 21 for y >= 1e-6 (and
    // 44 at the smallest double): at most ~180 steps.
    const double h = std::min(0.25, 0.6 / std::sqrt(y)), t_max = std::acosh(std::max(745.0 / y, 1.0)) + h;
    double sum = 0.5 * std::exp(-y);  // t = 0, half weight
    for (double t = h; t <= t_max; t += h) sum += std::exp(-y * std::cosh(t)) * (n == 0 ? 1.0 : std::cosh(t));
    return h * sum;
}

}  // namespace nbody::bessel
