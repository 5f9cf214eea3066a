// The GRAPE-6 library (src/g6, g6lib.h): GRAPE's factor conventions in the j-particle prediction, forces equal
// to the project's Hermite force loops, nearest neighbours and neighbour lists against brute force, and the C
// client tests/g6/g6_plummer.c (4th-order Hermite, N = 1,024 Plummer, shared steps to t = 1) whose energy
// error matches the project's own Hermite integrator on the same state within a factor of 2.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "core/physics/diagnostics.hpp"
#include "cpu/cpu_backend.hpp"
#include "g6/g6lib.h"
#include "test_util.hpp"

using namespace nbody;
using nbody::test::plummer_state;
namespace fs = std::filesystem;

namespace {

void write_bodies(const State& s, const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "w");
    ASSERT_TRUE(f);
    std::fprintf(f, "%zu\n", s.size());
    for (std::size_t i = 0; i < s.size(); ++i)
        std::fprintf(f, "%.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", s.pos_mass[i].w, s.pos_mass[i].x,
                     s.pos_mass[i].y, s.pos_mass[i].z, s.vel[i].x, s.vel[i].y, s.vel[i].z);
    std::fclose(f);
}

State read_bodies(const std::string& path) {
    std::ifstream in(path);
    std::size_t n = 0;
    in >> n;
    State s;
    s.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        in >> s.pos_mass[i].w >> s.pos_mass[i].x >> s.pos_mass[i].y >> s.pos_mass[i].z >> s.vel[i].x >>
            s.vel[i].y >> s.vel[i].z;
    return s;
}

}  // namespace

TEST(G6, JParticlesArePredictedWithGrapeFactors) {
    ASSERT_EQ(g6_open(0), 0);
    double x[3] = {1, 0, 0}, v[3] = {0.5, 0.25, 0}, a2[3] = {0.1, -0.2, 0.3}, j6[3] = {0.05, 0.02, -0.04};
    double k18[3] = {0, 0, 0};
    ASSERT_EQ(g6_set_j_particle(7, 0, 42, 0.25, 0.5, 2.0, k18, j6, a2, v, x), 0);  // cluster id ignored
    ASSERT_EQ(g6_set_ti(0, 0.75), 0);
    int index[1] = {0};
    double xi[1][3] = {{0, 0, 0}}, vi[1][3] = {{0, 0, 0}}, acc[1][3], jerk[1][3], pot[1], h2[1] = {0};
    g6calc_firsthalf(0, 1, 1, index, xi, vi, acc, jerk, pot, 0.0, h2);
    int nn[1] = {-5};
    ASSERT_EQ(g6calc_lasthalf2(0, 1, 1, index, xi, vi, 0.0, h2, acc, jerk, pot, nn), 0);
    const double dt = 0.5;
    double p[3];
    for (int k = 0; k < 3; ++k) p[k] = x[k] + v[k] * dt + a2[k] * dt * dt + j6[k] * dt * dt * dt;
    const double r = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(acc[0][k], 2.0 * p[k] / (r * r * r), 1e-6 * 2.0 / (r * r)) << k;
    EXPECT_NEAR(pot[0], -2.0 / r, 1e-6 / r);
    EXPECT_EQ(nn[0], 42);  // the j-particle's index, not its address
    g6_close(0);
}

