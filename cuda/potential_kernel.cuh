#pragma once
// Small kernels around the state: the softened potential per body (energy diagnostics at large N, where the
// float64 sum on a CPU core would take seconds) and the float4 copy of double positions that the renderer
// draws. Not hot paths: one thread per body, plain shared-memory tiles, no unrolling.
#include <cuda_runtime.h>

#include "precision.cuh"

namespace nbody::kernels {

// phi[i] = m_i * sum_{j != i} m_j / sqrt(|x_j - x_i|^2 + eps^2) (mass^2 / length), accumulated in the
// precision of the positions (float for float4, double for Dbl4). W = -G/2 sum_i phi[i].
__global__ void potential_kernel(const float4* __restrict__ pos, int n, float eps2, float* __restrict__ phi);
__global__ void potential_kernel_f64(const Dbl4* __restrict__ pos, int n, double eps2, double* __restrict__ phi);

// dst[i] = (float) src[i], i < n: double positions into the GL vertex buffer.
__global__ void to_float4_kernel(const Dbl4* __restrict__ src, float4* __restrict__ dst, int n);

}  // namespace nbody::kernels
