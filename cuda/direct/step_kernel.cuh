#pragma once
// The gravity step kernel: shared-memory j-tiles (the Chamomile J-BAG), i-bodies and accumulators in
// registers (the I-POT), the j range of each i-group optionally split over q threads of one warp and over
// s blocks, and the leap-frog update fused into the epilogue, so one launch is one whole step. One template
// for every precision (precision.cuh) and unrolling variant (K i-bodies per thread, U j-bodies per inner
// iteration); a launch updates the i-bodies [i_begin, i_end) of a part against all n bodies.
//
// Build flags (cuda/CMakeLists.txt): -ftz=true. Without flush-to-zero every rsqrtf carries a denormal
// fix-up (a compare and two multiplies): 18 issued instructions per fp32 interaction instead of 13.
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <type_traits>

#include "common/precision.cuh"
#include "core/kernels/kernel_config.hpp"

namespace nbody::kernels {

// Everything one launch needs. Between steps the backend keeps the invariant
//     vel = v_n, acc = a_n, pos_cur = x_n, pos_in = x_{n+1} = x_n + (v_n + a_n h) dt      (h = dt / 2)
// and a step evaluates a_{n+1} at pos_in, then writes
//     v_{n+1} = (v_n + a_n h) + a_{n+1} h,   acc = a_{n+1},   pos_out = x_{n+2} = x_{n+1} + (v_{n+1} + a_{n+1} h) dt
// which is kick-drift-kick with the next step's kick and drift done early. pos_out is the buffer that
// held x_n: no block reads it during the launch. In `prime` mode (after a reset or a change of eps or G)
// the kernel evaluates a_n at pos_in = x_n instead, keeps vel, and writes pos_out = x_{n+1}.
// Arrays are indexed by body (0..n-1) on every part; a part writes only its own [i_begin, i_end).
struct StepArgs {
    Sources in;         // positions the forces are evaluated at (w = mass) and, for DS, their split
    void* pos_out;      // next positions: float4 (fp32) or Dbl4
    float4* hi_out;     // DS: the split of pos_out
    float4* lo_out;
    void* vel;          // v in, v out: float4 (fp32) or Dbl4
    void* acc;          // a in, a out, G included: float4 (fp32) or Dbl4
    void* partial;      // s > 1: partial sums [s][i_end - i_begin], Vec of the precision
    unsigned* counters; // s > 1: blocks finished per i-group (reset to 0 by the last)
    int n;              // bodies exerting force (all of them)
    int i_begin, i_end; // bodies this launch updates
    int q;              // threads per i-group (j-split in a warp), a power of two dividing 32
    int splits;         // blocks per i-group (j-split over blocks)
    int chunk;          // j-bodies per split (pairs: the strips, pairs_kernel.cuh)
    int tile;           // j-bodies per shared-memory tile: a multiple of q * U (pairs: bodies per strip)
    int band;           // pairs: diagonals a launch may take (LaunchPlan::band), which lays out the slots
    int band_begin, band_end;  // pairs: this launch's diagonals [begin, end), end - begin <= band (set by the launcher)
    int groups;                           // pairs: pairs_groups(T), the diagonal groups of core/kernels/kernel_config.hpp
    int group_ends[kPairsMaxGroups + 1];  // pairs: pairs_group_ends, groups + 1 of them
    int group_first, group_last;       // pairs: this part's groups [first, last) (one part: all of them)
    float4* group_out;  // pairs on several parts: this part's groups' sums, [group][T x strip]; null on one part
    float soft2;        // eps^2 + self-interaction floor (length^2)
    double soft2_d;
    double G, half_dt, dt;  // h = dt / 2
    bool prime;
    float4* running;    // pairs: the running sums of the group in progress and of the groups done, [2][T x strip]
                        // (set by the launcher, beside `partial` = the band's buffer of slots)
};

template <class P>
__device__ __forceinline__ typename P::Acc zero_acc() {
    typename P::Acc a{};
    return a;
}

// eps^2 in the precision of the interaction (double only for Fp64).
template <class P>
__device__ __forceinline__ auto softening(const StepArgs& a) {
    if constexpr (std::is_same_v<P, Fp64>) return a.soft2_d;
    else return a.soft2;
}

// A load that bypasses L1 (which is not coherent between blocks): partial sums other blocks wrote.
__device__ __forceinline__ float4 load_cg(const float4* p) { return __ldcg(p); }
__device__ __forceinline__ Dbl4 load_cg(const Dbl4* p) {
    const double2 a = __ldcg(reinterpret_cast<const double2*>(p)), b = __ldcg(reinterpret_cast<const double2*>(p) + 1);
    return {a.x, a.y, b.x, b.y};
}

// The leap-frog epilogue for body i with the acceleration sum (without G) `s`: see StepArgs.
template <class P>
__device__ void leapfrog_update(const StepArgs& a, int i, typename P::Real sx, typename P::Real sy,
                                typename P::Real sz) {
    using R = typename P::Real;
    using V = typename P::Vec;
    using B = typename P::Body;
    const R g = static_cast<R>(a.G), h = static_cast<R>(a.half_dt), dt = static_cast<R>(a.dt);
    const R ax = g * sx, ay = g * sy, az = g * sz;
    V* vel = static_cast<V*>(a.vel);
    V* acc = static_cast<V*>(a.acc);
    V v = vel[i];
    if (!a.prime) {
        const V ao = acc[i];
        v.x = (v.x + ao.x * h) + ax * h;
        v.y = (v.y + ao.y * h) + ay * h;
        v.z = (v.z + ao.z * h) + az * h;
        vel[i] = v;
    }
    V an = v;  // w unused
    an.x = ax, an.y = ay, an.z = az;
    acc[i] = an;
    const B p = static_cast<const B*>(a.in.pos)[i];
    B next = p;  // keeps the mass in w
    next.x = p.x + (v.x + ax * h) * dt;
    next.y = p.y + (v.y + ay * h) * dt;
    next.z = p.z + (v.z + az * h) * dt;
    static_cast<B*>(a.pos_out)[i] = next;
    if constexpr (P::kSlots == 2 && P::kFlush > 0) {  // DS: the float split the next step's tiles read
        const float xh = static_cast<float>(next.x), yh = static_cast<float>(next.y), zh = static_cast<float>(next.z);
        a.hi_out[i] = make_float4(xh, yh, zh, static_cast<float>(next.w));
        a.lo_out[i] = make_float4(static_cast<float>(next.x - xh), static_cast<float>(next.y - yh),
                                  static_cast<float>(next.z - zh), 0.f);
    }
}

// Sum over the s splits of an i-group, in split order (so the result does not depend on which block
// finished last), then the epilogue. Called by the last block of the group to finish.
template <class P>
__device__ void reduce_splits_and_update(const StepArgs& a, int i) {
    using V = typename P::Vec;
    using R = typename P::Real;
    const int n_i = a.i_end - a.i_begin, at = i - a.i_begin;
    const V* part = static_cast<const V*>(a.partial);
    R sx = 0, sy = 0, sz = 0;
#pragma unroll 1
    for (int s = 0; s < a.splits; ++s) {
        const V v = load_cg(part + static_cast<long long>(s) * n_i + at);
        sx += v.x, sy += v.y, sz += v.z;
    }
    leapfrog_update<P>(a, i, sx, sy, sz);
}

// After a block of i-group blockIdx.x has written its split's partial sums: true in the last of the group's
// a.splits blocks to finish (which then adds them up), with every other block's sums visible to it. Resets the
// group's counter for the next launch. Called by every thread of the block (it holds two barriers).
__device__ inline bool last_split_to_finish(const StepArgs& a) {
    __threadfence();  // the partial sums are visible device-wide before the count says so
    __shared__ bool last;
    __syncthreads();
    if (threadIdx.x == 0) {
        const unsigned done = atomicAdd(&a.counters[blockIdx.x], 1u);
        last = done == static_cast<unsigned>(a.splits - 1);
        if (last) a.counters[blockIdx.x] = 0;  // ready for the next launch
    }
    __syncthreads();
    if (last) __threadfence();
    return last;
}

// Fp32 without tiles (StepArgs::tile == 0): each slice reads its j-bodies straight from global memory through
// L1, no shared memory and no barrier. Lanes of a warp with the same slice read the same address (one
// broadcast request), and every warp of an SM reads the same j range, so after the first warp the bodies come
// from L1. What it removes: the block-wide barriers of each tile, at which the warps a scheduler served last
// keep the others waiting (Nsight Compute, ij 8x8 at N = 131,072: 0.34 warps stalled at a barrier per issued
// instruction). The loop keeps one pointer per slice and reads U bodies a trip at offsets u x q; a q of 1 gets
// its own loop so the offsets are immediates (13.2 issued instructions per interaction for 8x8).
template <class P>
inline constexpr bool kStreams = P::kSlots == 1 && P::kFlush == 0 && std::is_same_v<typename P::J, float4>;

template <class P, int K, int U, int Q>
__device__ __forceinline__ void stream_groups(const float4*& p, int groups, int q, typename P::Real soft2,
                                              const typename P::I (&xi)[K], typename P::Acc (&acc)[K]) {
    const int stride = Q ? Q : q;
#pragma unroll 1
    for (int g = 0; g < groups; ++g, p += U * stride) {
        float4 bj[U];
#pragma unroll
        for (int u = 0; u < U; ++u) bj[u] = __ldg(p + u * stride);
#pragma unroll
        for (int u = 0; u < U; ++u)
#pragma unroll
            for (int k = 0; k < K; ++k) P::interact(xi[k], bj[u], soft2, acc[k]);
    }
}

template <class P, int K, int U>
__device__ __forceinline__ void stream_sweep(const StepArgs& a, int j0, int j1, int slice, typename P::Real soft2,
                                             const typename P::I (&xi)[K], typename P::Acc (&acc)[K]) {
    const int q = a.q;
    const float4* p = static_cast<const float4*>(a.in.pos) + j0 + slice;
    // Bodies j0 + slice + m q for m < mine, all below j1: whole groups of U, then one group with the missing
    // bodies read as massless ones (m = 0 adds nothing), unrolled like the others. A rolled loop over the
    // rest cost a third of the rate at N = 1,000 (31 bodies a slice, up to 7 of them in the rest).
    const int mine = j1 > j0 + slice ? (j1 - j0 - slice + q - 1) / q : 0;
    if (q == 1)
        stream_groups<P, K, U, 1>(p, mine / U, q, soft2, xi, acc);
    else
        stream_groups<P, K, U, 0>(p, mine / U, q, soft2, xi, acc);
    const int rest = mine % U;
    if (rest == 0) return;
    float4 bj[U];
#pragma unroll
    for (int u = 0; u < U; ++u) bj[u] = u < rest ? __ldg(p + u * q) : make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll
    for (int u = 0; u < U; ++u)
#pragma unroll
        for (int k = 0; k < K; ++k) P::interact(xi[k], bj[u], soft2, acc[k]);
}

// Block layout: thread t serves i-lane t / q and j-slice t % q, so the q slices of a lane sit in one warp
// and reduce with shuffles. Slice s reads tile entries s, s + q, s + 2q, ...: the q slices of a lane read
// neighbouring entries (conflict-free for q <= 8), and lanes in a warp with the same slice read the same
// address (a broadcast). blockIdx.x is the i-group, blockIdx.y the split: split b sums the j-bodies
// [b chunk, (b + 1) chunk). ROLLED keeps the loop over j groups rolled (`#pragma unroll 1`), as the paper's
// no-unrolling and i-unrolling variants do; the ij variant unrolls U.
template <class P, int K, int U, bool ROLLED, bool STREAM>
__device__ __forceinline__ void step_body(const StepArgs& a) {
    extern __shared__ float4 smem[];
    using Acc = typename P::Acc;
    const int q = a.q;
    const int lanes = blockDim.x / q;
    const int lane = threadIdx.x / q, slice = threadIdx.x % q;
    const int block_first = a.i_begin + static_cast<int>(blockIdx.x) * lanes * K;
    const int j0 = static_cast<int>(blockIdx.y) * a.chunk, j1 = min(a.n, j0 + a.chunk);
    const auto soft2 = softening<P>(a);

    typename P::I xi[K];
    Acc acc[K];
#pragma unroll
    for (int k = 0; k < K; ++k) {
        const int i = block_first + k * lanes + lane;  // neighbouring lanes take neighbouring bodies
        xi[k] = P::load_i(a.in, i < a.i_end ? i : a.i_begin);
        acc[k] = zero_acc<P>();
    }

    if constexpr (STREAM) {
        static_assert(kStreams<P>, "only fp32 reads its j-bodies without tiles");
        stream_sweep<P, K, U>(a, j0, j1, slice, soft2, xi, acc);
    } else {
        // Two tile buffers: while the block computes on one, cp.async fills the other from global memory, so
        // the L2 latency of a tile load hides behind the previous tile's arithmetic.
        const int slots = P::kSlots * a.tile;
        auto fetch = [&](int base, float4* buf) {
            for (int t = threadIdx.x; t < a.tile; t += blockDim.x) P::fetch(buf, a.tile, t, a.in, base + t, base + t < j1);
            __pipeline_commit();
        };
        fetch(j0, smem);
        int buf = 0;
        for (int base = j0; base < j1; base += a.tile, buf ^= 1) {
            const float4* cur = smem + buf * slots;
            if (base + a.tile < j1) {
                fetch(base + a.tile, smem + (buf ^ 1) * slots);
                __pipeline_wait_prior(1);  // this tile has landed; the next one may still be in flight
            } else {
                __pipeline_wait_prior(0);
            }
            __syncthreads();
            // Entries this slice must read: ceil(bodies left / q), rounded up to a whole U group.
            const int left = min(a.tile, j1 - base);
            const int per_slice = ((left + q - 1) / q + U - 1) / U * U;
            // The j-bodies [from, to) of this slice's share of the tile.
            auto sweep = [&](int from, int to) {
                if constexpr (ROLLED) {
    #pragma unroll 1
                    for (int jj = from; jj < to; ++jj) {
                        const typename P::J bj = P::body(cur, a.tile, jj * q + slice);
    #pragma unroll
                        for (int k = 0; k < K; ++k) P::interact(xi[k], bj, soft2, acc[k]);
                    }
                } else {
    #pragma unroll 1
                    for (int jj = from; jj < to; jj += U) {
                        typename P::J bj[U];
    #pragma unroll
                        for (int u = 0; u < U; ++u) bj[u] = P::body(cur, a.tile, (jj + u) * q + slice);
    #pragma unroll
                        for (int u = 0; u < U; ++u)
    #pragma unroll
                            for (int k = 0; k < K; ++k) P::interact(xi[k], bj[u], soft2, acc[k]);
                    }
                }
            };
            if constexpr (P::kFlush == 0) {
                sweep(0, per_slice);
            } else {  // DS: runs of kFlush j-bodies, each flushed into the double sums
    #pragma unroll 1
                for (int run = 0; run < per_slice; run += P::kFlush) {
                    sweep(run, min(per_slice, run + P::kFlush));
    #pragma unroll
                    for (int k = 0; k < K; ++k) P::flush(acc[k]);
                }
            }
            __syncthreads();  // everyone is done with `cur` before the next fetch overwrites it
        }

    }

    // Butterfly sum over the q slices of each lane: every slice ends with the same total, in the same
    // order, so the result does not depend on which slice writes it.
    for (int off = 1; off < q; off <<= 1) {
#pragma unroll
        for (int k = 0; k < K; ++k) {
            acc[k].x += __shfl_xor_sync(0xffffffffu, acc[k].x, off);
            acc[k].y += __shfl_xor_sync(0xffffffffu, acc[k].y, off);
            acc[k].z += __shfl_xor_sync(0xffffffffu, acc[k].z, off);
        }
    }

    // One split: the epilogue at once. Slice k % q handles i-body k, so the writes spread over the slices.
    if (a.splits == 1) {
#pragma unroll
        for (int k = 0; k < K; ++k) {
            const int i = block_first + k * lanes + lane;
            if (i < a.i_end && (k % q) == slice) leapfrog_update<P>(a, i, acc[k].x, acc[k].y, acc[k].z);
        }
        return;
    }

    // Several splits: publish this block's partial sums; the last block of the i-group to finish sums them.
    using V = typename P::Vec;
    V* part = static_cast<V*>(a.partial) + static_cast<long long>(blockIdx.y) * (a.i_end - a.i_begin);
#pragma unroll
    for (int k = 0; k < K; ++k) {
        const int i = block_first + k * lanes + lane;
        if (i < a.i_end && (k % q) == slice) {
            V v{};
            v.x = acc[k].x, v.y = acc[k].y, v.z = acc[k].z;
            part[i - a.i_begin] = v;
        }
    }
    if (!last_split_to_finish(a)) return;
    // Rolled on purpose: the accumulators are dead here, and an unrolled loop of K reductions would raise
    // the register count of the whole kernel (and cost occupancy in the inner loop).
#pragma unroll 1
    for (int k = 0; k < K; ++k) {
        const int i = block_first + k * lanes + lane;
        if (i < a.i_end && (k % q) == slice) reduce_splits_and_update<P>(a, i);
    }
}

// Two entry points over the same body. __launch_bounds__(512, 1) tells ptxas a block has at most 512 threads,
// so it may keep more values in flight (fp32 8x8: 95 -> 127 registers, 4x4: 55 -> 80; ds and fp64 alike).
// That pays for ds, fp64 and fp32 k >= 4, but costs the k = 2 shapes that win fp32 at small N
// (docs/bench/performance-log.md, the step kernels' launch bounds). So k = 2 fp32 instances stay unbounded;
// the bounded ones refuse blocks over 512 (the engine reads cudaFuncAttributes::maxThreadsPerBlock).
template <class P, int K>
constexpr bool bounded_step_kernel() {
    return !std::is_same_v<P, Fp32> || K >= 4;
}

// STREAM: the tile-free instance (fp32 only, StepArgs::tile == 0), compiled apart so that its extra registers
// do not burden the tiled one (in one kernel with a run-time switch, fp32 4x8 went from 89 to 103 registers and
// lost 2% at N = 18,000).
template <class P, int K, int U, bool ROLLED, bool STREAM>
__global__ void step_kernel(StepArgs a) {
    step_body<P, K, U, ROLLED, STREAM>(a);
}

template <class P, int K, int U, bool ROLLED, bool STREAM>
__global__ void __launch_bounds__(512, 1) step_kernel_bounded(StepArgs a) {
    step_body<P, K, U, ROLLED, STREAM>(a);
}

}  // namespace nbody::kernels
