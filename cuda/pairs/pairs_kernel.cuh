#pragma once
// The pairs family: Newton's third law on the CUDA cores. Each pair of bodies is evaluated once and its force
// added to both, so the distance, the rsqrt and the cube are shared by two interactions:
//     per pair: 3 FADD (d), 3 FFMA (r^2 + eps^2), MUFU.RSQ, 4 FMUL (r^-3, m_j r^-3, m_i r^-3), 3 + 3 FFMA
//     = 17 issued instructions for 2 interactions, against 13 for one in step_kernel.cuh
// (flops as the house counts them: 2 x 20 per pair). What makes it work on a GPU is where the second sum goes:
// lane l of a warp holds k i-bodies (and their sums) in registers, the warp sweeps a group of 32 u j-bodies in
// 32 rotation steps, lane l taking j-body (l + t) mod 32 at step t, and the j-bodies' sums travel with them:
// after each step every lane passes its u sums to the lane below (3 u SHFL a step). After 32 steps each sum is
// back in the lane it started in, complete for the warp's i-bodies, with no atomics. Per step: k u pairs, u
// loads (L1), 3 u shuffles; k 8 u 2: (16 x 17 + 2 + 6 + ~4) / 32 = 8.9 instructions per interaction.
//
// The grid: bodies in strips of `strip` = block / q x k (each i-set's 32 k i-bodies side by side); block b takes
// tile (r, c) of the upper triangle of strips x strips, r <= c. Warp w serves i-set w / q and every q-th j-group
// of strip c from w % q on: off the diagonal it sweeps them against its i-bodies of strip r and stores its sums on
// those j-bodies in its i-set's rows of shared memory (the q warps of a set fill disjoint columns); at the end the
// block adds the sets' rows, and each set's q i-sums, in a fixed order. A diagonal tile is swept one way only
// (every pair of it both ways, from the i side). The tiles run in bands of diagonals d = c - r, one launch a
// band (LaunchPlan::band, core/kernels/kernel_config.hpp) into a buffer of S = min(2 D, T + 1) slots (two buffers, band b
// in b mod 2, where bands of 8 diagonals or more need more than one, so a band's tiles can run beside the last one's
// finish and tail): tile (r, r + d) writes strip r's sums into slot d - d0 (counting up) and strip c's into slot
// S - 1 - (d - d0) (counting down). A body in strip x is the row's of tiles (x, x + d), d < T - x, and the column's
// of (x - d, x), 1 <= d <= x: two runs from the band's start, T + 1 - 2 d0 and 2 D long together at most, so the
// two ends never meet. The diagonals also fall in groups of equal tile counts (pairs_group_ends,
// core/kernels/kernel_config.hpp); bands start on multiples of D and a band may end early at a part's last group.
// pairs_finish_kernel adds a body's slots group by group in a fixed order (four lanes a body over the group's row
// slots then its column slots, and a butterfly; one lane where the bands are narrow), each group onto its sum from the
// bands before, finished groups onto the running total (one part) or out to the body's owner (several parts,
// pairs_combine_kernel adds them there in group order), and after the last group does the leap-frog update.
// Scratch O(N); the result does not depend on the order the blocks ran in, nor on the number of parts.
//
// Positions are read past N: LeapfrogEngine allocates kPairsMaxStrip zeroed (massless) bodies after the last
// one, so a partial strip needs no bounds checks (mass 0 adds nothing; soft2 > 0 keeps r^2 finite).
#include <cuda_runtime.h>

#include "direct/step_kernel.cuh"

