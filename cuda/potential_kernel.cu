#include "potential_kernel.cuh"

namespace nbody::kernels {

__global__ void potential_kernel(const float4* __restrict__ pos, int n, float eps2, float* __restrict__ phi) {
    extern __shared__ float4 tile[];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float4 pi = i < n ? pos[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    float sum = 0.f;
    for (int base = 0; base < n; base += blockDim.x) {
        const int j = base + threadIdx.x;
        tile[threadIdx.x] = j < n ? pos[j] : make_float4(0.f, 0.f, 0.f, 0.f);
        __syncthreads();
        const int count = min(static_cast<int>(blockDim.x), n - base);
        for (int t = 0; t < count; ++t) {
            const float4 pj = tile[t];
            const float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
            const float r2 = fmaf(dz, dz, fmaf(dy, dy, fmaf(dx, dx, eps2)));
            // The self pair is skipped by index: with eps = 0 it would be 0 / 0.
            if (base + t != i && r2 > 0.f) sum = fmaf(pj.w, rsqrtf(r2), sum);
        }
        __syncthreads();
    }
    if (i < n) phi[i] = pi.w * sum;
}

}  // namespace nbody::kernels
