#pragma once
// The GPUs one simulation runs on: one DevicePart per GPU (its stream, its events, the i-range of bodies it
// updates), and device memory that frees itself on the right device. Several GPUs are one backend made of
// these parts plus an exchange of the bodies each part updated (ARCHITECTURE.md): every part holds every
// body's position (the j-set), computes the forces on its own i-range, and copies its updated slice into
// every other part's buffers, peer to peer (NVLink where the GPUs have it).
#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <vector>

#include "common/cuda_check.cuh"
#include "core/index_range.hpp"

namespace nbody::kernels {

// Device memory on one GPU; move-only. alloc() throws BackendError naming the size and the device when the
// GPU does not have it, and leaves the buffer as it was.
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& o) noexcept { *this = std::move(o); }
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept;
    ~DeviceBuffer() { release(); }

    static DeviceBuffer alloc(int device, std::size_t bytes, const char* what);
    void release();
    template <class T>
    T* as() const {
        return static_cast<T*>(m_ptr);
    }
    void* get() const { return m_ptr; }
    std::size_t bytes() const { return m_bytes; }

private:
    int m_device = 0;
    void* m_ptr = nullptr;
    std::size_t m_bytes = 0;
};

struct DevicePart {
    int device = 0;            // CUDA device ordinal (two parts may share one: the tests do)
    cudaStream_t stream = nullptr;
    cudaEvent_t done = nullptr;  // recorded after each step's kernel and outgoing copies
    // Timing events of the last step (several parts only): before the kernel, after it, after the copies.
    cudaEvent_t t_start = nullptr, t_kernel = nullptr, t_copied = nullptr;
};

// The bodies [begin, end) one part updates: IndexRange, from split_ranges (core/index_range.hpp).

class DeviceSet {
public:
    // One part per entry of `devices` (ordinals; may repeat). Enables peer access between distinct devices
    // where the hardware allows it. Throws BackendError.
    explicit DeviceSet(std::vector<int> devices);
    ~DeviceSet();
    DeviceSet(const DeviceSet&) = delete;
    DeviceSet& operator=(const DeviceSet&) = delete;

    std::vector<DevicePart>& parts() { return m_parts; }
    const std::vector<DevicePart>& parts() const { return m_parts; }
    std::size_t size() const { return m_parts.size(); }
    bool peer_access() const { return m_peer; }  // every pair of distinct devices maps the other's memory

    // Makes each part's stream wait for every other part's `done` event (its last step and its copies).
    void wait_for_peers();
    // Blocks the host until every part's stream is idle.
    void synchronize();

private:
    std::vector<DevicePart> m_parts;
    bool m_peer = true;
};

// Calls fn(part, k) for every part k in order with part k's GPU current, so fn queues its work on part.stream;
// `set` is a DeviceSet (or a const one: the parts are then const). The GPU of the last part stays current.
template <class Set, class Fn>
void for_each_part(Set& set, Fn&& fn) {
    auto& parts = set.parts();
    for (std::size_t k = 0; k < parts.size(); ++k) {
        NBODY_CUDA_CHECK(cudaSetDevice(parts[k].device));
        fn(parts[k], k);
    }
}

}  // namespace nbody::kernels
