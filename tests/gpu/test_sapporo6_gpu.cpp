// libnbody_sapporo6's CUDA engine against its CPU reference (float64), through the C interface: fp64 to 1e-12
// relative in acceleration, jerk and snap, the potential and the nearest neighbour; double-single to the
// float pair terms' accuracy. Skips where no CUDA device works.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "../unit/sapporo6_fixture.hpp"

namespace nbody::test {
namespace {

struct DeviceRun {
    Sapporo6Out out;
    std::string device;
};

// The whole sequence on one device: set, predict, read back as i-particles (plus `extra` more), forces.
// devices: initialize_special's list (empty: initialize()).
DeviceRun run_on(const char* device, int nj, int ni_extra, const char* precision = "fp64",
                 std::vector<int> devices = {}) {
    setenv("NBODY_SAPPORO6_DEVICE", device, 1);
    setenv("NBODY_SAPPORO6_PRECISION", precision, 1);
    setenv("NBODY_SAPPORO6_NPIPES", "1000", 1);  // several batches for the larger cases
    if (devices.empty())
        initialize();
    else
        initialize_special(int(devices.size()), devices.data());
    DeviceRun r{Sapporo6Out(0), sapporo6_device()};
    if (*sapporo6_last_error()) {
        r.device = std::string("error: ") + sapporo6_last_error();
        cleanup();
        return r;
    }
    Sapporo6Cluster cl(nj, 17 + unsigned(nj));
    cl.set_all();
    predict_all(0.2, nj);
    Sapporo6In in = picked_up(nj);
    const Sapporo6Cluster more(ni_extra, 99);
    for (int k = 0; k < ni_extra; ++k) {
        in.x.push_back(more.x[k]), in.v.push_back(more.v[k]), in.a.push_back(more.a[k]);
        in.mass.push_back(more.mass[k]), in.eps2.push_back(2e-3), in.id.push_back(-1 - k);
    }
    r.out = Sapporo6Out(int(in.id.size()));
    calc(in, nj, r.out);
    EXPECT_STREQ(sapporo6_last_error(), "") << device;
    cleanup();
    return r;
}

// "" where the CUDA engine opens, else why not.
std::string why_no_cuda() {
    setenv("NBODY_SAPPORO6_DEVICE", "cuda", 1);
    ::testing::internal::CaptureStderr();
    initialize();
    ::testing::internal::GetCapturedStderr();
    const std::string why = sapporo6_last_error();
    cleanup();
    return why;
}

// On one device, and through initialize_special on three engines of GPU 0 (the several-GPU path: the rows
// split over the engines, each in its own host thread).
TEST(Sapporo6Gpu, Fp64MatchesTheCpuReference) {
    if (const std::string why = why_no_cuda(); !why.empty()) GTEST_SKIP() << "no usable CUDA device: " << why;
    for (const std::vector<int>& devices : {std::vector<int>{}, std::vector<int>{0, 0, 0}})
        for (auto [nj, extra] : {std::pair{1, 1}, {2, 0}, {33, 100}, {129, 3}, {3001, 2500}}) {
            const DeviceRun gpu = run_on("cuda", nj, extra, "fp64", devices), cpu = run_on("cpu", nj, extra);
            ASSERT_EQ(gpu.device, "cuda");
            ASSERT_EQ(cpu.device, "cpu");
            double worst[3] = {0, 0, 0};
            for (std::size_t i = 0; i < cpu.out.phi.size(); ++i) {
                const Sapporo6Out &g = gpu.out, &c = cpu.out;
                if (nj == 1 && i == 0) {  // only itself there: nothing, no neighbour
                    EXPECT_EQ(g.nnb[i], -1);
                    continue;
                }
                worst[0] = std::max(worst[0], rel3(g.acc[i], c.acc[i]));
                worst[1] = std::max(worst[1], rel3(g.jrk[i], c.jrk[i]));
                worst[2] = std::max(worst[2], rel3(g.snp[i], c.snp[i]));
                EXPECT_NEAR(g.phi[i], c.phi[i], 1e-12 * std::fabs(c.phi[i])) << "nj " << nj << " i " << i;
                EXPECT_EQ(g.nnb[i], c.nnb[i]) << "nj " << nj << " i " << i;
                EXPECT_NEAR(g.r2[i], c.r2[i], 1e-14 * c.r2[i]) << "nj " << nj << " i " << i;
                EXPECT_EQ(g.crk[i], (Vec{0, 0, 0}));
            }
            EXPECT_LE(worst[0], 1e-12) << "acc, nj " << nj;
            EXPECT_LE(worst[1], 1e-12) << "jerk, nj " << nj;
            EXPECT_LE(worst[2], 1e-12) << "snap, nj " << nj;
            std::printf("%zu devices, nj %d ni %zu: worst relative difference acc %.3g jerk %.3g snap %.3g\n",
                        std::max<std::size_t>(1, devices.size()), nj, cpu.out.phi.size(), worst[0], worst[1],
                        worst[2]);
        }
}

// Double-single: dr from float hi + lo parts, the pair terms in float, summed in float over a tile and in
// double over tiles. Measured on an H100: at most 6.6e-7 (acc), 3.6e-6 (jerk), 4.5e-6 (snap) on these cases.
TEST(Sapporo6Gpu, DoubleSingleIsWithinFloatAccuracyOfTheCpuReference) {
    if (const std::string why = why_no_cuda(); !why.empty()) GTEST_SKIP() << "no usable CUDA device: " << why;
    for (auto [nj, extra] : {std::pair{33, 100}, {129, 3}, {3001, 2500}}) {
        const DeviceRun gpu = run_on("cuda", nj, extra, "ds"), cpu = run_on("cpu", nj, extra);
        ASSERT_EQ(gpu.device, "cuda");
        double worst[3] = {0, 0, 0};
        for (std::size_t i = 0; i < cpu.out.phi.size(); ++i) {
            worst[0] = std::max(worst[0], rel3(gpu.out.acc[i], cpu.out.acc[i]));
            worst[1] = std::max(worst[1], rel3(gpu.out.jrk[i], cpu.out.jrk[i]));
            worst[2] = std::max(worst[2], rel3(gpu.out.snp[i], cpu.out.snp[i]));
            EXPECT_NEAR(gpu.out.phi[i], cpu.out.phi[i], 1e-5 * std::fabs(cpu.out.phi[i]));
            EXPECT_NEAR(gpu.out.r2[i], cpu.out.r2[i],
                        1e-5 * cpu.out.r2[i]);  // float distances: ties may differ
        }
        EXPECT_LE(worst[0], 1e-5) << "acc, nj " << nj;
        EXPECT_LE(worst[1], 5e-5) << "jerk, nj " << nj;
        EXPECT_LE(worst[2], 1e-4) << "snap, nj " << nj;
        std::printf("ds nj %d ni %zu: worst relative difference acc %.3g jerk %.3g snap %.3g\n", nj,
                    cpu.out.phi.size(), worst[0], worst[1], worst[2]);
    }
    unsetenv("NBODY_SAPPORO6_PRECISION");
}

}  // namespace
}  // namespace nbody::test
