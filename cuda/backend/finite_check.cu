#include "backend/finite_check.cuh"

#include <algorithm>
#include <climits>

#include "common/cuda_check.cuh"

namespace nbody::kernels {

namespace {

constexpr int kThreads = 256;

// Each thread the smallest index of a non-finite position among its bodies (grid-stride), the warp's minimum,
// then one atomicMin a warp.
__global__ void first_nonfinite_kernel(const float4* __restrict__ pos, std::size_t n, unsigned long long* first) {
    unsigned long long mine = ULLONG_MAX;
    const std::size_t stride = std::size_t(gridDim.x) * kThreads;
    for (std::size_t i = std::size_t(blockIdx.x) * kThreads + threadIdx.x; i < n; i += stride) {
        const float4 p = pos[i];
        if (!(isfinite(p.x) && isfinite(p.y) && isfinite(p.z))) {
            mine = i;
            break;  // later bodies of this thread are farther on
        }
    }
    for (int off = 16; off > 0; off >>= 1) mine = min(mine, __shfl_xor_sync(0xffffffffu, mine, off));
    if ((threadIdx.x & 31) == 0 && mine != ULLONG_MAX) atomicMin(first, mine);
}

}  // namespace

std::optional<std::size_t> first_nonfinite(const float4* pos, std::size_t n, unsigned long long* first,
                                           cudaStream_t stream) {
    if (n == 0) return std::nullopt;
    NBODY_CUDA_CHECK(cudaMemsetAsync(first, 0xff, sizeof *first, stream));  // ULLONG_MAX: none found
    const std::size_t blocks = std::min<std::size_t>((n + kThreads - 1) / kThreads, 4096);
    first_nonfinite_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(pos, n, first);
    NBODY_CUDA_CHECK_LAUNCH("first_nonfinite_kernel");
    unsigned long long found = ULLONG_MAX;
    NBODY_CUDA_CHECK(cudaMemcpyAsync(&found, first, sizeof found, cudaMemcpyDeviceToHost, stream));
    NBODY_CUDA_CHECK(cudaStreamSynchronize(stream));
    if (found == ULLONG_MAX) return std::nullopt;
    return static_cast<std::size_t>(found);
}

}  // namespace nbody::kernels
