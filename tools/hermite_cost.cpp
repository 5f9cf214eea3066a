// nbody-hermite-cost: accuracy for the cost of the 4th- and 6th-order block-step Hermite integrators on a
// Plummer sphere (Henon units), on the CPU reference or a GPU backend: for each integrator and eta, the
// relative energy error at t_end against the force evaluations (sum of active bodies over the block steps,
// and pairs) and the wall time.
//   nbody-hermite-cost [N [T_END [EPS [THREADS [ETAS4 [ETAS6 [BACKEND [PRECISION]]]]]]]]
// defaults 2048 1 1/256 2, the etas below, cpu, fp64 (ETAS4, ETAS6: comma-separated etas for hermite-block
// and hermite6-block; BACKEND cpu or cuda; PRECISION fp64 or ds) One row a run: integrator, eta, block steps,
// i-body force evaluations, pairs, wall seconds, |dE/E|, and the time the run ended (t_end or a few block
// steps past it).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/physics/diagnostics.hpp"
#include "core/errors.hpp"
#include "engine/backend_factory.hpp"
#include "scene/scene.hpp"
#include "core/rows/integrator.hpp"

using namespace nbody;

namespace {

struct Run {
    long long steps;
    double pairs, seconds, energy_error, t;
};

Run run(const State& s0, SimParams p, Integrator in, double eta, double t_end, double eps, int threads) {
    p.integrator = in;
    p.dt = 0.0625;  // the largest block step
    p.eps = eps;
    p.eta = eta;
    p.cpu_threads = threads;
    const std::unique_ptr<Backend> b = make_backend(p);
    const auto start = std::chrono::steady_clock::now();
    b->reset(s0, p);
    // Block steps 16 a call (a GPU backend reads its counters once per call; one at a time would cost a
    // device round trip each): the run may pass t_end by up to 15 block steps, and says where it ended.
    while (b->time() < t_end) b->step(16);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    State s;
    b->read_state(s);
    const double de = relative_energy_error(compute_diagnostics(s0, eps, 1.0, threads),
                                            compute_diagnostics(s, eps, 1.0, threads));
    return {b->steps_taken(), b->work().pairs, seconds, de, b->time()};
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
    const std::vector<double> etas4 =
        argc > 5 ? numbers(argv[5]) : std::vector<double>{0.02, 0.01, 0.005, 0.0025};
    const std::vector<double> etas6 =
        argc > 6 ? numbers(argv[6]) : std::vector<double>{0.16, 0.08, 0.04, 0.02};
    const std::optional<BackendKind> backend = parse_backend_kind(argc > 7 ? argv[7] : "cpu");
    const std::optional<Precision> precision = parse_precision(argc > 8 ? argv[8] : "fp64");
    bool etas_ok = !etas4.empty() || !etas6.empty();
    for (const auto* list : {&etas4, &etas6})
        for (double eta : *list) etas_ok = etas_ok && eta > 0 && eta <= 1;
    if (n < 2 || !(t_end > 0) || !(eps >= 0) || threads < 1 || !etas_ok || !backend || !precision) {
        std::fprintf(
            stderr,
            "nbody-hermite-cost: N >= 2, T_END > 0, EPS >= 0, THREADS >= 1, each eta in (0, 1], BACKEND "
            "cpu or cuda, PRECISION fp64 or ds\n");
        return 2;
    }
    SimParams base;
    base.backend = *backend;
    base.precision = *precision;
    const State s0 = build_scene(henon_plummer_scene(n, 7));
    std::printf("N %zu, t_end %g, eps %g, %d threads, %s on %s, dt max 0.0625\n", n, t_end, eps, threads,
                precision_name(*precision).data(), backend_kind_name(*backend).data());
    std::printf("%-15s %8s %11s %14s %12s %9s %11s %9s\n", "integrator", "eta", "block steps",
                "i-body forces", "pairs", "wall s", "|dE/E|", "t");
    // Each order with its own eta list: the two orders' etas mean different steps.
    const std::pair<Integrator, const std::vector<double>*> runs[] = {{Integrator::HermiteBlock, &etas4},
                                                                      {Integrator::Hermite6Block, &etas6}};
    for (const auto& [in, etas] : runs)
        for (double eta : *etas) {
            Run r{};
            try {
                r = run(s0, base, in, eta, t_end, eps, threads);
            } catch (const Error& e) {
                std::fprintf(stderr, "nbody-hermite-cost: %s eta %g: %s\n", integrator_name(in).data(), eta,
                             e.what());
                return 1;
            }
            std::printf("%-15s %8g %11lld %14.4g %12.4g %9.3f %11.3e %9.5f\n", integrator_name(in).data(),
                        eta, r.steps, r.pairs / double(n), r.pairs, r.seconds, r.energy_error, r.t);
            std::fflush(stdout);
        }
    return 0;
}
