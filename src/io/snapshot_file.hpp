#pragma once
// Snapshot files by format, chosen in one place from the file's extension: every face (the sandbox's --save
// and --load-snapshot, the library's save() and from_snapshot(), Python) reads and writes through these.
//   CSV    *.csv                   exact float64, with G, eps, dt and the scene name (io/snapshot.hpp)
//   tipsy  *.tipsy, *.std, *.bin   float32, for other tools; no G or dt (io/tipsy.hpp)
//   HDF5   *.hdf5, *.h5            GADGET/SWIFT layout, exact float64 (io/hdf5_snapshot.hpp); where built
// Any other name is an Error naming the file and these formats.
#include <string>

#include "io/snapshot.hpp"

namespace nbody {

enum class SnapshotFormat { Csv, Tipsy, Hdf5 };

// "CSV (*.csv), tipsy (*.tipsy, *.std, *.bin) or HDF5 (*.hdf5, *.h5)", for help texts and errors.
std::string snapshot_formats_text();

// The format `path` names by its extension (any case). Throws Error "path: ... " naming the formats for
// any other extension, or none.
SnapshotFormat snapshot_format_of(const std::string& path);
bool is_tipsy_path(const std::string& path);
bool is_hdf5_path(const std::string& path);

// Writes the state (its time included) and what `info` says; tipsy keeps eps only, as every body's softening.
// Throws Error naming the file when it cannot be written or HDF5 is not built.
void write_snapshot(const State& s, const SnapshotInfo& info, const std::string& path);

// Reads a snapshot in any of the formats (an HDF5 checkpoint: its snapshot part). Throws Error naming the
// file.
Snapshot read_snapshot(const std::string& path);

}  // namespace nbody
