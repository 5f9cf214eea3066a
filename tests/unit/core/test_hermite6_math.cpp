// The sixth-order pair term (core/physics/hermite6.hpp) against (1) finite differences in time of the fourth-order
// pair term (core/physics/hermite.hpp) along an analytic two-body trajectory, and (2) an independently written
// direct sum in long double; and its predictor against the Taylor series.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "core/physics/hermite.hpp"
#include "core/physics/hermite6.hpp"

namespace nbody {
namespace {

using hermite::D3;

double rel(D3 a, D3 b) {
    return hermite::norm(a - b) / hermite::norm(b);
}

// dr(t) = x_j(t) - x_i(t) for two bodies on smooth analytic paths, and its first two derivatives.
struct Path {
    static D3 r(double t) {
        return {2.0 + 0.5 * std::sin(0.7 * t) - std::cos(t), 0.4 * std::cos(1.1 * t) - std::sin(1.3 * t),
                0.2 * t - 0.3 * t * t};
    }
    static D3 v(double t) {
        return {0.35 * std::cos(0.7 * t) + std::sin(t), -0.44 * std::sin(1.1 * t) - 1.3 * std::cos(1.3 * t),
                0.2 - 0.6 * t};
    }
    static D3 a(double t) {
        return {-0.245 * std::sin(0.7 * t) + std::cos(t),
                -0.484 * std::cos(1.1 * t) + 1.69 * std::sin(1.3 * t), -0.6};
    }
};

hermite::Force force4(double t, double m, double eps2) {
    hermite::Force f = hermite::zero_force();
    hermite::add_pair(Path::r(t), Path::v(t), m, eps2, f);
    return f;
}
hermite6::Force6 force6(double t, double m, double eps2) {
    hermite6::Force6 f = hermite6::zero_force6();
    hermite6::add_pair6(Path::r(t), Path::v(t), Path::a(t), m, eps2, f);
    return f;
}

// d/dt of g at t by the 4th-order central stencil (error ~ h^4 g^(5), rounding ~ 1e-16 g / h).
template <class G>
D3 ddt(G g, double t, double h) {
    return (1.0 / (12.0 * h)) * ((8.0 * (g(t + h) - g(t - h))) - (g(t + 2 * h) - g(t - 2 * h)));
}

TEST(Hermite6Math, MatchesFourthOrderAndItsTimeDerivatives) {
    const double m = 0.7, h = 1e-3;
    for (double eps2 : {0.0, 0.01}) {
        for (double t : {-1.0, 0.0, 0.4, 1.7}) {
            const hermite::Force f4 = force4(t, m, eps2);
            const hermite6::Force6 f6 = force6(t, m, eps2);
            EXPECT_LT(rel(f6.acc, f4.acc), 1e-15);
            EXPECT_LT(rel(f6.jerk, f4.jerk), 1e-14);
            EXPECT_NEAR(f6.pot, f4.pot, 1e-15 * std::fabs(f4.pot));
            // The jerk is d(acc)/dt and the snap d(jerk)/dt of the 4th-order terms along the path.
            const D3 jerk_fd = ddt([&](double s) { return force4(s, m, eps2).acc; }, t, h);
            const D3 snap_fd = ddt([&](double s) { return force4(s, m, eps2).jerk; }, t, h);
            EXPECT_LT(rel(f6.jerk, jerk_fd), 1e-9) << "t " << t << " eps2 " << eps2;
            EXPECT_LT(rel(f6.snap, snap_fd), 1e-9) << "t " << t << " eps2 " << eps2;
            // Halving h shrinks the stencil's error 16x until rounding: a wrong snap would not converge.
            const D3 coarse = ddt([&](double s) { return force4(s, m, eps2).jerk; }, t, 4 * h);
            EXPECT_GT(rel(f6.snap, coarse), 10 * rel(f6.snap, snap_fd));
        }
    }
}

// The snap written out in powers of r (long double), summed over j: a different formula, a different order.
struct LongForce {
    long double a[3] = {0, 0, 0}, j[3] = {0, 0, 0}, s[3] = {0, 0, 0};
};
void add_explicit(D3 dr, D3 dv, D3 da, double m, double eps2, LongForce& f) {
    const long double r[3] = {dr.x, dr.y, dr.z}, v[3] = {dv.x, dv.y, dv.z}, a[3] = {da.x, da.y, da.z};
    long double r2 = eps2, rv = 0, v2 = 0, ra = 0;
    for (int k = 0; k < 3; ++k) r2 += r[k] * r[k], rv += r[k] * v[k], v2 += v[k] * v[k], ra += r[k] * a[k];
    const long double r1 = std::sqrt(r2), r3 = r2 * r1, r5 = r3 * r2, r7 = r5 * r2;
    for (int k = 0; k < 3; ++k) {
        f.a[k] += m * r[k] / r3;
        f.j[k] += m * (v[k] / r3 - 3 * rv * r[k] / r5);
        f.s[k] += m * (a[k] / r3 - 6 * rv * v[k] / r5 - 3 * (v2 + ra) * r[k] / r5 + 15 * rv * rv * r[k] / r7);
    }
}

TEST(Hermite6Math, DirectSumMatchesLongDoubleExplicitFormula) {
    std::mt19937_64 rng(5);
    std::normal_distribution<double> g(0.0, 1.0);
    const int n = 200;
    const double eps2 = 1.0 / 4096;
    std::vector<D3> x(n), v(n), a(n);
    for (int k = 0; k < n; ++k) {
        x[k] = {g(rng), g(rng), g(rng)};
        v[k] = {0.5 * g(rng), 0.5 * g(rng), 0.5 * g(rng)};
        a[k] = {0.2 * g(rng), 0.2 * g(rng), 0.2 * g(rng)};
    }
    double worst[3] = {0, 0, 0};
    for (int i = 0; i < n; ++i) {
        hermite6::Force6 f = hermite6::zero_force6();
        LongForce ref;
        for (int j = 0; j < n; ++j) {
            if (j == i) continue;
            hermite6::add_pair6(x[j] - x[i], v[j] - v[i], a[j] - a[i], 1.0 / n, eps2, f);
            add_explicit(x[j] - x[i], v[j] - v[i], a[j] - a[i], 1.0 / n, eps2, ref);
        }
        const D3 got[3] = {f.acc, f.jerk, f.snap};
        const long double* want[3] = {ref.a, ref.j, ref.s};
        for (int q = 0; q < 3; ++q) {
            const D3 w = {double(want[q][0]), double(want[q][1]), double(want[q][2])};
            worst[q] = std::max(worst[q], rel(got[q], w));
        }
    }
    EXPECT_LT(worst[0], 1e-13);
    EXPECT_LT(worst[1], 1e-13);
    EXPECT_LT(worst[2], 1e-12);
}

TEST(Hermite6Math, PredictorIsTheTaylorSeriesToCrackle) {
    const D3 x{1, 2, 3}, v{-0.5, 0.25, 0}, a{0.1, -0.2, 0.3}, j{0.01, 0.02, -0.03}, s{-0.4, 0.5, 0.6},
        c{0.7, -0.8, 0.9};
    const double dt = 0.37;
    D3 xp, vp, ap;
    hermite6::predict6(x, v, a, j, s, c, dt, xp, vp, ap);
    const double d2 = dt * dt, d3 = d2 * dt, d4 = d3 * dt, d5 = d4 * dt;
    const D3 xw = x + dt * v + (d2 / 2) * a + (d3 / 6) * j + (d4 / 24) * s + (d5 / 120) * c;
    const D3 vw = v + dt * a + (d2 / 2) * j + (d3 / 6) * s + (d4 / 24) * c;
    const D3 aw = a + dt * j + (d2 / 2) * s + (d3 / 6) * c;
    EXPECT_LT(rel(xp, xw), 1e-15);
    EXPECT_LT(rel(vp, vw), 1e-15);
    EXPECT_LT(rel(ap, aw), 1e-15);
}

}  // namespace
}  // namespace nbody