TEST(G6, ForcesNeighboursAndListsMatchBruteForce) {
    setenv("NBODY_G6_PRECISION", "fp64", 1);
    setenv("NBODY_G6_NPIPES", "16", 1);
    ASSERT_EQ(g6_open(0), 0);
    unsetenv("NBODY_G6_PRECISION"), unsetenv("NBODY_G6_NPIPES");
    ASSERT_EQ(g6_npipes(), 16);
    const State s = plummer_state(100, 4);
    double zero[3] = {0, 0, 0};
    for (int i = 0; i < 100; ++i) {
        double x[3] = {s.pos_mass[i].x, s.pos_mass[i].y, s.pos_mass[i].z}, v[3] = {s.vel[i].x, s.vel[i].y, s.vel[i].z};
        ASSERT_EQ(g6_set_j_particle(0, i, 1000 + i, 0, 0, s.pos_mass[i].w, zero, zero, zero, v, x), 0);
    }
    ASSERT_EQ(g6_set_ti(0, 0), 0);
    int index[16], nn[16];
    double xi[16][3], vi[16][3], acc[16][3], jerk[16][3], pot[16], h2[16];
    for (int i = 0; i < 16; ++i) {
        index[i] = 20 + i, h2[i] = 0.04;
        xi[i][0] = s.pos_mass[20 + i].x, xi[i][1] = s.pos_mass[20 + i].y, xi[i][2] = s.pos_mass[20 + i].z;
        vi[i][0] = s.vel[20 + i].x, vi[i][1] = s.vel[20 + i].y, vi[i][2] = s.vel[20 + i].z;
    }
    const double eps2 = 1e-4;
    g6calc_firsthalf(0, 100, 16, index, xi, vi, acc, jerk, pot, eps2, h2);
    ASSERT_EQ(g6calc_lasthalf2(0, 100, 16, index, xi, vi, eps2, h2, acc, jerk, pot, nn), 0);
    ASSERT_EQ(g6_read_neighbour_list(0), 0);
    for (int i = 0; i < 16; ++i) {
        double a[3] = {0, 0, 0}, ph = 0, best = HUGE_VAL;
        int nearest = -1, count = 0;
        for (int j = 0; j < 100; ++j) {
            const double d[3] = {s.pos_mass[j].x - xi[i][0], s.pos_mass[j].y - xi[i][1], s.pos_mass[j].z - xi[i][2]};
            const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
            if (r2 == 0) continue;
            const double rinv = 1 / std::sqrt(r2 + eps2);
            for (int k = 0; k < 3; ++k) a[k] += s.pos_mass[j].w * d[k] * rinv * rinv * rinv;
            ph -= s.pos_mass[j].w * rinv;
            if (r2 < best) best = r2, nearest = 1000 + j;
            if (r2 < h2[i]) ++count;
        }
        for (int k = 0; k < 3; ++k) EXPECT_NEAR(acc[i][k], a[k], 1e-12 * (1 + std::fabs(a[k])));
        EXPECT_NEAR(pot[i], ph, 1e-12 * std::fabs(ph));
        EXPECT_EQ(nn[i], nearest);
        int n = -1, list[100];
        EXPECT_EQ(g6_get_neighbour_list(0, i, 100, &n, list), 0);
        EXPECT_EQ(n, count);
        if (count > 1) {
            EXPECT_EQ(g6_get_neighbour_list(0, i, 1, &n, list), 1) << "a list longer than maxlength says so";
            EXPECT_EQ(n, 1);
        }
    }
    EXPECT_LT(g6_get_neighbour_list(0, 16, 100, nn, index), 0);  // ipipe past the batch
    g6_close(0);
}

TEST(G6, HermitePlummerClientMatchesTheProjectsIntegrator) {
    const fs::path dir = fs::temp_directory_path() / ("nbody_g6_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const State s0 = plummer_state(1024, 9);
    const double dt = 1.0 / 128, eps = 0.05;
    write_bodies(s0, (dir / "in.txt").string());
    char numbers[96];
    std::snprintf(numbers, sizeof numbers, " %.17g 1 %.17g", dt, eps * eps);
    const std::string cmd = std::string(NBODY_G6_PLUMMER) + " " + (dir / "in.txt").string() + " " +
                            (dir / "out.txt").string() + numbers;
    const int status = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << cmd;
    const State g6_end = read_bodies((dir / "out.txt").string());

    SimParams p;
    p.integrator = Integrator::Hermite, p.precision = Precision::DS, p.dt = dt, p.eps = eps;
    CpuBackend own(0);
    own.reset(s0, p);
    own.step(128);
    State own_end;
    own.read_state(own_end);
    const Diagnostics d0 = compute_diagnostics(s0, eps, 1.0, 0);
    const double e_g6 = std::fabs(relative_energy_error(d0, compute_diagnostics(g6_end, eps, 1.0, 0)));
    const double e_own = std::fabs(relative_energy_error(d0, compute_diagnostics(own_end, eps, 1.0, 0)));
    std::printf("energy error at t = 1: g6 client %.3e, the project's Hermite %.3e (ratio %.3f)\n", e_g6, e_own,
                e_g6 / e_own);
    EXPECT_GT(e_own, 0.0);
    EXPECT_LT(e_g6, 2 * e_own);
    EXPECT_GT(e_g6, e_own / 2);
    fs::remove_all(dir);
}
