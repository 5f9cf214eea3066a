// Run under mpirun (ctest does: tests/mpi/CMakeLists.txt): the CPU backend distributed over the ranks
// against one rank, after many steps. Every rank builds the same initial state; rank 0 also runs it alone
// and compares bits. Exit 0 on identical states, 1 otherwise (ctest reads mpirun's exit status).
// Faults: --hang makes the last rank stop answering (sleeps) after the first step, --die makes it exit
// there; the others must end with a message within the exchange timeout (2 s here), never hang.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <thread>

#include "cpu/cpu_backend.hpp"
#include "multi/distributed_backend.hpp"
#include "multi/mpi_exchange.hpp"
#include "scene/scene.hpp"

int main(int argc, char** argv) {
    using namespace nbody;
    const std::string fault = argc > 1 ? argv[1] : "";
    try {
        const State s0 = build_scene(henon_plummer_scene(1001, 11));  // odd N: unequal ranges
        SimParams p;
        p.dt = 0.002;
        const int steps = 400;
        DistributedBackend d(std::make_unique<CpuBackend>(1), exchange_from_environment());
        d.reset(s0, p);
        if (!fault.empty()) {
            d.exchange().timeout = std::chrono::seconds(2);
            d.step(1);
            if (d.exchange().rank() == d.exchange().size() - 1) {
                if (fault == "--die") std::_Exit(9);
                std::this_thread::sleep_for(std::chrono::seconds(60));
            }
        }
        d.step(steps);
        State got;
        d.read_state(got);  // collective
        if (d.exchange().rank() != 0) return 0;
        CpuBackend single(1);
        single.reset(s0, p);
        single.step(steps);
        State want;
        single.read_state(want);
        const std::size_t bytes = want.size() * sizeof(Double4);
        std::size_t differing = 0;
        for (std::size_t i = 0; i < want.size(); ++i)
            differing += std::memcmp(&got.pos_mass[i], &want.pos_mass[i], sizeof(Double4)) != 0 ||
                         std::memcmp(&got.vel[i], &want.vel[i], sizeof(Double4)) != 0;
        std::printf("%s: N %zu, %d steps: %zu of %zu bodies differ from one rank (%zu bytes compared)\n",
                    d.exchange().name().c_str(), want.size(), steps, differing, want.size(), 2 * bytes);
        return differing == 0 && d.exchange().size() > 1 ? 0 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "test_mpi_distributed: %s\n", e.what());
        return 2;
    }
}
