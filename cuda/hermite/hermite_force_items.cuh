#pragma once
// The Hermite force kernel, one template for both orders: a policy P (hermite_force.cuh for 4th order,
// hermite6_force.cuh for 6th) says how a j-body sits in the shared tile (J), an i-body in registers (I), what
// a thread sums (Acc, Total), how the q slices of a lane reduce (butterfly) and what the records are
// (put_records, P::kRecords of them per i-body and j-split).
#include <cuda_runtime.h>

#include <algorithm>
#include <type_traits>

#include "common/cuda_check.cuh"
#include "hermite/hermite_kernel.cuh"
#include "hermite/hermite_plan.hpp"

namespace nbody::kernels {

// The active positions [lo, hi) of this part: the active list split evenly over the parts, on the device.
struct Slice {
    int lo, hi;
};
__device__ inline int min_groups_of(const HermiteArgs& a) {
    return a.force_min_groups > 0 ? a.force_min_groups : kMinGroupsForK;
}
__device__ inline Slice part_slice(const HermiteArgs& a) {
    const long long na = *a.n_active;
    return {static_cast<int>(na * a.part / a.parts), static_cast<int>(na * (a.part + 1) / a.parts)};
}

// The force kernel's work items (below) with K i-bodies per thread (pl.k, q = 1 then): lanes t, t + block,
// ..., each j-body read from the tile once for K interactions (the 2 LDS.128 per interaction of fp32 become
// 2 / K).
template <class P, bool PHI, int K>
__device__ void force_items(const HermiteArgs& a, const ForcePlan& pl, Slice sl, typename P::J* tile) {
    using Rec = typename P::Rec;
    const int ni = sl.hi - sl.lo;
    const int lane = threadIdx.x / pl.q, slice = threadIdx.x % pl.q, stride = blockDim.x / pl.q;
    const int items = pl.groups * pl.splits;
    for (int w = blockIdx.x; w < items; w += gridDim.x) {  // uniform over the block
        const int group = w / pl.splits, split = w % pl.splits;
        typename P::I bi[K];
        typename P::Acc s[K];
#pragma unroll
        for (int m = 0; m < K; ++m) {
            const int p = group * pl.lanes + lane + m * stride;
            bi[m] = P::to_i(P::load(a.pred, a.active[sl.lo + (p < ni ? p : 0)]));
            s[m] = typename P::Acc{};
        }
        const int j0 = split * pl.chunk, j1 = min(a.n, j0 + pl.chunk);
        for (int base = j0; base < j1; base += blockDim.x) {
            __syncthreads();  // the previous tile (or work item) is done with
            const int j = base + threadIdx.x;
            if (j < j1) tile[threadIdx.x] = P::load(a.pred, j);
            __syncthreads();
            const int count = min(static_cast<int>(blockDim.x), j1 - base);
            if (pl.q == 1 && count == kForceBlock) {  // the common case (many active): a fixed trip count
#pragma unroll(K == 1 ? 8 : 32 / K)                   // 8 or 32 interactions a trip
                for (int t = 0; t < kForceBlock; ++t) {
                    const typename P::J b = tile[t];
#pragma unroll
                    for (int m = 0; m < K; ++m) P::template interact<PHI>(bi[m], b, a.soft2, a.soft2_d, s[m]);
                }
            } else {
#pragma unroll(K == 1 ? 4 : 1)
                for (int t = slice; t < count; t += pl.q) {
                    const typename P::J b = tile[t];
#pragma unroll
                    for (int m = 0; m < K; ++m) P::template interact<PHI>(bi[m], b, a.soft2, a.soft2_d, s[m]);
                }
            }
#pragma unroll
            for (int m = 0; m < K; ++m) P::flush(s[m]);
        }
#pragma unroll
        for (int m = 0; m < K; ++m) {
            typename P::Total r = P::total(s[m]);
            butterfly(r, pl.q);  // over the q slices of a lane (same warp)
            const int p = group * pl.lanes + lane + m * stride;
            if (p < ni && slice == 0)
                put_records(
                    static_cast<Rec*>(a.partial) + P::kRecords * (static_cast<long long>(split) * ni + p), r);
        }
    }
}

// Force: the active i-bodies of this part against all n predicted j-bodies. The grid is fixed (one wave);
// the work items are (i-group, j-split) pairs planned from the active count (force_plan), handed out to
// the blocks round-robin. Thread t of a block serves i-lane t / q (and, k > 1, t + block ...) and j-slice
// t % q; the q slices of a lane are neighbouring threads of one warp and reduce with shuffles; the splits
// go to `partial` and the corrector sums them in a fixed order (deterministic: no atomics), in double.
// PHI: the potential too (only for cuda_hermite_forces; the stepping engine leaves it 0 in acc.w).
// __launch_bounds__(128, 1): told that a block has at most 128 threads, ptxas keeps more values in flight
// (fp32 121 registers instead of 95: 4 blocks of 128 per SM instead of 5), and the fewer, busier warps win; a
// higher minimum of blocks spills (docs/bench/performance-log.md, the Hermite force kernel's launch bounds).
template <class P, bool PHI>
__global__ void __launch_bounds__(kForceBlock, 1) hermite_force_kernel(HermiteArgs a) {
    extern __shared__ float4 smem[];
    typename P::J* tile = reinterpret_cast<typename P::J*>(smem);
    const Slice sl = part_slice(a);
    const int ni = sl.hi - sl.lo;
    if (ni <= 0) return;
    const ForcePlan pl = force_plan(ni, a.n, blockDim.x, gridDim.x, a.force_k, min_groups_of(a));
    if constexpr (P::kMaxK >= 4)
        if (pl.k == 4) return force_items<P, PHI, 4>(a, pl, sl, tile);
    if constexpr (P::kMaxK >= 2)
        if (pl.k == 2) return force_items<P, PHI, 2>(a, pl, sl, tile);
    force_items<P, PHI, 1>(a, pl, sl, tile);
}

// The corrector's loop, one warp per active body of this part (a grid-stride loop over the slice, whose size
// only the device knows): the lanes add the R records of every 32nd j-split and shuffle the sums together (a
// block step of 100 active bodies out of 65,536 has 512 splits: one thread per body would make 512 dependent
// L2 round trips); lane 0 then calls correct(i, v) for body i with the sums (sum_records' layout).
template <int R, class Rec, class Correct>
__device__ void for_each_active_sum(const HermiteArgs& a, Correct&& correct) {
    const Slice sl = part_slice(a);
    const int ni = sl.hi - sl.lo;
    const ForcePlan pl = force_plan(ni, a.n, a.force_block, a.force_grid, a.force_k, min_groups_of(a));
    const int lane = threadIdx.x & 31;
    const int warps = static_cast<int>(gridDim.x * (blockDim.x / 32));
    const Rec* part = static_cast<const Rec*>(a.partial);
    for (int p = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) / 32); p < ni; p += warps) {
        double v[4 * R];
        sum_records<R>(part, pl.splits, ni, p, v);
        if (lane == 0) correct(a.active[sl.lo + p], v);
    }
}

