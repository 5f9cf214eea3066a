#pragma once
// The bodies' bounding box, reduced by one block of kBoxThreads (a grid-wide reduction would need a reset a
// step), shared by the Morton order of the tensor family (spatial/morton_sort.cu) and the tree's keys
// (tree/tree_build.cu). fminf and fmaxf are exact, so the box is the same bits in any order.
#include <cuda_runtime.h>

#include <cfloat>

namespace nbody::kernels {

constexpr int kBoxThreads = 1024;

// Min and max of x, y and z over the n float4 bodies at pos, handed to finish(lo, hi) (two float[3]) on thread
// 0 alone; call from every thread of a kBoxThreads block.
template <class Finish>
__device__ __forceinline__ void block_bounds(const float4* pos, int n, Finish finish) {
    float lo[3] = {FLT_MAX, FLT_MAX, FLT_MAX}, hi[3] = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
    for (int i = threadIdx.x; i < n; i += kBoxThreads) {
        const float4 p = pos[i];
        const float c[3] = {p.x, p.y, p.z};
#pragma unroll
        for (int a = 0; a < 3; ++a) lo[a] = fminf(lo[a], c[a]), hi[a] = fmaxf(hi[a], c[a]);
    }
#pragma unroll
    for (int a = 0; a < 3; ++a)
        for (int off = 16; off > 0; off >>= 1) {
            lo[a] = fminf(lo[a], __shfl_xor_sync(0xffffffffu, lo[a], off));
            hi[a] = fmaxf(hi[a], __shfl_xor_sync(0xffffffffu, hi[a], off));
        }
    __shared__ float red[6][kBoxThreads / 32];
    const int warp = threadIdx.x / 32;
    if (threadIdx.x % 32 == 0)
        for (int a = 0; a < 3; ++a) red[a][warp] = lo[a], red[3 + a][warp] = hi[a];
    __syncthreads();
    if (threadIdx.x != 0) return;
    for (int w = 1; w < kBoxThreads / 32; ++w)
        for (int a = 0; a < 3; ++a)
            red[a][0] = fminf(red[a][0], red[a][w]), red[3 + a][0] = fmaxf(red[3 + a][0], red[3 + a][w]);
    const float l[3] = {red[0][0], red[1][0], red[2][0]}, h[3] = {red[3][0], red[4][0], red[5][0]};
    finish(l, h);
}

}  // namespace nbody::kernels
