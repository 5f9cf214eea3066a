#include "spatial/morton_sort.cuh"

#include "spatial/bounding_box.cuh"

namespace nbody::kernels {

namespace {
constexpr int kMortonBits = 30;  // 10 per axis: cells of 1/1024 of the box, ~16 bodies per cell at N = 2^24

// One block: the box of all n bodies (a single block reads 2 MiB at N = 131,072 in ~20 us, against an
// 11 ms step; a grid reduction would need a reset per step). Writes lo and 1024 / extent per axis.
__global__ void __launch_bounds__(kBoxThreads) box_kernel(const float4* pos, int n, float4* box) {
    block_bounds(pos, n, [&](const float lo[3], const float hi[3]) {
        float scale[3];
        for (int a = 0; a < 3; ++a) {
            const float extent = hi[a] - lo[a];
            scale[a] = extent > 0.f ? 1024.f / extent : 0.f;
        }
        box[0] = make_float4(lo[0], lo[1], lo[2], 0.f);
        box[1] = make_float4(scale[0], scale[1], scale[2], 0.f);
    });
}

// 10 bits spread to every third bit (bit b goes to 3b).
__device__ __forceinline__ unsigned spread3(unsigned x) {
    x &= 0x3ffu;
    x = (x | (x << 16)) & 0x030000FFu;
    x = (x | (x << 8)) & 0x0300F00Fu;
    x = (x | (x << 4)) & 0x030C30C3u;
    x = (x | (x << 2)) & 0x09249249u;
    return x;
}

__device__ __forceinline__ unsigned cell(float x, float lo, float scale) {
    const float c = (x - lo) * scale;  // 0 .. 1024; NaN would give 0 (fminf/fmaxf drop it)
    return static_cast<unsigned>(fminf(fmaxf(c, 0.f), 1023.f));
}

__global__ void keys_kernel(const float4* pos, int n, const float4* box, unsigned* keys, int* idx) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float4 p = pos[i], lo = box[0], sc = box[1];
    keys[i] = spread3(cell(p.x, lo.x, sc.x)) | spread3(cell(p.y, lo.y, sc.y)) << 1 |
              spread3(cell(p.z, lo.z, sc.z)) << 2;
    idx[i] = i;
}

__global__ void gather_kernel(const float4* pos, const int* order, int n, float4* sorted) {
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n) sorted[k] = pos[order[k]];
}

unsigned grid_for(std::size_t n, int block) {
    return static_cast<unsigned>((n + block - 1) / block);
}
}  // namespace

MortonSort::MortonSort(int device, std::size_t n) : m_n(n) {
    m_box = DeviceBuffer::alloc(device, 2 * sizeof(float4), "Morton box");
    m_sort.reserve(device, n, kMortonBits, "Morton keys", "Morton order", "radix sort scratch");
    m_sorted = DeviceBuffer::alloc(device, n * sizeof(float4), "Morton-sorted bodies");
}

void MortonSort::enqueue(const float4* pos, cudaStream_t stream) const {
    if (m_n == 0) return;
    const int n = static_cast<int>(m_n), block = 256;
    box_kernel<<<1, kBoxThreads, 0, stream>>>(pos, n, m_box.as<float4>());
    NBODY_CUDA_CHECK_LAUNCH("box_kernel");
    keys_kernel<<<grid_for(m_n, block), block, 0, stream>>>(pos, n, m_box.as<const float4>(),
                                                            m_sort.keys_in(), m_sort.index_in());
    NBODY_CUDA_CHECK_LAUNCH("keys_kernel");
    m_sort.enqueue(n, kMortonBits, stream);
    gather_kernel<<<grid_for(m_n, block), block, 0, stream>>>(pos, m_sort.order(), n, m_sorted.as<float4>());
    NBODY_CUDA_CHECK_LAUNCH("gather_kernel");
}

}  // namespace nbody::kernels
