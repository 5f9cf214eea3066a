#pragma once
// A j-memory for the sapporo6thlib tests: n particles at their own times with every derivative set, and a
// long double direct sum written out in powers of r (independent of core/physics/hermite6.hpp) to check forces.
#include <array>
#include <cmath>
#include <cstdlib>
#include <random>
#include <vector>

#include "sapporo6thlib.h"

namespace nbody::test {

using Vec = std::array<double, 3>;

struct Sapporo6Cluster {
    int n = 0;
    std::vector<Vec> x, v, a, j, s, c;
    std::vector<double> mass, time, eps2;
    std::vector<int> id;

    explicit Sapporo6Cluster(int count, unsigned seed = 3) : n(count) {
        std::mt19937_64 rng(seed);
        std::normal_distribution<double> g(0.0, 1.0);
        auto vec = [&](double scale) { return Vec{scale * g(rng), scale * g(rng), scale * g(rng)}; };
        for (int k = 0; k < n; ++k) {
            x.push_back(vec(1.0)), v.push_back(vec(0.5)), a.push_back(vec(0.3));
            j.push_back(vec(0.2)), s.push_back(vec(0.1)), c.push_back(vec(0.05));
            mass.push_back(1.0 / n + 0.01 * std::fabs(g(rng)));
            time.push_back(0.1 * k / n);
            eps2.push_back(1e-3);
            id.push_back(100 + 3 * k);
        }
    }
    void set_all() {
        for (int k = 0; k < n; ++k)
            set_j_particle(k, x[k].data(), v[k].data(), a[k].data(), j[k].data(), s[k].data(), c[k].data(),
                           mass[k], time[k], id[k], eps2[k]);
    }
};

// What calc_force_on_predictors returns for ni i-particles.
struct Sapporo6Out {
    std::vector<Vec> acc, jrk, snp, crk;
    std::vector<double> phi, r2;
    std::vector<int> nnb;
    explicit Sapporo6Out(int ni, double fill = 0.0)
        : acc(ni, {fill, fill, fill}),
          jrk(acc),
          snp(acc),
          crk(acc),
          phi(ni, fill),
          r2(ni, fill),
          nnb(ni, -7) {}
};

// i-particles (predicted states) as calc_force_on_predictors takes them.
struct Sapporo6In {
    std::vector<Vec> x, v, a;
    std::vector<double> mass, eps2;
    std::vector<int> id;
};

inline void calc(Sapporo6In& in, int nj, Sapporo6Out& out) {
    calc_force_on_predictors(
        int(in.id.size()), nj, in.id.data(), reinterpret_cast<double(*)[3]>(in.x.data()),
        reinterpret_cast<double(*)[3]>(in.v.data()), reinterpret_cast<double(*)[3]>(in.a.data()),
        in.mass.data(), in.eps2.data(), reinterpret_cast<double(*)[3]>(out.acc.data()),
        reinterpret_cast<double(*)[3]>(out.jrk.data()), reinterpret_cast<double(*)[3]>(out.snp.data()),
        reinterpret_cast<double(*)[3]>(out.crk.data()), out.phi.data(), out.nnb.data(), out.r2.data());
}

// The predicted j-particles 0..nj-1 read back, as i-particles.
inline Sapporo6In picked_up(int nj) {
    Sapporo6In in;
    for (int k = 0; k < nj; ++k) {
        int id = 0;
        double m = 0, e = 0;
        Vec x{}, v{}, a{};
        pick_up_predictor_2(k, id, m, e, x.data(), v.data(), a.data());
        in.x.push_back(x), in.v.push_back(v), in.a.push_back(a);
        in.mass.push_back(m), in.eps2.push_back(e), in.id.push_back(id);
    }
    return in;
}

// The long double direct sum of i-particle i against j-particles `j` (with ids), r^-3, r^-5, r^-7 written
// out.
struct LongRef {
    long double acc[3] = {0, 0, 0}, jrk[3] = {0, 0, 0}, snp[3] = {0, 0, 0}, phi = 0, r2min = HUGE_VALL;
    int nnb = -1;
};
inline LongRef long_double_sum(const Sapporo6In& i_in, int i, const Sapporo6In& j_in) {
    LongRef f;
    for (std::size_t q = 0; q < j_in.id.size(); ++q) {
        if (j_in.id[q] == i_in.id[std::size_t(i)]) continue;
        long double r[3], v[3], a[3], d2 = 0, rv = 0, v2 = 0, ra = 0;
        for (int k = 0; k < 3; ++k) {
            r[k] = (long double)j_in.x[q][k] - i_in.x[std::size_t(i)][k];
            v[k] = (long double)j_in.v[q][k] - i_in.v[std::size_t(i)][k];
            a[k] = (long double)j_in.a[q][k] - i_in.a[std::size_t(i)][k];
            d2 += r[k] * r[k], rv += r[k] * v[k], v2 += v[k] * v[k], ra += r[k] * a[k];
        }
        const long double r2 = d2 + i_in.eps2[std::size_t(i)], r1 = std::sqrt(r2), r3 = r2 * r1, r5 = r3 * r2,
                          r7 = r5 * r2, m = j_in.mass[q];
        for (int k = 0; k < 3; ++k) {
            f.acc[k] += m * r[k] / r3;
            f.jrk[k] += m * (v[k] / r3 - 3 * rv * r[k] / r5);
            f.snp[k] +=
                m * (a[k] / r3 - 6 * rv * v[k] / r5 - 3 * (v2 + ra) * r[k] / r5 + 15 * rv * rv * r[k] / r7);
        }
        f.phi -= m / r1;
        if (d2 < f.r2min) f.r2min = d2, f.nnb = j_in.id[q];
    }
    return f;
}

// |got - want| / |want| for a 3-vector.
inline double rel3(const Vec& got, const long double want[3]) {
    long double d = 0, w = 0;
    for (int k = 0; k < 3; ++k) d += (got[k] - want[k]) * (got[k] - want[k]), w += want[k] * want[k];
    return double(std::sqrt(d / w));
}
inline double rel3(const Vec& got, const Vec& want) {
    const long double w[3] = {want[0], want[1], want[2]};
    return rel3(got, w);
}

}  // namespace nbody::test
