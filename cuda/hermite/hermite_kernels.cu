// The Hermite kernels: predictor (every body), force on the active list (j split over threads and blocks),
// corrector with the next time step (the active list). See hermite_kernel.cuh for the data and the plan.
#include <algorithm>
#include <type_traits>

#include "common/cuda_check.cuh"
#include "hermite/hermite_force.cuh"
#include "hermite/hermite_kernel.cuh"
#include "hermite/hermite_math.cuh"

namespace nbody::kernels {

namespace {

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

template <class B>
__device__ inline B make_body(double x, double y, double z, double w) {
    if constexpr (std::is_same_v<B, float4>)
        return make_float4(static_cast<float>(x), static_cast<float>(y), static_cast<float>(z),
                           static_cast<float>(w));
    else
        return B{x, y, z, w};
}

// ---------------------------------------------------------------------------------------------------------
// Predictor: every body to the block time, in double, stored in the force precision.
template <class P>
__global__ void hermite_predict_kernel(HermiteArgs a) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= a.n) return;
    const double tau = static_cast<double>(*a.t_next - a.self.t_last[i]) * a.tick;
    const Dbl4 x = a.self.pos[i];
    const HermiteBody b = {dvec(x), dvec(a.self.vel[i]), dvec(a.self.acc[i]), dvec(a.self.jerk[i])};
    DVec xp, vp;
    hermite_predict(b, tau, xp, vp);
    P::store(a.pred, i, xp, vp, x.w);
}

__global__ void hermite_predict_now_kernel(HermiteBodies b, const HermiteStats* stats, int n, double tick,
                                           Dbl4* pos, Dbl4* vel) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const double tau = static_cast<double>(stats->t_now - b.t_last[i]) * tick;
    const Dbl4 x = b.pos[i];
    DVec xp, vp;
    hermite_predict({dvec(x), dvec(b.vel[i]), dvec(b.acc[i]), dvec(b.jerk[i])}, tau, xp, vp);
    pos[i] = {xp.x, xp.y, xp.z, x.w};
    vel[i] = {vp.x, vp.y, vp.z, 0.0};
}

__global__ void iota_kernel(int* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = i;
}

// ---------------------------------------------------------------------------------------------------------
// The force kernel's work items (below) with K i-bodies per thread (pl.k, q = 1 then): lanes t, t + block, ..., each j-body read from the tile once
// for K interactions (the 2 LDS.128 per interaction of fp32 become 2 / K).
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
            for (int off = 1; off < pl.q; off <<= 1) {  // butterfly over the q slices of a lane (same warp)
                r.ax += __shfl_xor_sync(0xffffffffu, r.ax, off);
                r.ay += __shfl_xor_sync(0xffffffffu, r.ay, off);
                r.az += __shfl_xor_sync(0xffffffffu, r.az, off);
                r.jx += __shfl_xor_sync(0xffffffffu, r.jx, off);
                r.jy += __shfl_xor_sync(0xffffffffu, r.jy, off);
                r.jz += __shfl_xor_sync(0xffffffffu, r.jz, off);
                r.phi += __shfl_xor_sync(0xffffffffu, r.phi, off);
            }
            const int p = group * pl.lanes + lane + m * stride;
            if (p < ni && slice == 0) {
                Rec* out = static_cast<Rec*>(a.partial) + 2 * (static_cast<long long>(split) * ni + p);
                out[0] = make_body<Rec>(r.ax, r.ay, r.az, r.phi);
                out[1] = make_body<Rec>(r.jx, r.jy, r.jz, 0.0);
            }
        }
    }
}

