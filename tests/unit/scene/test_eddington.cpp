// Eddington's inversion (scene/eddington.hpp) against the one distribution function known in closed form for a
// cored model: Plummer's, f(E) proportional to E^(7/2) (psi = (1 + r^2)^(-1/2), rho proportional to psi^5).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/errors.hpp"
#include "scene/eddington.hpp"

using namespace nbody;

namespace {
// Plummer on 600 radii from 1e-3 to 1e3 (the edge's psi, 1e-3, is where E = 0 falls).
struct PlummerTable {
    std::vector<double> psi, rho;
    double edge = 0;
    PlummerTable() {
        for (int i = 0; i < 600; ++i) {
            const double r = std::pow(10.0, -3.0 + 6.0 * i / 599.0), p = 1.0 / std::sqrt(1.0 + r * r);
            psi.push_back(p), rho.push_back(std::pow(p, 5.0));
        }
        edge = psi.back();
    }
};
}  // namespace

TEST(Eddington, RecoversPlummersDistributionFunction) {
    const PlummerTable t;
    const EddingtonDF df(t.psi, t.rho);
    // f / E^3.5 the same constant from a twentieth of the depth to near the centre's (E counted from the edge).
    const double ref = df.f(0.5 - t.edge) / std::pow(0.5, 3.5);
    for (double e : {0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 0.95})
        EXPECT_NEAR(df.f(e - t.edge) / std::pow(e, 3.5) / ref, 1.0, 0.01) << "E = " << e;
    EXPECT_EQ(df.f(0.0), 0.0);
    EXPECT_EQ(df.f(-0.1), 0.0);
    EXPECT_EQ(df.f(1.5), 0.0);  // deeper than the centre
}

// Speeds at psi follow q^2 (1 - q^2)^3.5 (Aarseth, Henon & Wielen 1974): the mean of q over 20,000 draws within
// 1% of that distribution's; where psi is 0 (the edge) there are none.
TEST(Eddington, DrawsPlummerSpeeds) {
    const PlummerTable t;
    const EddingtonDF df(t.psi, t.rho);
    Rng rng(7);
    const double psi = 0.6 - t.edge;
    double sum = 0;
    const int n = 20000;
    for (int i = 0; i < n; ++i) {
        const std::optional<double> q = df.draw_speed_fraction(psi, rng);
        ASSERT_TRUE(q.has_value());
        ASSERT_GE(*q, 0.0);
        ASSERT_LE(*q, 1.0);
        sum += *q;
    }
    double num = 0, den = 0;
    for (int i = 0; i < 100000; ++i) {
        const double q = (i + 0.5) / 100000.0, w = q * q * std::pow(1.0 - q * q, 3.5);
        num += q * w, den += w;
    }
    EXPECT_NEAR(sum / n / (num / den), 1.0, 0.01);
    EXPECT_FALSE(df.draw_speed_fraction(0.0, rng).has_value());
}

TEST(Eddington, RefusesTablesThatCannotBeInverted) {
    const PlummerTable t;
    EXPECT_THROW(EddingtonDF(t.psi, std::vector<double>(t.rho.begin(), t.rho.end() - 1)), Error);
    EXPECT_THROW(EddingtonDF(std::vector<double>(5, 1.0), std::vector<double>(5, 1.0)), Error);
    EXPECT_THROW(EddingtonDF(std::vector<double>(20, 1.0), std::vector<double>(20, 1.0)), Error);  // flat potential
}
