#pragma once
// Checkpoints of a running simulation (--checkpoint FILE --checkpoint-every T, --resume FILE) and HDF5
// snapshots (--save out.hdf5): the backend's state through io/hdf5_snapshot, written atomically.
#include <optional>
#include <string>
#include <vector>

#include "core/backend/backend.hpp"
#include "io/hdf5_snapshot.hpp"

namespace nbody {

// The backend's current state as an HDF5 checkpoint (particles as read_state gives them, the parameters, step
// count and its IntegratorState). Throws Error where the backend cannot export a Hermite state, since that
// checkpoint would not resume bit for bit.
Hdf5File checkpoint_of(Backend& backend, const std::string& scene, const std::vector<std::string>& labels);

// Continues a run from a checkpoint on a backend already reset to its particles: imports the integrator state
// where the backend is the kind that wrote it, else (leap-frog only) keeps the reset and restores the step
// count. Throws Error saying which backend the checkpoint needs.
void resume_backend(Backend& backend, const Hdf5File& file);

// Writes checkpoints every `every` units of simulated time (the first at start + every).
class CheckpointWriter {
  public:
    CheckpointWriter(std::string path, double every, double start, std::string scene,
                     std::vector<std::string> labels);
    // The next simulated time a checkpoint is due (for capping a chunk of shared steps).
    double next_due() const { return m_next; }
    // Writes one when backend.time() has reached the next due time; returns whether it wrote.
    bool maybe_write(Backend& backend);
    void write(Backend& backend);

  private:
    std::string m_path, m_scene;
    std::vector<std::string> m_labels;
    double m_every, m_start, m_next;
};

}  // namespace nbody
