// nbody-sandbox: watch galaxies collide. With a display it opens the interactive window; --headless with
// --frames/--screenshot/--record renders off-screen through EGL; plain --headless simulates and prints a
// summary.
#include <csignal>
#include <cstdio>
#include <exception>

#include "app/backend_factory.hpp"
#include "app/headless_run.hpp"
#include "app/options.hpp"
#include "app/sandbox.hpp"
#include "core/errors.hpp"
#include "multi/distributed_backend.hpp"
#include "scene/scene.hpp"

namespace {

int run_summary(const nbody::AppOptions& o) {
    using namespace nbody;
    const RunSetup setup = prepare_run(o);
    std::string note;
    auto backend = make_backend(setup.params, &note);
    if (!o.quiet) std::fprintf(stderr, "%s\n", note.c_str());
    backend->reset(initial_state(setup), setup.params);
    const RunSummary s = run_headless(*backend, setup, o);
    std::printf("%s", summary_text(s).c_str());
    if (!o.json_path.empty()) write_summary_json(s, o.json_path);
    return 0;
}

// Started by mpirun as one of several ranks: one simulation over all of them on the CPU (DistributedBackend).
// Every rank builds the same scene and runs the same loop (the exchanges are collective); only rank 0
// prints and writes files.
int run_ranks(const nbody::AppOptions& o) {
    using namespace nbody;
    if (!o.headless || o.renders_offscreen())
        throw Error(
            "a run over MPI ranks is headless only: nbody-sandbox --headless [--steps N ...] "
            "(no window, --frames, --screenshot or --record)");
    if (o.backend == "cuda")
        throw Error(
            "--backend cuda over MPI ranks is not built yet: ranks run the CPU backend "
            "(use --gpus N in one process for several GPUs)");
    auto exchange = make_mpi_exchange(o.rank_timeout);
    const int rank = exchange->rank();
    AppOptions mine = o;
    if (rank != 0) mine.quiet = true, mine.save_path.clear(), mine.json_path.clear();
    const RunSetup setup = prepare_run(mine);
    DistributedBackend backend(std::move(exchange), setup.params.cpu_threads);
    if (rank == 0 && !o.quiet) std::fprintf(stderr, "%s\n", backend.name().c_str());
    backend.reset(initial_state(setup), setup.params);
    const RunSummary s = run_headless(backend, setup, mine);
    if (rank != 0) return 0;
    std::printf("%s", summary_text(s).c_str());
    if (!o.json_path.empty()) write_summary_json(s, o.json_path);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace nbody;
    auto parsed = parse_command_line(argc, argv);
    if (auto* code = std::get_if<int>(&parsed)) return *code;
    const AppOptions& o = std::get<AppOptions>(parsed);
    std::signal(SIGPIPE, SIG_IGN);  // a dying ffmpeg must give a write error, not kill the program
    try {
        if (launcher_world_size() > 1) return run_ranks(o);
        if (!o.headless) return run_window(o);
        if (o.renders_offscreen()) return run_offscreen(o);
        return run_summary(o);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
}
