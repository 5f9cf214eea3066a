#include "app/checkpoint.hpp"

#include <cmath>

#include "core/errors.hpp"
#include "core/rows/integrator.hpp"

namespace nbody {

Hdf5File checkpoint_of(Backend& backend, const std::string& scene, const std::vector<std::string>& labels) {
    const SimParams& p = backend.params();
    Hdf5File f;
    backend.read_state(f.snapshot.state);
    f.snapshot.state.time = backend.time();
    f.snapshot.info = {p.G, p.eps, p.dt, scene};
    Hdf5Checkpoint c;
    c.steps = backend.steps_taken();
    c.params = p;
    c.group_labels = labels;
    IntegratorState st;
    if (backend.export_state(st))
        c.integrator = std::move(st);
    else if (integrator_info(p.integrator).own_state)
        throw Error("the " + backend.name() + " backend cannot export its " +
                    std::string(integrator_name(p.integrator)) +
                    " state yet, so a checkpoint would not resume bit for bit (use --backend cpu)");
    f.checkpoint = std::move(c);
    return f;
}

void resume_backend(Backend& backend, const Hdf5File& file) {
    if (!file.checkpoint) throw Error("not a checkpoint (no /Checkpoint group): use --load-snapshot for a snapshot");
    const Hdf5Checkpoint& c = *file.checkpoint;
    const SimParams& p = backend.params();
    if (c.integrator && backend.name().rfind(c.integrator->backend, 0) == 0) {
        backend.import_state(*c.integrator, p, c.steps);
        return;
    }
    if (integrator_info(p.integrator).own_state)
        throw Error("this checkpoint holds the " + (c.integrator ? c.integrator->backend : std::string("?")) +
                    " backend's " + std::string(integrator_name(p.integrator)) +
                    " state; resume it on that backend (--backend " +
                    (c.integrator ? c.integrator->backend : std::string("cpu")) + ")");
    backend.set_steps_taken(c.steps);  // leap-frog: the reset re-evaluated the same accelerations
}

CheckpointWriter::CheckpointWriter(std::string path, double every, double start, std::string scene,
                                   std::vector<std::string> labels)
    : m_path(std::move(path)), m_scene(std::move(scene)), m_labels(std::move(labels)), m_every(every),
      m_start(start), m_next(start + every) {}

bool CheckpointWriter::maybe_write(Backend& backend) {
    if (!(m_every > 0) || backend.time() < m_next - 1e-12 * std::max(1.0, std::fabs(m_next))) return false;
    write(backend);
    // the next multiple of `every` after now, counted from the start (no drift from repeated sums)
    m_next = m_start + m_every * (std::floor((backend.time() - m_start) / m_every) + 1.0);
    return true;
}

void CheckpointWriter::write(Backend& backend) { write_hdf5(checkpoint_of(backend, m_scene, m_labels), m_path); }

}  // namespace nbody
