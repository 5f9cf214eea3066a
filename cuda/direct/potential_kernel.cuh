#pragma once
// Small kernels around the state: the softened potential per body (energy diagnostics at large N, where the
// float64 sum on a CPU core would take seconds) and the float4 copy of double positions that the renderer
// draws. Not hot paths: one thread per body, plain shared-memory tiles, no unrolling.
#include <cuda_runtime.h>

#include "common/device_set.cuh"
#include "common/precision.cuh"

namespace nbody::kernels {

// phi[i - i_begin] = m_i * sum_{j != i} m_j / sqrt(|x_j - x_i|^2 + eps^2) (mass^2 / length) for i in
// [i_begin, i_end), j over all n, each term in the precision of the positions (float for float4, with the
// approximate rsqrt: ~1e-7 per term; double for Dbl4), a tile of terms summed in it and the tiles in double.
// W = -G/2 sum_i phi[i].
__global__ void potential_kernel(const float4* __restrict__ pos, int n, int i_begin, int i_end, float eps2,
                                 float* __restrict__ phi);
__global__ void potential_kernel_f64(const Dbl4* __restrict__ pos, int n, int i_begin, int i_end, double eps2,
                                     double* __restrict__ phi);

// sum_i phi[i] over [i_begin, i_end) of n bodies on `device`, in two calls so several GPUs overlap: launch()
// queues the kernel on `stream`, sum() waits and adds up (double).
class PotentialSum {
public:
    void launch(const void* pos, bool wide, int n, int i_begin, int i_end, double eps2, int device,
                cudaStream_t stream);
    double sum();

private:
    DeviceBuffer m_phi;
    bool m_wide = false;
    int m_count = 0;
    cudaStream_t m_stream = nullptr;
};

// dst[i] = (float) src[i], i < n: double positions into the GL vertex buffer.
__global__ void to_float4_kernel(const Dbl4* __restrict__ src, float4* __restrict__ dst, int n);

}  // namespace nbody::kernels
