#pragma once
// Softened potential per body, for the energy diagnostics at large N (the float64 sum on a CPU core would
// take seconds there). Not a hot path: one thread per body, plain shared-memory tiles, no unrolling.
#include <cuda_runtime.h>

namespace nbody::kernels {

// phi[i] = m_i * sum_{j != i} m_j / sqrt(|x_j - x_i|^2 + eps^2), float accumulation (mass^2 / length).
// The potential energy is W = -G/2 sum_i phi[i] (summed in double on the host).
__global__ void potential_kernel(const float4* __restrict__ pos, int n, float eps2, float* __restrict__ phi);

}  // namespace nbody::kernels
