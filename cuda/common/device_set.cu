#include "common/device_set.cuh"

#include <algorithm>
#include <set>
#include <utility>

namespace nbody::kernels {

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
        release();
        m_device = o.m_device, m_ptr = o.m_ptr, m_bytes = o.m_bytes;
        o.m_ptr = nullptr, o.m_bytes = 0;
    }
    return *this;
}

DeviceBuffer DeviceBuffer::alloc(int device, std::size_t bytes, const char* what) {
    DeviceBuffer b;
    b.m_device = device;
    if (bytes == 0) return b;
    NBODY_CUDA_CHECK(cudaSetDevice(device));
    const cudaError_t err = cudaMalloc(&b.m_ptr, bytes);
    if (err != cudaSuccess) {
        cudaGetLastError();  // clear it, or the next launch check would report it
        b.m_ptr = nullptr;
        std::size_t free = 0, total = 0;
        cudaMemGetInfo(&free, &total);
        cudaGetLastError();
        throw BackendError("GPU " + std::to_string(device) + " has too little free memory: " + what + " needs " +
                           std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB, " + std::to_string(free >> 20) +
                           " MiB of its " + std::to_string(total >> 20) + " MiB are free (" + cudaGetErrorName(err) +
                           "); keeping the previous state");
    }
    b.m_bytes = bytes;
    return b;
}

void DeviceBuffer::release() {
    if (!m_ptr) return;
    int current = 0;
    cudaGetDevice(&current);
    cudaSetDevice(m_device);
    cudaFree(m_ptr);
    cudaSetDevice(current);
    m_ptr = nullptr;
    m_bytes = 0;
}

DeviceSet::DeviceSet(std::vector<int> devices) {
    if (devices.empty()) devices.push_back(0);
    for (int d : devices) {
        DevicePart p;
        p.device = d;
        NBODY_CUDA_CHECK(cudaSetDevice(d));
        NBODY_CUDA_CHECK(cudaStreamCreateWithFlags(&p.stream, cudaStreamNonBlocking));
        NBODY_CUDA_CHECK(cudaEventCreateWithFlags(&p.done, cudaEventDisableTiming));
        NBODY_CUDA_CHECK(cudaEventRecord(p.done, p.stream));
        for (cudaEvent_t* e : {&p.t_start, &p.t_kernel, &p.t_copied}) {
            NBODY_CUDA_CHECK(cudaEventCreate(e));
            NBODY_CUDA_CHECK(cudaEventRecord(*e, p.stream));
        }
        m_parts.push_back(p);
    }
    // Peer access lets cudaMemcpyPeerAsync go straight over NVLink (or PCIe) instead of through the host.
    const std::set<int> distinct(devices.begin(), devices.end());
    for (int a : distinct)
        for (int b : distinct) {
            if (a == b) continue;
            int can = 0;
            NBODY_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, a, b));
            if (!can) {
                m_peer = false;
                continue;
            }
            NBODY_CUDA_CHECK(cudaSetDevice(a));
            const cudaError_t err = cudaDeviceEnablePeerAccess(b, 0);
            if (err == cudaErrorPeerAccessAlreadyEnabled) cudaGetLastError();
            else NBODY_CUDA_CHECK(err);
        }
    NBODY_CUDA_CHECK(cudaSetDevice(m_parts.front().device));
}

DeviceSet::~DeviceSet() {
    for (DevicePart& p : m_parts) {
        cudaSetDevice(p.device);
        for (cudaEvent_t e : {p.done, p.t_start, p.t_kernel, p.t_copied})
            if (e) cudaEventDestroy(e);
        if (p.stream) cudaStreamDestroy(p.stream);
    }
    if (!m_parts.empty()) cudaSetDevice(m_parts.front().device);
}

void DeviceSet::wait_for_peers() {
    if (m_parts.size() < 2) return;
    for (DevicePart& p : m_parts)
        for (const DevicePart& o : m_parts)
            if (&o != &p) NBODY_CUDA_CHECK(cudaStreamWaitEvent(p.stream, o.done, 0));
}

void DeviceSet::synchronize() {
    for (DevicePart& p : m_parts) NBODY_CUDA_CHECK(cudaStreamSynchronize(p.stream));
}

}  // namespace nbody::kernels
