#include <algorithm>

#include "backend/device_snapshots.cuh"
#include "core/errors.hpp"

namespace nbody::kernels {

namespace {
// At most this much device memory per GPU for the rewind ring (the Cartwheel's 256 fp32 states take 295 MiB;
// 10^6 bodies get 64 states), and never more than half of what is free.
constexpr std::size_t kDeviceBudget = std::size_t(4) << 30;
}  // namespace

void DeviceSnapshots::clear() {
    m_part.clear();
    m_meta.clear();
    m_bytes = 0;
}

int DeviceSnapshots::reserve(DeviceSet& dev, std::size_t bytes, int count, std::string* note) {
    clear();
    if (count <= 0 || bytes == 0) return 0;
    std::size_t fit = static_cast<std::size_t>(count), free_min = ~std::size_t(0);
    for_each_part(dev, [&](const DevicePart&, std::size_t) {
        std::size_t free = 0, total = 0;
        if (cudaMemGetInfo(&free, &total) != cudaSuccess) cudaGetLastError(), free = 0;
        free_min = std::min(free_min, free);
        fit = std::min(fit, std::min(free / 2, kDeviceBudget) / bytes);
    });
    // Several parts may share one GPU (the tests): each then takes its share of what the first check saw.
    while (fit > 0) {
        try {
            for (const DevicePart& part : dev.parts())
                m_part.push_back(DeviceBuffer::alloc(part.device, fit * bytes, "rewind snapshots"));
            break;
        } catch (const BackendError&) {
            m_part.clear();
            fit /= 2;
        }
    }
    if (fit < static_cast<std::size_t>(count) && note)
        *note = "rewind keeps " + std::to_string(fit) + " of " + std::to_string(count) +
                " states: " + std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB each per GPU, " +
                std::to_string(free_min >> 20) + " MiB free";
    if (fit == 0) m_part.clear();
    m_meta.assign(fit, Meta{});
    m_bytes = fit > 0 ? bytes : 0;
    return static_cast<int>(fit);
}

DeviceSnapshots::Meta& DeviceSnapshots::meta(int slot) {
    if (slot < 0 || slot >= count())
        throw Error("rewind slot " + std::to_string(slot) + " outside the " + std::to_string(count()) +
                    " reserved on the GPU");
    return m_meta[static_cast<std::size_t>(slot)];
}

std::vector<char*> DeviceSnapshots::slot(int slot) {
    meta(slot);  // the range check
    std::vector<char*> out;
    for (DeviceBuffer& b : m_part) out.push_back(b.as<char>() + static_cast<std::size_t>(slot) * m_bytes);
    return out;
}

}  // namespace nbody::kernels
