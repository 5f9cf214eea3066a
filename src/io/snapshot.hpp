#pragma once
// Snapshots: the particle state as CSV text, to save a run and resume it bit for bit.
//
//   # nbody-sandbox snapshot
//   # time = 2.5
//   # N = 7500
//   # G = 1
//   # eps = 0.1
//   # dt = 0.015625
//   # scene = Three galaxies on the figure-eight
//   id,group,mass,x,y,z,vx,vy,vz
//   0,0,0.000133333,0.97,-0.24,0,...
//
// Numbers are written with %.17g, which round-trips every float64 exactly (subnormals included: the reader
// accepts them; it refuses only what overflows a double, NaN and infinity).
// The reader also takes the common `id,mass,x,y,z,vx,vy,vz` (group 0); header lines it does not know are
// comments. Errors name the file and line.
#include <optional>
#include <string>

#include "core/physics/state.hpp"

namespace nbody {

struct SnapshotInfo {
    std::optional<double> G, eps, dt;  // absent when the file does not say
    std::string scene;
};

std::string snapshot_csv(const State& s, const SnapshotInfo& info);
// Throws nbody::Error naming the path when it cannot be written.
void write_snapshot_csv(const State& s, const SnapshotInfo& info, const std::string& path);

struct Snapshot {
    State state;  // state.time from the header (0 when absent)
    SnapshotInfo info;
};

// Throws nbody::Error "name:line: why" for malformed text. `name` is used in messages.
Snapshot parse_snapshot_csv(const std::string& text, const std::string& name);
Snapshot read_snapshot_csv(const std::string& path);

}  // namespace nbody
