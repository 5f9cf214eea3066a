// nbody-hermite-cost: accuracy for the cost of the CPU's 4th- and 6th-order block-step Hermite integrators on
// a Plummer sphere (Henon units): for each integrator and eta, the relative energy error at t_end against the
// force evaluations (sum of active bodies over the block steps, and pairs) and the wall time.
//   nbody-hermite-cost [N [T_END [EPS [THREADS [ETAS4 [ETAS6]]]]]]   defaults 2048 1 1/256 2 and the etas below
// (ETAS4, ETAS6: comma-separated etas for hermite-block and hermite6-block)
// One row a run: integrator, eta, block steps, i-body force evaluations, pairs, wall seconds, |dE/E|.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

#include "core/diagnostics.hpp"
#include "cpu/cpu_backend.hpp"
#include "scene/scene.hpp"

using namespace nbody;

namespace {

struct Run {
    long long steps;
    double pairs, seconds, energy_error;
};

Run run(const State& s0, Integrator in, double eta, double t_end, double eps, int threads) {
    SimParams p;
    p.integrator = in;
    p.precision = Precision::Fp64;
    p.dt = 0.0625;  // the largest block step
    p.eps = eps;
    p.eta = eta;
    p.cpu_threads = threads;
    CpuBackend b(threads);
    const auto start = std::chrono::steady_clock::now();
    b.reset(s0, p);
    while (b.time() < t_end) b.step(1);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    State s;
    b.read_state(s);
    const double de = relative_energy_error(compute_diagnostics(s0, eps, 1.0, threads),
                                            compute_diagnostics(s, eps, 1.0, threads));
    return {b.steps_taken(), b.work().pairs, seconds, de};
}

std::vector<double> numbers(const char* list) {
    std::vector<double> out;
    for (char* end = nullptr; *list; list = *end ? end + 1 : end) out.push_back(std::strtod(list, &end));
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    const std::size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 2048;
    const double t_end = argc > 2 ? std::atof(argv[2]) : 1.0, eps = argc > 3 ? std::atof(argv[3]) : 1.0 / 256;
    const int threads = argc > 4 ? std::atoi(argv[4]) : 2;
    const std::vector<double> etas4 = argc > 5 ? numbers(argv[5]) : std::vector<double>{0.02, 0.01, 0.005, 0.0025};
    const std::vector<double> etas6 = argc > 6 ? numbers(argv[6]) : std::vector<double>{0.16, 0.08, 0.04, 0.02};
    bool etas_ok = !etas4.empty() || !etas6.empty();
    for (const auto* list : {&etas4, &etas6})
        for (double eta : *list) etas_ok = etas_ok && eta > 0 && eta <= 1;
    if (n < 2 || !(t_end > 0) || !(eps >= 0) || threads < 1 || !etas_ok) {
        std::fprintf(stderr, "nbody-hermite-cost: N >= 2, T_END > 0, EPS >= 0, THREADS >= 1, each eta in (0, 1]\n");
        return 2;
    }
    const State s0 = build_scene(henon_plummer_scene(n, 7));
    std::printf("N %zu, t_end %g, eps %g, %d threads, fp64, dt max 0.0625\n", n, t_end, eps, threads);
    std::printf("%-15s %8s %11s %14s %12s %9s %11s\n", "integrator", "eta", "block steps", "i-body forces",
                "pairs", "wall s", "|dE/E|");
    // Each order with its own eta list: the two orders' etas mean different steps.
    const std::pair<Integrator, const std::vector<double>*> runs[] = {{Integrator::HermiteBlock, &etas4},
                                                                     {Integrator::Hermite6Block, &etas6}};
    for (const auto& [in, etas] : runs)
        for (double eta : *etas) {
            const Run r = run(s0, in, eta, t_end, eps, threads);
            std::printf("%-15s %8g %11lld %14.4g %12.4g %9.2f %11.3e\n", integrator_name(in).data(), eta, r.steps,
                        r.pairs / double(n), r.pairs, r.seconds, r.energy_error);
            std::fflush(stdout);
        }
    return 0;
}
