#pragma once
// The command line of checkpoints: --checkpoint FILE, --checkpoint-every T, --resume FILE.
#include <string>

#include "app/options.hpp"

namespace CLI {
class App;
}

namespace nbody {

void add_checkpoint_options(CLI::App& app, AppOptions& o, const std::string& hdf5_note);

// --resume: the checkpoint's particles, time, parameters (--backend and --threads may still be given; the
// flags that would change the run are refused) and scene name into `r`; resume_backend finishes the job.
void adopt_checkpoint(RunSetup& r, const AppOptions& o);

// Before any simulation: ParamError naming the flag that needs HDF5 where the build has none.
void check_hdf5_flags(const AppOptions& o);

}  // namespace nbody
