#include "potential_kernel.cuh"

namespace nbody::kernels {

namespace {
// One body per thread against tiles of blockDim.x bodies; T is the accumulation type.
template <class B, class T>
__device__ void potential(const B* __restrict__ pos, int n, T eps2, T* __restrict__ phi) {
    extern __shared__ unsigned char raw[];
    B* tile = reinterpret_cast<B*>(raw);
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const B pi = i < n ? pos[i] : B{};
    T sum = 0;
    for (int base = 0; base < n; base += blockDim.x) {
        const int j = base + threadIdx.x;
        tile[threadIdx.x] = j < n ? pos[j] : B{};
        __syncthreads();
        const int count = min(static_cast<int>(blockDim.x), n - base);
        for (int t = 0; t < count; ++t) {
            const B pj = tile[t];
            const T dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
            const T r2 = dz * dz + (dy * dy + (dx * dx + eps2));
            // The self pair is skipped by index: with eps = 0 it would be 0 / 0.
            if (base + t != i && r2 > 0) sum += static_cast<T>(pj.w) / sqrt(r2);
        }
        __syncthreads();
    }
    if (i < n) phi[i] = static_cast<T>(pi.w) * sum;
}
}  // namespace

__global__ void potential_kernel(const float4* __restrict__ pos, int n, float eps2, float* __restrict__ phi) {
    potential<float4, float>(pos, n, eps2, phi);
}

__global__ void potential_kernel_f64(const Dbl4* __restrict__ pos, int n, double eps2, double* __restrict__ phi) {
    potential<Dbl4, double>(pos, n, eps2, phi);
}

__global__ void to_float4_kernel(const Dbl4* __restrict__ src, float4* __restrict__ dst, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const Dbl4 p = src[i];
    dst[i] = make_float4(static_cast<float>(p.x), static_cast<float>(p.y), static_cast<float>(p.z),
                         static_cast<float>(p.w));
}

}  // namespace nbody::kernels