// The force kernel as a HermiteKernelSet wants it, for the policy Pick chooses by precision (Pick::of(prec,
// f) calls f with a value of that policy's type): its launch, the kernel as a function (attributes,
// occupancy), the tile's bytes a thread, the bytes of a partial-sum record and the most i-bodies a thread.
template <class Pick>
struct ForceKernelOf {
    static void launch(Precision prec, const HermiteArgs& a, cudaStream_t s) {
        Pick::of(prec, [&](auto pol) {
            using P = decltype(pol);
            const size_t smem = static_cast<size_t>(a.force_block) * sizeof(typename P::J);
            if (a.potential)
                hermite_force_kernel<P, true><<<a.force_grid, a.force_block, smem, s>>>(a);
            else
                hermite_force_kernel<P, false><<<a.force_grid, a.force_block, smem, s>>>(a);
        });
        NBODY_CUDA_CHECK_LAUNCH("hermite_force_kernel");
    }
    static const void* function(Precision prec, bool potential) {
        const void* f = nullptr;
        Pick::of(prec, [&](auto pol) {
            using P = decltype(pol);
            f = potential ? reinterpret_cast<const void*>(&hermite_force_kernel<P, true>)
                          : reinterpret_cast<const void*>(&hermite_force_kernel<P, false>);
        });
        return f;
    }
    static int tile_bytes(Precision prec) {
        int b = 0;
        Pick::of(prec, [&](auto pol) { b = static_cast<int>(sizeof(typename decltype(pol)::J)); });
        return b;
    }
    static int record_bytes(Precision prec) {
        int b = 0;
        Pick::of(prec, [&](auto pol) { b = static_cast<int>(sizeof(typename decltype(pol)::Rec)); });
        return b;
    }
    static int max_k(Precision prec) {
        int k = 1;
        Pick::of(prec, [&](auto pol) { k = decltype(pol)::kMaxK; });
        return k;
    }
};

// The corrector's grid: fixed (the force kernel's block count, 8 warps each of `block` threads), since the
// active count lives on the device and the warps stride over it.
inline unsigned correct_grid(const HermiteArgs& a, int block) {
    const long long by_n = (static_cast<long long>(a.n) + block / 32 - 1) / (block / 32);
    return static_cast<unsigned>(std::max(1LL, std::min<long long>(a.force_grid, by_n)));
}

}  // namespace nbody::kernels