namespace nbody::kernels {

// The StepArgs fields the pairs kernels read besides in.pos (float4 bodies, w = mass, N plus the zeroed padding),
// soft2 and the leap-frog ones.
struct PairsView {
    float4* partial;  // StepArgs::partial: this band's buffer, [slots][strips x strip] partial sums, slot-major
                      // (w unused)
    float4* running;  // StepArgs::running: the running sum of the group in progress, then the running total over
                      // groups, [strips x strip] each
    int strips;       // StepArgs::chunk: T = ceil(N / strip)
    int strip;        // StepArgs::tile: bodies per strip, block x k
    int band, band_begin, band_end;  // diagonals a launch may take, and this launch's [begin, end)
    int slots;                       // partial sums a body may get in a band: min(2 band, strips + 1)
    __device__ explicit PairsView(const StepArgs& a)
        : partial(static_cast<float4*>(a.partial)), running(a.running), strips(a.chunk), strip(a.tile), band(a.band),
          band_begin(a.band_begin), band_end(a.band_end), slots(min(2 * a.band, a.chunk + 1)) {}
    __device__ long long slot_elems() const { return static_cast<long long>(strips) * strip; }
    __device__ float4* group_running() const { return running; }
    __device__ float4* total_running() const { return running + slot_elems(); }
};

namespace pairs {

// Tile b of the band [d0, d1), row by row as the whole triangle was (one band is exactly that order: blocks of
// one row share its i-strip, and the cheaper diagonal tiles are spread over the grid rather than all in its first
// wave, which cost up to 18% at N = 10,000): rows r <= T - d1 hold all D = d1 - d0 diagonals, the rows below
// T - r - d0 each. At most D steps of the loop.
__device__ __forceinline__ void band_tile_of(int b, int t, int d0, int d1, int& r, int& d) {
    const int width = d1 - d0, full = max(0, t - d1 + 1);
    if (b < full * width) {
        r = b / width, d = d0 + b % width;
        return;
    }
    b -= full * width;
    r = full;
    while (b >= t - r - d0) b -= t - r - d0, ++r;
    d = d0 + b;
}

// One pair: the force of j on i into ai, of i on j into aj (17 instructions, see the top).
__device__ __forceinline__ void pair(const float4& xi, const float4& xj, float soft2, float3& ai, float3& aj) {
    const float dx = xj.x - xi.x, dy = xj.y - xi.y, dz = xj.z - xi.z;
    const float r2 = fmaf(dz, dz, fmaf(dy, dy, fmaf(dx, dx, soft2)));
    const float inv_r = rsqrtf(r2);
    const float inv_r3 = inv_r * inv_r * inv_r;
    const float wi = xj.w * inv_r3, wj = xi.w * inv_r3;
    ai.x = fmaf(dx, wi, ai.x), ai.y = fmaf(dy, wi, ai.y), ai.z = fmaf(dz, wi, ai.z);
    aj.x = fmaf(-dx, wj, aj.x), aj.y = fmaf(-dy, wj, aj.y), aj.z = fmaf(-dz, wj, aj.z);
}

// The force of j on i only (13 instructions): the diagonal tiles.
__device__ __forceinline__ void one_way(const float4& xi, const float4& xj, float soft2, float3& ai) {
    const float dx = xj.x - xi.x, dy = xj.y - xi.y, dz = xj.z - xi.z;
    const float r2 = fmaf(dz, dz, fmaf(dy, dy, fmaf(dx, dx, soft2)));
    const float inv_r = rsqrtf(r2);
    const float w = xj.w * (inv_r * inv_r * inv_r);
    ai.x = fmaf(dx, w, ai.x), ai.y = fmaf(dy, w, ai.y), ai.z = fmaf(dz, w, ai.z);
}

}  // namespace pairs

// Dynamic shared memory (pairs_shared_bytes): 3 x strip floats per i-set, then 3 x strip per extra warp of a set
// (q - 1). At most kPairsMaxBlock threads, and two blocks an SM: ptxas keeps to 128 registers.
// SPLIT: the instance for q > 1. Compiled apart because a run-time q moves the whole kernel's register allocation
// and slows the q = 1 code at large N (docs/bench/performance-log.md, q warps sharing an i-set); without it q is the
// constant 1.
template <int K, int U, bool SPLIT>
__global__ void __launch_bounds__(256, 2) pairs_kernel(StepArgs a) {
    static_assert(U <= K && K % U == 0, "a strip is a whole number of j-groups of 32 u bodies");
    extern __shared__ float sums[];  // [sets][x, y, z][strip] sums on strip c's bodies, [q - 1][x, y, z][strip] i-sums
    const int q = SPLIT ? a.q : 1, sets = (blockDim.x >> 5) / q, w = threadIdx.x >> 5, l = threadIdx.x & 31;
    const int set = w / q, part = w % q;  // this warp's i-set, and which of its q j-group shares
    const PairsView p(a);
    const int strip = p.strip;
    int r, c;
    pairs::band_tile_of(static_cast<int>(blockIdx.x), p.strips, p.band_begin, p.band_end, r, c);
    c += r;
    const float4* pos = static_cast<const float4*>(a.in.pos);
    const float soft2 = a.soft2;
    const long long slot = static_cast<long long>(p.strips) * strip;  // elements per slot

    const int i_set = set * 32 * K + l;  // this lane's i-bodies: i_set + 32 k in strip r
    const int i0 = r * strip + i_set;
    float4 xi[K];
    float3 ai[K];
#pragma unroll
    for (int k = 0; k < K; ++k) xi[k] = __ldg(pos + i0 + 32 * k), ai[k] = make_float3(0.f, 0.f, 0.f);
    const float4* strip_c = pos + static_cast<long long>(c) * strip;
    const int groups = strip / (32 * U);

    // The two sweeps below read their j-bodies with the same lines on purpose: one load helper for both changed
    // ptxas's register allocation of the measured instances (8x2 q 1: 128 -> 125 registers, 4x4: 119 -> 122).
    if (r == c) {
#pragma unroll 1
        for (int g = part; g < groups; g += q) {
            const float4* jg = strip_c + g * 32 * U;
#pragma unroll 4
            for (int t = 0; t < 32; ++t) {
                const int m = (l + t) & 31;
                float4 xj[U];
#pragma unroll
                for (int u = 0; u < U; ++u) xj[u] = __ldg(jg + 32 * u + m);
#pragma unroll
                for (int u = 0; u < U; ++u)
#pragma unroll
                    for (int k = 0; k < K; ++k) pairs::one_way(xi[k], xj[u], soft2, ai[k]);
            }
        }
    } else {
        float* mine = sums + static_cast<long long>(set) * 3 * strip;
        const int next = (l + 1) & 31;
#pragma unroll 1
        for (int g = part; g < groups; g += q) {
            const float4* jg = strip_c + g * 32 * U;
            float3 aj[U];
#pragma unroll
            for (int u = 0; u < U; ++u) aj[u] = make_float3(0.f, 0.f, 0.f);
#pragma unroll 4
            for (int t = 0; t < 32; ++t) {
                const int m = (l + t) & 31;  // the j-bodies m + 32 u of the group, whose sums this lane holds now
                float4 xj[U];
#pragma unroll
                for (int u = 0; u < U; ++u) xj[u] = __ldg(jg + 32 * u + m);
#pragma unroll
                for (int u = 0; u < U; ++u)
#pragma unroll
                    for (int k = 0; k < K; ++k) pairs::pair(xi[k], xj[u], soft2, ai[k], aj[u]);
#pragma unroll
                for (int u = 0; u < U; ++u) {  // next step this lane takes body m + 1, whose sums lane l + 1 holds
                    aj[u].x = __shfl_sync(0xffffffffu, aj[u].x, next);
                    aj[u].y = __shfl_sync(0xffffffffu, aj[u].y, next);
                    aj[u].z = __shfl_sync(0xffffffffu, aj[u].z, next);
                }
            }
#pragma unroll
            for (int u = 0; u < U; ++u) {  // after 32 passes lane l holds body l + 32 u's sums again
                const int j = g * 32 * U + 32 * u + l;
                mine[j] = aj[u].x, mine[strip + j] = aj[u].y, mine[2 * strip + j] = aj[u].z;
            }
        }
    }

    // Strip r's sums over strip c: slot i_slot, strip c's over strip r: the next (made here, after the sweeps, so
    // they hold no register through them). With q > 1 the i-sums of the set's other warps are added to its first
    // in part order. Every branch below is the whole block's.
    const bool both_ways = r != c;
    const long long i_slot = c - r - p.band_begin, j_slot = p.slots - 1 - i_slot;
    auto write_i_sums = [&] {
#pragma unroll
        for (int k = 0; k < K; ++k)
            p.partial[i_slot * slot + i0 + 32 * k] = make_float4(ai[k].x, ai[k].y, ai[k].z, 0.f);
    };
    if constexpr (SPLIT) {
        float* isums = sums + static_cast<long long>(sets) * 3 * strip;
        if (part > 0) {
            float* row = isums + static_cast<long long>(part - 1) * 3 * strip;
#pragma unroll
            for (int k = 0; k < K; ++k)
                row[i_set + 32 * k] = ai[k].x, row[strip + i_set + 32 * k] = ai[k].y,
                               row[2 * strip + i_set + 32 * k] = ai[k].z;
        }
        __syncthreads();
        if (part == 0) {
            for (int v = 1; v < q; ++v) {
                const float* row = isums + static_cast<long long>(v - 1) * 3 * strip;
#pragma unroll
                for (int k = 0; k < K; ++k)
                    ai[k].x += row[i_set + 32 * k], ai[k].y += row[strip + i_set + 32 * k],
                        ai[k].z += row[2 * strip + i_set + 32 * k];
            }
            write_i_sums();
        }
        if (!both_ways) return;
    } else {
        write_i_sums();
        if (!both_ways) return;
        __syncthreads();
    }
    // Strip c's sums over strip r: slot j_slot, the sets' rows added in set order.
    for (int j = threadIdx.x; j < strip; j += blockDim.x) {
        float sx = 0.f, sy = 0.f, sz = 0.f;
        for (int v = 0; v < sets; ++v) {
            const float* row = sums + static_cast<long long>(v) * 3 * strip;
            sx += row[j], sy += row[strip + j], sz += row[2 * strip + j];
        }
        p.partial[j_slot * slot + static_cast<long long>(c) * strip + j] = make_float4(sx, sy, sz, 0.f);
    }
}

// Each body's slots of the band, group by group (the groups of core/kernels/kernel_config.hpp the band meets), added in a
// fixed order: a group's slots in the band, then onto the group's running sum from the bands before; a finished
// group onto the running total (one part) or out to group_out (several parts); after the last group, the
// leap-frog update of step_kernel.cuh (LANES threads a body, neighbours in a warp: kPairsFinishLanes, or 1 where
// the bands are narrow, launch_pairs in kernel_table_pairs.cu).
inline constexpr int kPairsFinishLanes = 4;
inline constexpr long long kPairsOneLaneBand = 16;  // bands of this many diagonals or fewer: one lane a body
inline constexpr int kPairsFinishBlock = 256;
template <int LANES>
__global__ void pairs_finish_kernel(StepArgs a);
// Several parts: each of this part's bodies' group sums (its own groups' from group_out, the others' as their
// parts sent them, [group][own bodies]) added in group order as pairs_finish_kernel adds them on one part, then
// the leap-frog update. One thread a body.
__global__ void pairs_combine_kernel(StepArgs a, const float4* received);

}  // namespace nbody::kernels