// Force: the active i-bodies of this part against all n predicted j-bodies. The grid is fixed (one wave);
// the work items are (i-group, j-split) pairs planned from the active count (force_plan), handed out to
// the blocks round-robin. Thread t of a block serves i-lane t / q (and, k > 1, t + block ...) and j-slice
// t % q; the q slices of a lane are neighbouring threads of one warp and reduce with shuffles; the splits
// go to `partial` and the corrector sums them in a fixed order (deterministic: no atomics), in double.
// PHI: the potential too (only for cuda_hermite_forces; the stepping engine leaves it 0 in acc.w).
// __launch_bounds__(128, 1): told that a block has at most 128 threads, ptxas keeps more values in flight (fp32
// 121 registers instead of 95: 4 blocks of 128 per SM instead of 5), and the fewer, busier warps win; a higher
// minimum of blocks spills (docs/bench/performance-log.md, the Hermite force kernel's launch bounds).
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

// ---------------------------------------------------------------------------------------------------------
// The corrector of body i with its new a1, j1 (G included) and potential phi.
__device__ void correct_body(const HermiteArgs& a, int i, DVec a1, DVec j1, double phi) {
    const Tick t_last = a.self.t_last[i], t_now = *a.t_next;
    const Dbl4 x0 = a.self.pos[i];
    HermiteBody b = {dvec(x0), dvec(a.self.vel[i]), dvec(a.self.acc[i]), dvec(a.self.jerk[i])};
    Tick dt_next = a.dt_max;
    bool underflow = false;
    if (a.prime) {
        b.acc = a1, b.jerk = j1;
        if (a.block_steps)
            dt_next =
                block_step_ticks(hermite_initial_dt(a1, j1, a.eta) / a.tick, t_now, 0, a.dt_max, underflow);
    } else {
        const double dt = static_cast<double>(t_now - t_last) * a.tick;
        DVec snap, crackle;
        hermite_correct(b, a1, j1, dt, snap, crackle);
        if (a.block_steps)
            dt_next = block_step_ticks(aarseth_dt(a1, j1, snap, crackle, a.eta) / a.tick, t_now,
                                       t_now - t_last, a.dt_max, underflow);
    }
    if (underflow) a.stats->underflow_body = i;
    if (!body_finite(b)) a.stats->nonfinite_body = i;
    const Dbl4 x1 = {b.pos.x, b.pos.y, b.pos.z, x0.w};
    for (int t = 0; t < a.parts; ++t) {  // this part's copy and, peer to peer, every other part's
        const HermiteBodies& d = a.all[t];
        d.pos[i] = x1;
        d.vel[i] = {b.vel.x, b.vel.y, b.vel.z, 0.0};
        d.acc[i] = {b.acc.x, b.acc.y, b.acc.z, phi};
        d.jerk[i] = {b.jerk.x, b.jerk.y, b.jerk.z, 0.0};
        d.t_last[i] = t_now;
        d.t_end[i] = t_now + dt_next;
    }
}

// Corrector, one warp per active body of this part (a grid-stride loop over the slice, whose size only the
// device knows). The lanes sum every 32nd j-split and shuffle the sums together (a block step of 100
// active bodies out of 65,536 has 512 splits: one thread per body would make 512 dependent L2 round trips);
// lane 0 then corrects (or, priming, stores the first a and j), chooses the next step, and writes the body
// into every part's copy.
template <class Rec>
__global__ void hermite_correct_kernel(HermiteArgs a) {
    const Slice sl = part_slice(a);
    const int ni = sl.hi - sl.lo;
    const ForcePlan pl = force_plan(ni, a.n, a.force_block, a.force_grid, a.force_k, min_groups_of(a));
    const int lane = threadIdx.x & 31;
    const int warps = static_cast<int>(gridDim.x * (blockDim.x / 32));
    const Rec* part = static_cast<const Rec*>(a.partial);
    for (int p = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) / 32); p < ni; p += warps) {
        double v[7];  // a (3), phi, jerk (3)
        sum_split_records(part, pl.splits, ni, p, v);
        if (lane == 0)
            correct_body(a, a.active[sl.lo + p], a.G * DVec{v[0], v[1], v[2]}, a.G * DVec{v[4], v[5], v[6]},
                         a.G * v[3]);
    }
}

unsigned blocks_for(long long n, int block) {
    return static_cast<unsigned>((n + block - 1) / block);
}

