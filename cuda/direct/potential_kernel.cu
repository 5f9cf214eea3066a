#include "direct/potential_kernel.cuh"

#include <vector>

#include "common/cuda_check.cuh"

namespace nbody::kernels {

namespace {
__device__ inline float inverse_sqrt(float x) { return rsqrtf(x); }
__device__ inline double inverse_sqrt(double x) { return 1.0 / sqrt(x); }

// One body per thread against tiles of blockDim.x bodies; T is the arithmetic's type. Each tile's terms are
// summed in T, the tiles' sums in double: a float sum of a million terms (a body of a 1M-body galaxy) drifted
// by up to 3e-3 of the energy from one evaluation to the next, hiding the integrator's error.
template <class B, class T>
__device__ void potential(const B* __restrict__ pos, int n, int i_begin, int i_end, T eps2, T* __restrict__ phi) {
    extern __shared__ unsigned char raw[];
    B* tile = reinterpret_cast<B*>(raw);
    const int i = i_begin + static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const B pi = i < i_end ? pos[i] : B{};
    double total = 0;
    for (int base = 0; base < n; base += blockDim.x) {
        T sum = 0;
        const int j = base + threadIdx.x;
        tile[threadIdx.x] = j < n ? pos[j] : B{};
        __syncthreads();
        const int count = min(static_cast<int>(blockDim.x), n - base);
        for (int t = 0; t < count; ++t) {
            const B pj = tile[t];
            const T dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
            const T r2 = dz * dz + (dy * dy + (dx * dx + eps2));
            // The self pair is skipped by index: with eps = 0 it would be 0 / 0.
            if (base + t != i && r2 > 0) sum += static_cast<T>(pj.w) * inverse_sqrt(r2);
        }
        total += static_cast<double>(sum);
        __syncthreads();
    }
    if (i < i_end) phi[i - i_begin] = static_cast<T>(static_cast<double>(pi.w) * total);
}
}  // namespace

__global__ void potential_kernel(const float4* __restrict__ pos, int n, int i_begin, int i_end, float eps2,
                                 float* __restrict__ phi) {
    potential<float4, float>(pos, n, i_begin, i_end, eps2, phi);
}

__global__ void potential_kernel_f64(const Dbl4* __restrict__ pos, int n, int i_begin, int i_end, double eps2,
                                     double* __restrict__ phi) {
    potential<Dbl4, double>(pos, n, i_begin, i_end, eps2, phi);
}

void PotentialSum::launch(const void* pos, bool wide, int n, int i_begin, int i_end, double eps2, int device,
                          cudaStream_t stream) {
    m_wide = wide, m_count = i_end - i_begin, m_stream = stream;
    if (m_count <= 0) return;
    NBODY_CUDA_CHECK(cudaSetDevice(device));
    m_phi = DeviceBuffer::alloc(device, static_cast<std::size_t>(m_count) * (wide ? sizeof(double) : sizeof(float)),
                                "potential");
    const int block = 256;
    const unsigned grid = static_cast<unsigned>((m_count + block - 1) / block);
    if (wide)
        potential_kernel_f64<<<grid, block, block * sizeof(Dbl4), stream>>>(static_cast<const Dbl4*>(pos), n, i_begin,
                                                                           i_end, eps2, m_phi.as<double>());
    else
        potential_kernel<<<grid, block, block * sizeof(float4), stream>>>(
            static_cast<const float4*>(pos), n, i_begin, i_end, static_cast<float>(eps2), m_phi.as<float>());
    NBODY_CUDA_CHECK_LAUNCH("potential_kernel");
}

double PotentialSum::sum() {
    if (m_count <= 0) return 0.0;
    double total = 0;
    if (m_wide) {
        std::vector<double> host(static_cast<std::size_t>(m_count));
        NBODY_CUDA_CHECK(cudaMemcpyAsync(host.data(), m_phi.get(), host.size() * sizeof(double), cudaMemcpyDeviceToHost, m_stream));
        NBODY_CUDA_CHECK(cudaStreamSynchronize(m_stream));
        for (double v : host) total += v;
    } else {
        std::vector<float> host(static_cast<std::size_t>(m_count));
        NBODY_CUDA_CHECK(cudaMemcpyAsync(host.data(), m_phi.get(), host.size() * sizeof(float), cudaMemcpyDeviceToHost, m_stream));
        NBODY_CUDA_CHECK(cudaStreamSynchronize(m_stream));
        for (float v : host) total += v;
    }
    return total;
}

__global__ void to_float4_kernel(const Dbl4* __restrict__ src, float4* __restrict__ dst, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const Dbl4 p = src[i];
    dst[i] = make_float4(static_cast<float>(p.x), static_cast<float>(p.y), static_cast<float>(p.z),
                         static_cast<float>(p.w));
}

}  // namespace nbody::kernels
