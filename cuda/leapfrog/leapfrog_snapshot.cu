// Rewind for the leap-frog engine: a saved state is a device-to-device copy of every per-body buffer of each
// part (both position buffers, their double-single halves, velocities, accelerations) and the scalars beside
// them, so a run restored here goes on bit-identically to the one that saved it.
#include "core/errors.hpp"
#include "leapfrog/leapfrog_engine.cuh"

namespace nbody::kernels {

std::vector<const DeviceBuffer*> LeapfrogEngine::state_buffers(const PartBuffers& b) {
    std::vector<const DeviceBuffer*> out;
    for (const DeviceBuffer* d :
         {&b.pos[0], &b.pos[1], &b.hi[0], &b.hi[1], &b.lo[0], &b.lo[1], &b.vel, &b.acc})
        if (d->bytes() > 0) out.push_back(d);  // hi and lo exist for ds only
    return out;
}

std::size_t LeapfrogEngine::snapshot_bytes() const {
    if (m_buf.empty()) return 0;
    std::size_t bytes = 0;
    for (const DeviceBuffer* d : state_buffers(m_buf.front())) bytes += d->bytes();
    return bytes;
}

// Every state buffer of every part to (from) slot[part], on each part's stream; back with the copies done.
void LeapfrogEngine::copy_state(const std::vector<char*>& slot, bool save) {
    if (slot.size() != m_buf.size())
        throw BackendError("leap-frog snapshot: one buffer per device part expected");
    // A part's buffers also receive the other parts' bodies (the exchange, on their streams): wait for those
    // before, and have the copies done before the next step's exchange writes into them again.
    m_dev.synchronize();
    for (std::size_t k = 0; k < m_buf.size(); ++k) {
        const DevicePart& part = m_dev.parts()[k];
        NBODY_CUDA_CHECK(cudaSetDevice(part.device));
        std::size_t off = 0;
        for (const DeviceBuffer* d : state_buffers(m_buf[k])) {
            void* dst = save ? static_cast<void*>(slot[k] + off) : d->get();
            const void* src = save ? d->get() : static_cast<const void*>(slot[k] + off);
            NBODY_CUDA_CHECK(cudaMemcpyAsync(dst, src, d->bytes(), cudaMemcpyDeviceToDevice, part.stream));
            off += d->bytes();
        }
    }
    m_dev.synchronize();
}

EngineMark LeapfrogEngine::save_snapshot(const std::vector<char*>& dst) {
    copy_state(dst, true);
    return {m_cur, m_time, m_steps, m_params.dt, m_params.eps, m_params.G};
}

void LeapfrogEngine::restore_snapshot(const std::vector<char*>& src, const EngineMark& m) {
    copy_state(src, false);
    m_cur = m.cur;
    m_time = m.time;
    m_steps = m.steps;
    // Saved under another dt, eps or G: the predicted positions and accelerations are re-made from the
    // restored ones, as set_params does when they change mid-run.
    if (m.dt != m_params.dt || m.eps != m_params.eps || m.G != m_params.G) {
        drop_graph();
        launch(true);
        if (m_partition.gather) gather_over_ranks();
        m_dev.synchronize();
    }
}

}  // namespace nbody::kernels
