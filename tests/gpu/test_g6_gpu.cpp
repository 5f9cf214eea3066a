// The GRAPE-6 library's GPU engine (cuda/g6/g6_cuda.cu) against its CPU engine in float64: the same
// j-particles (with a2, j6 and their own times, so the device prediction is exercised), acceleration, jerk
// and potential of an i-batch in fp64 (1e-12), ds (2e-6) and fp32 (1e-4) relative to the largest component;
// nearest neighbours equal. Batches of 1 to npipes i-particles against 1 to 3,001 j-particles (the force
// kernel's plan changes with both: threads per i, j-splits), and two batches queued back to back.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "../unit/test_util.hpp"
#include "core/errors.hpp"
#include "g6/g6_device.hpp"

using namespace nbody;

namespace {

void load(g6::Device& d, const State& s) {
    for (int i = 0; i < int(s.size()); ++i) {
        const double x[3] = {s.pos_mass[i].x, s.pos_mass[i].y, s.pos_mass[i].z};
        const double v[3] = {s.vel[i].x, s.vel[i].y, s.vel[i].z};
        const double a2[3] = {0.01 * (i % 7), -0.02, 0.003 * (i % 3)}, j6[3] = {0.001, 0.002 * (i % 5), -0.001};
        ASSERT_EQ(d.set_j_particle(i, 100 + i, -0.01 * (i % 4), s.pos_mass[i].w, a2, j6, v, x), 0);
    }
}

// A CUDA board with config c and a CPU board in float64, both holding s's bodies as j-particles; gpu stays null
// (why says why) where no CUDA device can be used.
struct Boards {
    std::unique_ptr<g6::Device> gpu, cpu;
    std::string why;
};
Boards boards(g6::Config c, const State& s) {
    Boards b;
    c.device = "cuda";
    try {
        b.gpu = std::make_unique<g6::Device>(c);
    } catch (const Error& e) {
        b.why = std::string("no usable CUDA device: ") + e.what();
        return b;
    }
    c.device = "cpu", c.precision = Precision::Fp64;
    b.cpu = std::make_unique<g6::Device>(c);
    load(*b.gpu, s), load(*b.cpu, s);
    return b;
}

void compare(Precision p, double tolerance, int nj = 3001, int ni = 200) {
    const State s = test::plummer_state(3001, 8);
    g6::Config c;
    c.precision = p, c.npipes = 256, c.jmemory = 4096;
    Boards b = boards(c, s);
    if (!b.gpu) GTEST_SKIP() << b.why;
    g6::Device &gpu = *b.gpu, &cpu = *b.cpu;
    std::vector<int> index(ni), nn_g(ni), nn_c(ni);
    std::vector<double> xi(3 * ni), vi(3 * ni), h2(ni, 0.01), ag(3 * ni), jg(3 * ni), pg(ni), ac(3 * ni),
        jc(3 * ni), pc(ni);
    for (int i = 0; i < ni; ++i) {
        const int from = (13 * i) % 3001;
        index[i] = from;
        for (int k = 0; k < 3; ++k) xi[3 * i + k] = 0.5 * (&s.pos_mass[from].x)[k], vi[3 * i + k] = (&s.vel[from].x)[k];
    }
    auto as3 = [](std::vector<double>& v) { return reinterpret_cast<double(*)[3]>(v.data()); };
    for (g6::Device* d : {&gpu, &cpu}) {
        ASSERT_EQ(d->set_ti(0.0625), 0);
        ASSERT_EQ(d->firsthalf(nj, ni, index.data(), as3(xi), as3(vi), 1e-4, h2.data()), 0);
    }
    ASSERT_EQ(gpu.lasthalf(ni, as3(ag), as3(jg), pg.data(), nn_g.data()), 0);
    ASSERT_EQ(cpu.lasthalf(ni, as3(ac), as3(jc), pc.data(), nn_c.data()), 0);
    double amax = 0, jmax = 0, pmax = 0;
    for (int k = 0; k < 3 * ni; ++k) amax = std::max(amax, std::fabs(ac[k])), jmax = std::max(jmax, std::fabs(jc[k]));
    for (int i = 0; i < ni; ++i) pmax = std::max(pmax, std::fabs(pc[i]));
    for (int k = 0; k < 3 * ni; ++k) {
        EXPECT_NEAR(ag[k], ac[k], tolerance * amax) << "acc " << k;
        EXPECT_NEAR(jg[k], jc[k], 10 * tolerance * jmax) << "jerk " << k;
    }
    for (int i = 0; i < ni; ++i) EXPECT_NEAR(pg[i], pc[i], tolerance * pmax) << "pot " << i;
    EXPECT_EQ(nn_g, nn_c);
}

}  // namespace

TEST(G6Cuda, Fp64MatchesTheCpu) { compare(Precision::Fp64, 1e-12); }
TEST(G6Cuda, DsMatchesTheCpu) { compare(Precision::DS, 2e-6); }
TEST(G6Cuda, Fp32MatchesTheCpu) { compare(Precision::Fp32, 1e-4); }
TEST(G6Cuda, EveryBatchShapeMatchesTheCpu) {
    for (const int nj : {1, 2, 127, 129, 3001})
        for (const int ni : {1, 2, 33, 129, 256}) {
            SCOPED_TRACE("nj " + std::to_string(nj) + ", ni " + std::to_string(ni));
            compare(Precision::Fp64, 1e-12, nj, ni);
            compare(Precision::DS, 2e-6, nj, ni);
        }
}

// A batch queued and never collected (firsthalf twice), then one collected: the second's results, whole.
TEST(G6Cuda, AnUncollectedBatchDoesNotSpoilTheNext) {
    g6::Config c;
    c.npipes = 64, c.jmemory = 512;
    Boards b = boards(c, test::plummer_state(512, 3));
    if (!b.gpu) GTEST_SKIP() << b.why;
    g6::Device &gpu = *b.gpu, &cpu = *b.cpu;
    std::vector<int> index(64);
    std::vector<double> xa(3 * 64, 0.25), xb(3 * 64, -0.5), v(3 * 64, 0.0), a(3 * 64), j(3 * 64), p(64), ac(3 * 64),
        jc(3 * 64), pc(64);
    auto as3 = [](std::vector<double>& w) { return reinterpret_cast<double(*)[3]>(w.data()); };
    for (int i = 0; i < 64; ++i) xb[3 * i] += 0.01 * i;
    ASSERT_EQ(gpu.set_ti(0.0), 0);
    ASSERT_EQ(cpu.set_ti(0.0), 0);
    ASSERT_EQ(gpu.firsthalf(512, 64, index.data(), as3(xa), as3(v), 1e-4, nullptr), 0);
    ASSERT_EQ(gpu.firsthalf(512, 64, index.data(), as3(xb), as3(v), 1e-4, nullptr), 0);
    ASSERT_EQ(cpu.firsthalf(512, 64, index.data(), as3(xb), as3(v), 1e-4, nullptr), 0);
    ASSERT_EQ(gpu.lasthalf(64, as3(a), as3(j), p.data(), nullptr), 0);
    ASSERT_EQ(cpu.lasthalf(64, as3(ac), as3(jc), pc.data(), nullptr), 0);
    for (int k = 0; k < 3 * 64; ++k) EXPECT_NEAR(a[k], ac[k], 1e-5 * std::fabs(ac[k]) + 1e-9) << k;
    for (int i = 0; i < 64; ++i) EXPECT_NEAR(p[i], pc[i], 1e-5 * std::fabs(pc[i])) << i;
}
