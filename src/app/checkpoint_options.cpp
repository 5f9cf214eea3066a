#include "app/checkpoint_options.hpp"

#include <CLI/CLI.hpp>

#include "core/errors.hpp"
#include "io/snapshot_file.hpp"

namespace nbody {

void add_checkpoint_options(CLI::App& app, AppOptions& o, const std::string& hdf5_note) {
    auto* path = app.add_option("--checkpoint", o.checkpoint_path,
                                "Write an HDF5 checkpoint to this file (atomically: a kill leaves the previous "
                                "one whole) every --checkpoint-every, and at the end of a headless run" +
                                    hdf5_note);
    app.add_option("--checkpoint-every", o.checkpoint_every,
                   "Simulated time between checkpoints (> 0; 0 = only at the end)")
        ->check(CLI::Range(0.0, 1e300))
        ->needs(path);
    app.add_option("--resume", o.resume_path,
                   "Continue a run bit for bit from an HDF5 checkpoint (its parameters; --backend and --threads "
                   "may be given)" + hdf5_note)
        ->check(CLI::ExistingFile)
        ->excludes(app.get_option("--load-snapshot"));
}

void adopt_checkpoint(RunSetup& r, const AppOptions& o) {
    const bool changes_run = o.bodies || o.dt || o.dt_auto || o.eps || o.G || o.seed || !o.precision.empty() ||
                             !o.integrator.empty() || !o.method_params.empty();
    if (changes_run)
        throw ParamError("--resume", "a checkpoint resumes with the parameters it was written with; leave out "
                                     "--bodies, --dt, --eps, --G, --seed, --precision, --integrator and the method's "
                                     "parameters (--eta, --theta, ...)");
    auto file = std::make_shared<Hdf5File>(read_hdf5(o.resume_path));
    if (!file->checkpoint)
        throw Error(o.resume_path + ": not a checkpoint (no /Checkpoint group): use --load-snapshot for a snapshot");
    SimParams p = file->checkpoint->params;
    if (o.backend != "auto") p.backend = r.params.backend;
    p.cpu_threads = o.threads ? o.threads : p.cpu_threads;
    adopt_saved_scene(r.scene, file->snapshot.info.scene);
    r.saved_group_labels = file->checkpoint->group_labels;
    r.scene.dt_auto = false;  // the checkpoint's dt, chosen when the run began
    r.params = p;
    r.snapshot = file->snapshot.state;
    r.resume = std::move(file);
}

}  // namespace nbody

namespace nbody {

void check_hdf5_flags(const AppOptions& o) {
    if (hdf5_supported()) return;
    const std::pair<const char*, bool> uses[] = {
        {"--checkpoint", !o.checkpoint_path.empty()},
        {"--resume", !o.resume_path.empty()},
        {"--save", is_hdf5_path(o.save_path)},
        {"--load-snapshot", is_hdf5_path(o.snapshot_path)},
    };
    for (const auto& [flag, used] : uses)
        if (used) throw ParamError(flag, "HDF5 support is not built (install libhdf5-dev and reconfigure)");
}

}  // namespace nbody
