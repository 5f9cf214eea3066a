#pragma once
// Snapshots and checkpoints in HDF5, laid out as GADGET/SWIFT snapshots so h5py, yt and pynbody read them:
//
//   /Header               attributes NumPart_ThisFile, NumPart_Total, NumPart_Total_HighWord (uint32[6]),
//                         MassTable (double[6], zeros: every body has its own mass), Time, Redshift (0),
//                         BoxSize (0: open boundaries), NumFilesPerSnapshot (1), Omega0, OmegaLambda (0),
//                         HubbleParam (1), Flag_DoublePrecision (1); and the sandbox's GravitationalConstant,
//                         Softening, TimeStep, Scene
//   /PartType1/Coordinates (N x 3, float64), Velocities (N x 3), Masses (N), ParticleIDs (N, uint64 0..N-1),
//              GroupIDs (N, uint32: the scene component each body came from)
//
// A checkpoint adds /Checkpoint (Format, Time, Steps, Scene, GroupLabels), /Checkpoint/Parameters (every
// SimParams field: the enumerations by name, the force method's parameters by their registry names) and
// /Checkpoint/Integrator (the backend's IntegratorState: one float64 dataset per array, one attribute per
// scalar, their names in ArrayNames and ScalarNames), so a run continues bit for bit.
// Checkpoints are written atomically: a temporary file in the same folder, flushed, fsync'd and renamed over
// the old one, so a kill at any moment leaves the previous checkpoint whole.
//
// Readers check everything and throw nbody::Error "file: /object[attribute]: what is wrong".
// Without HDF5 at configure time every function throws Error saying HDF5 support is not built.
#include <optional>
#include <string>
#include <vector>

#include "core/backend/integrator_state.hpp"
#include "core/rows/sim_params.hpp"
#include "io/snapshot.hpp"

namespace nbody {

struct Hdf5Checkpoint {
    long long steps = 0;
    SimParams params;
    std::vector<std::string> group_labels;
    std::optional<IntegratorState> integrator;  // absent: resume from the snapshot's state (leap-frog exact)
};

struct Hdf5File {
    Snapshot snapshot;                       // the particles, time, G, eps, dt and scene name
    std::optional<Hdf5Checkpoint> checkpoint;  // present in a checkpoint
};

bool hdf5_supported();  // false where the build has no HDF5

// Writes `f` to `path` atomically (temporary file beside it, fsync, rename). Throws Error naming the path.
void write_hdf5(const Hdf5File& f, const std::string& path);

Hdf5File read_hdf5(const std::string& path);
// The same from a file image in memory (the fuzz target); `name` is used in messages.
Hdf5File read_hdf5_image(const void* data, std::size_t size, const std::string& name);

}  // namespace nbody
