// The due bodies' direct sums (tree_active_direct.cuh).
#include <algorithm>

#include "common/cuda_check.cuh"
#include "tree/tree_active_direct.cuh"

namespace nbody::kernels {

namespace {

constexpr int kThreads = 128;  // due bodies a block, and bodies a shared-memory tile
constexpr unsigned kFull = 0xffffffffu;

// The due bodies' indices, a warp's at a time. Their order in the list changes nothing: each sum runs over
// the bodies in index order and lands at its own body.
__global__ void due_slots_kernel(const uint8_t* active, int n, uint32_t* slots, uint32_t* count) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const bool due = i < n && active[i];
    const unsigned ballot = __ballot_sync(kFull, due);
    const int lane = threadIdx.x & 31;
    uint32_t base = 0;
    if (lane == 0 && ballot) base = atomicAdd(count, unsigned(__popc(ballot)));
    base = __shfl_sync(kFull, base, 0);
    if (due) slots[base + __popc(ballot & ((1u << lane) - 1u))] = uint32_t(i);
}

// Block (x, y): due bodies x * kThreads .. + kThreads against the bodies of slice y, in tiles of kThreads
// through shared memory; a tile's tail is padded with massless bodies, which add nothing. 20 flops a pair:
// 3 differences, 6 for r^2 + soft2, rsqrt, 3 for m / r^3, 6 for the three sums.
__global__ void __launch_bounds__(kThreads) due_slice_kernel(const float4* __restrict__ pos, int n,
                                                             const uint32_t* __restrict__ slots, uint32_t count,
                                                             int slice, float soft2, float4* __restrict__ partial) {
    __shared__ float4 tile[kThreads];
    const uint32_t k = blockIdx.x * kThreads + threadIdx.x;
    const float4 pi = k < count ? pos[slots[k]] : make_float4(0.f, 0.f, 0.f, 0.f);
    float ax = 0.f, ay = 0.f, az = 0.f;
    const int j0 = int(blockIdx.y) * slice, j1 = min(n, j0 + slice);
    for (int t = j0; t < j1; t += kThreads) {
        const int j = t + int(threadIdx.x);
        tile[threadIdx.x] = j < j1 ? pos[j] : make_float4(0.f, 0.f, 0.f, 0.f);
        __syncthreads();
#pragma unroll 8
        for (int q = 0; q < kThreads; ++q) {
            const float4 pj = tile[q];
            const float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
            const float inv = rsqrtf(dx * dx + dy * dy + dz * dz + soft2);
            const float s = pj.w * inv * inv * inv;
            ax += dx * s, ay += dy * s, az += dz * s;
        }
        __syncthreads();
    }
    if (k < count) partial[std::size_t(blockIdx.y) * count + k] = make_float4(ax, ay, az, 0.f);
}

// Each due body's slices added in slice order.
__global__ void due_sum_kernel(const float4* partial, const uint32_t* slots, uint32_t count, int slices,
                               float4* acc) {
    const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= count) return;
    float ax = 0.f, ay = 0.f, az = 0.f;
    for (int y = 0; y < slices; ++y) {
        const float4 p = partial[std::size_t(y) * count + k];
        ax += p.x, ay += p.y, az += p.z;
    }
    acc[slots[k]] = make_float4(ax, ay, az, 0.f);
}

int blocks_for(std::size_t n, int threads) { return int((n + std::size_t(threads) - 1) / std::size_t(threads)); }

}  // namespace

void TreeActiveDirect::evaluate(const float4* pos, const uint8_t* active, std::size_t count, std::size_t n,
                                float soft2, float4* acc, cudaStream_t s) {
    if (count == 0 || n == 0) return;
    if (m_sms == 0) NBODY_CUDA_CHECK(cudaDeviceGetAttribute(&m_sms, cudaDevAttrMultiProcessorCount, m_device));
    // Slices enough for about four blocks a multiprocessor, each at least 8 tiles long.
    const int row_blocks = blocks_for(count, kThreads);
    const int most = std::max(1, int(n / (8 * kThreads)));
    const int wanted = std::clamp((4 * m_sms + row_blocks - 1) / row_blocks, 1, most);
    const int slice = blocks_for(n, wanted * kThreads) * kThreads;  // a whole number of tiles
    const int slices = blocks_for(n, slice);
    const std::size_t slot_bytes = (n + 1) * sizeof(uint32_t), partial_bytes = std::size_t(slices) * count * sizeof(float4);
    if (m_slots.bytes() < slot_bytes) m_slots = DeviceBuffer::alloc(m_device, slot_bytes, "tree due bodies");
    if (m_partial.bytes() < partial_bytes)
        m_partial = DeviceBuffer::alloc(m_device, std::max(partial_bytes, 2 * m_partial.bytes()), "tree due sums");
    uint32_t* slots = m_slots.as<uint32_t>();
    uint32_t* found = slots + n;
    NBODY_CUDA_CHECK(cudaMemsetAsync(found, 0, sizeof(uint32_t), s));
    due_slots_kernel<<<blocks_for(n, 256), 256, 0, s>>>(active, int(n), slots, found);
    NBODY_CUDA_CHECK_LAUNCH("due_slots_kernel");
    due_slice_kernel<<<dim3(unsigned(row_blocks), unsigned(slices)), kThreads, 0, s>>>(
        pos, int(n), slots, uint32_t(count), slice, soft2, m_partial.as<float4>());
    NBODY_CUDA_CHECK_LAUNCH("due_slice_kernel");
    due_sum_kernel<<<blocks_for(count, 128), 128, 0, s>>>(m_partial.as<const float4>(), slots, uint32_t(count), slices,
                                                         acc);
    NBODY_CUDA_CHECK_LAUNCH("due_sum_kernel");
}

}  // namespace nbody::kernels
