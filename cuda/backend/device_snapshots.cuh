#pragma once
// The CUDA backend's rewind slots (Backend::save_snapshot): per device part, one allocation of count x bytes
// that an engine copies its per-body state into, device to device, and the engine's scalars per slot.
#include <string>
#include <vector>

#include "backend/gpu_engine.cuh"
#include "common/device_set.cuh"

namespace nbody::kernels {

class DeviceSnapshots {
  public:
    struct Meta {
        EngineMark mark;
        long long steps_before = 0;  // the backend's steps of engines before the one that saved
        bool saved = false;
    };

    // Frees the slots, then makes room for up to `count` states of `bytes` on every part: at most 4 GiB and
    // half of what cudaMemGetInfo reports free on each GPU (the rest is the renderer's and the next
    // allocation's), halved again while an allocation fails. Returns how many it got; *note says why when
    // fewer.
    int reserve(DeviceSet& dev, std::size_t bytes, int count, std::string* note);
    void clear();
    int count() const { return static_cast<int>(m_meta.size()); }
    std::size_t bytes() const { return m_bytes; }
    // Throws Error naming the slot and the range when `slot` is outside [0, count()).
    Meta& meta(int slot);
    std::vector<char*> slot(int slot);

  private:
    std::vector<DeviceBuffer> m_part;  // one per device part: count() x m_bytes
    std::vector<Meta> m_meta;
    std::size_t m_bytes = 0;
};

}  // namespace nbody::kernels
