// nbody-sandbox: watch galaxies collide. With a display it opens the interactive window; --headless with
// --frames/--screenshot/--record renders off-screen through EGL; plain --headless simulates and prints a
// summary.
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <exception>

#include "app/checkpoint.hpp"
#include "app/checkpoint_options.hpp"
#include "app/headless_run.hpp"
#include "app/options.hpp"
#include "app/sandbox.hpp"
#include "core/errors.hpp"
#include "engine/backend_factory.hpp"
#include "gl_backend/gl_backend_factory.hpp"
#include "io/output_path.hpp"
#include "io/snapshot_file.hpp"
#include "multi/distributed_backend.hpp"
#include "scene/scene.hpp"

namespace {

int run_summary(const nbody::AppOptions& o) {
    using namespace nbody;
    const RunSetup setup = prepare_run(o);
    BackendChoice choice;
    int rank = 0;  // under mpirun every rank runs this; rank 0 alone prints and writes
    auto backend = make_rank_backend(setup.params, &choice, &rank);
    // --rank-timeout bounds every gather from reset on; the start-up barrier in DistributedBackend's
    // constructor keeps Exchange's default 60 s.
    if (auto* d = dynamic_cast<DistributedBackend*>(backend.get()))
        d->exchange().timeout = std::chrono::milliseconds(std::llround(o.rank_timeout * 1000));
    if (!backend) backend = make_sandbox_backend(setup.params, &choice);  // gl: its own headless EGL context
    reset_or_cpu(backend, initial_state(setup), setup.params, &choice);
    if (!o.quiet && rank == 0) std::fprintf(stderr, "%s\n", choice.note.c_str());
    if (setup.resume) resume_backend(*backend, *setup.resume);
    if (setup.scene.dt_auto && dynamic_cast<DistributedBackend*>(backend.get()))
        throw ParamError("--dt", "auto is chosen from one process's bodies; under mpirun give dt a number");
    AppOptions mine = o;
    if (rank != 0) mine.quiet = true, mine.save_path.clear(), mine.checkpoint_path.clear();
    const RunSummary s = run_headless(*backend, setup, mine);
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
        // Output paths checked before minutes of simulation, not after.
        if (!o.json_path.empty()) check_writable(o.json_path, "--json");
        if (!o.save_path.empty()) {
            check_writable(o.save_path, "--save");
            snapshot_format_of(o.save_path);  // an unknown extension: its error now, not after the run
        }
        if (!o.checkpoint_path.empty()) check_writable(o.checkpoint_path, "--checkpoint");
        check_hdf5_flags(o);
        if (!o.screenshot_path.empty()) check_writable(o.screenshot_path, "--screenshot");
        if (!o.headless) return run_window(o);
        if (o.renders_offscreen()) return run_offscreen(o);
        return run_summary(o);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
}