constexpr int kBlock = 256;  // predictor: one thread per body, memory bound; corrector: 8 warps

}  // namespace

// Calls f with a value of the policy type for `prec`.
template <class F>
void with_policy(Precision prec, F&& f) {
    switch (prec) {
        case Precision::Fp32:
            f(HermiteFp32{});
            break;
        case Precision::DS:
            f(HermiteDS{});
            break;
        case Precision::Fp64:
            f(HermiteFp64{});
            break;
    }
}

void launch_hermite_predict(Precision prec, const HermiteArgs& a, cudaStream_t s) {
    const unsigned grid = blocks_for(a.n, kBlock);
    with_policy(prec, [&](auto pol) { hermite_predict_kernel<decltype(pol)><<<grid, kBlock, 0, s>>>(a); });
    NBODY_CUDA_CHECK_LAUNCH("hermite_predict_kernel");
}

void launch_hermite_force(Precision prec, const HermiteArgs& a, cudaStream_t s) {
    const size_t smem = static_cast<size_t>(a.force_block) * hermite_force_smem_per_thread(prec);
    with_policy(prec, [&](auto pol) {
        if (a.potential)
            hermite_force_kernel<decltype(pol), true><<<a.force_grid, a.force_block, smem, s>>>(a);
        else
            hermite_force_kernel<decltype(pol), false><<<a.force_grid, a.force_block, smem, s>>>(a);
    });
    NBODY_CUDA_CHECK_LAUNCH("hermite_force_kernel");
}

void launch_hermite_correct(Precision prec, const HermiteArgs& a, cudaStream_t s) {
    // A fixed grid (the force kernel's block count, 8 warps each): the active count lives on the device,
    // and the warps stride over it.
    const unsigned grid = static_cast<unsigned>(
        std::max(1, std::min(a.force_grid, static_cast<int>(blocks_for(a.n, kBlock / 32)))));
    with_policy(prec, [&](auto pol) {
        hermite_correct_kernel<typename decltype(pol)::Rec><<<grid, kBlock, 0, s>>>(a);
    });
    NBODY_CUDA_CHECK_LAUNCH("hermite_correct_kernel");
}

const void* hermite_force_function(Precision prec, bool potential) {
    const void* f = nullptr;
    with_policy(prec, [&](auto pol) {
        f = potential ? reinterpret_cast<const void*>(&hermite_force_kernel<decltype(pol), true>)
                      : reinterpret_cast<const void*>(&hermite_force_kernel<decltype(pol), false>);
    });
    return f;
}

int hermite_force_smem_per_thread(Precision prec) {
    int b = 0;
    with_policy(prec, [&](auto pol) { b = static_cast<int>(sizeof(typename decltype(pol)::J)); });
    return b;
}

int hermite_force_max_k(Precision prec) {
    int k = 1;
    with_policy(prec, [&](auto pol) { k = decltype(pol)::kMaxK; });
    return k;
}

int hermite_record_bytes(Precision prec) {
    int b = 0;
    with_policy(prec, [&](auto pol) { b = static_cast<int>(sizeof(typename decltype(pol)::Rec)); });
    return b;
}

void launch_iota(int* iota, int n, cudaStream_t s) {
    if (n == 0) return;
    iota_kernel<<<blocks_for(n, kBlock), kBlock, 0, s>>>(iota, n);
    NBODY_CUDA_CHECK_LAUNCH("iota_kernel");
}

void launch_hermite_predict_now(const HermiteBodies& b, const HermiteStats* stats, int n, double tick,
                                Dbl4* pos, Dbl4* vel, cudaStream_t s) {
    if (n == 0) return;
    hermite_predict_now_kernel<<<blocks_for(n, kBlock), kBlock, 0, s>>>(b, stats, n, tick, pos, vel);
    NBODY_CUDA_CHECK_LAUNCH("hermite_predict_now_kernel");
}

}  // namespace nbody::kernels
