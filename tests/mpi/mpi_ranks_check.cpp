// Run under mpirun: one simulation (Plummer sphere, N = 1001, 100 leap-frog steps, CPU backend) over every
// rank; rank 0 also runs it alone on the CPU backend and requires the two to agree bit for bit (the force
// rows and kicks are the same arithmetic in the same order). Exit status 0 on agreement, 1 otherwise.
// With NBODY_TEST_RANK_FAULT=hang:1 (mpi_exchange.cpp) rank 1 stops answering and rank 0 must abort the job
// after the timeout instead of waiting forever.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cpu/cpu_backend.hpp"
#include "multi/distributed_backend.hpp"
#include "scene/generators.hpp"
#include "scene/scene.hpp"

using namespace nbody;

int main(int argc, char** argv) {
    // argv[1]: the rank timeout in seconds (default 60); the fault test passes a short one.
    auto ex = make_mpi_exchange(argc > 1 ? std::atof(argv[1]) : 60.0);
    const int rank = ex->rank(), ranks = ex->size();
    const State s0 = build_scene(henon_plummer_scene(1001, 7));
    SimParams p;
    p.eps = 0.02;
    p.dt = 0.005;
    p.cpu_threads = 1;
    DistributedBackend dist(std::move(ex), 1);
    dist.reset(s0, p);
    dist.step(40);
    dist.step(60);
    State got;
    dist.read_state(got);
    if (rank != 0) return 0;

    CpuBackend cpu(1);
    cpu.reset(s0, p);
    cpu.step(100);
    State want;
    cpu.read_state(want);
    double max_dx = 0, max_dv = 0;
    for (std::size_t i = 0; i < want.size(); ++i) {
        max_dx = std::fmax(max_dx, std::fabs(got.pos_mass[i].x - want.pos_mass[i].x));
        max_dv = std::fmax(max_dv, std::fabs(got.vel[i].x - want.vel[i].x));
    }
    const bool same =
        std::memcmp(got.pos_mass.data(), want.pos_mass.data(), want.size() * sizeof(Double4)) == 0 &&
        std::memcmp(got.vel.data(), want.vel.data(), want.size() * sizeof(Double4)) == 0;
    const bool moved =
        std::memcmp(got.pos_mass.data(), s0.pos_mass.data(), want.size() * sizeof(Double4)) != 0;
    std::printf("%d ranks vs 1, N = %zu, 100 steps: %s (max |dx| %.3g, max |dv| %.3g)%s\n", ranks,
                want.size(), same ? "bit-identical" : "DIFFERENT", max_dx, max_dv,
                moved ? "" : "; the bodies did not move!");
    return same && moved && ranks > 1 ? 0 : 1;
}
