// The GRAPE-6 library's GPU engine (cuda/g6_cuda.cu) against its CPU engine in float64: the same j-particles
// (with a2, j6 and their own times, so the device prediction is exercised), acceleration, jerk and potential of
// an i-batch in fp64 (1e-12), ds (2e-6) and fp32 (1e-4) relative to the largest component; nearest neighbours
// equal.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
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

void compare(Precision p, double tolerance) {
    const State s = test::plummer_state(3001, 8);
    g6::Config c;
    c.device = "cuda", c.precision = p, c.npipes = 256, c.jmemory = 4096;
    std::unique_ptr<g6::Device> gpu;
    try {
        gpu = std::make_unique<g6::Device>(c);
    } catch (const Error& e) {
        GTEST_SKIP() << "no usable CUDA device: " << e.what();
    }
    c.device = "cpu", c.precision = Precision::Fp64;
    g6::Device cpu(c);
    load(*gpu, s), load(cpu, s);
    const int ni = 200;
    std::vector<int> index(ni), nn_g(ni), nn_c(ni);
    std::vector<double> xi(3 * ni), vi(3 * ni), h2(ni, 0.01), ag(3 * ni), jg(3 * ni), pg(ni), ac(3 * ni),
        jc(3 * ni), pc(ni);
    for (int i = 0; i < ni; ++i) {
        index[i] = 10 * i;
        for (int k = 0; k < 3; ++k) xi[3 * i + k] = 0.5 * (&s.pos_mass[10 * i].x)[k], vi[3 * i + k] = (&s.vel[10 * i].x)[k];
    }
    auto as3 = [](std::vector<double>& v) { return reinterpret_cast<double(*)[3]>(v.data()); };
    for (g6::Device* d : {gpu.get(), &cpu}) {
        ASSERT_EQ(d->set_ti(0.0625), 0);
        ASSERT_EQ(d->firsthalf(3001, ni, index.data(), as3(xi), as3(vi), 1e-4, h2.data()), 0);
    }
    ASSERT_EQ(gpu->lasthalf(ni, as3(ag), as3(jg), pg.data(), nn_g.data()), 0);
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
