#pragma once
// The bodies' bounding box, reduced by one block of kBoxThreads (a grid-wide reduction would need a reset a
// step), shared by the Morton order of the tensor family (spatial/morton_sort.cu) and the tree's keys
// (tree/tree_build.cu), which takes two passes at large N (box_partials_kernel). fminf and fmaxf are exact, so
// the box is the same bits in any order and either way.
#include <cuda_runtime.h>

#include <cfloat>

namespace nbody::kernels {

constexpr int kBoxThreads = 1024;

// Min and max of x, y and z over the float4 bodies first, first + stride, ... below n (thread t starting at
// first + t), handed to finish(lo, hi) (two float[3]) on thread 0 alone; call from every thread of a
// kBoxThreads block.
template <class Finish>
__device__ __forceinline__ void block_bounds(const float4* pos, int n, Finish finish, int first = 0,
                                             int stride = kBoxThreads) {
    float lo[3] = {FLT_MAX, FLT_MAX, FLT_MAX}, hi[3] = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
    for (int i = first + int(threadIdx.x); i < n; i += stride) {
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

// The first pass at large N (tree/tree_build.cu's box_partials_kernel): one block reads 32 MB at 2M bodies
// in 0.24 ms, a tenth of a block step; box_blocks(n) blocks each reduce every box_blocks(n)-th stretch of
// kBoxThreads bodies into a (lo, hi) pair of float4s. Each block holds a body, so lo <= hi in every pair and
// block_bounds over the 2 x blocks float4s gives the box of all (the min of the lo's and hi's is the min of
// the lo's).
constexpr int kBoxPartials = 256;
inline int box_blocks(int n) {
    const int blocks = (n + kBoxThreads - 1) / kBoxThreads;
    return blocks < 1 ? 1 : blocks > kBoxPartials ? kBoxPartials : blocks;
}

}  // namespace nbody::kernels
