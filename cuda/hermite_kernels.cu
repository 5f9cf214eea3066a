// The Hermite kernels: predictor (every body), force on the active list (j split over threads and blocks),
// corrector with the next time step (the active list). See hermite_kernel.cuh for the data and the plan.
#include <type_traits>

#include "cuda_check.cuh"
#include "hermite_force.cuh"
#include "hermite_kernel.cuh"
#include "hermite_math.cuh"

namespace nbody::kernels {

namespace {

// The active positions [lo, hi) of this part: the active list split evenly over the parts, on the device.
struct Slice {
    int lo, hi;
};
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
template <class B>
__global__ void hermite_predict_kernel(HermiteArgs a) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= a.n) return;
    const double tau = static_cast<double>(*a.t_next - a.self.t_last[i]) * a.tick;
    const Dbl4 x = a.self.pos[i];
    const HermiteBody b = {dvec(x), dvec(a.self.vel[i]), dvec(a.self.acc[i]), dvec(a.self.jerk[i])};
    DVec xp, vp;
    hermite_predict(b, tau, xp, vp);
    static_cast<B*>(a.pred_pos)[i] = make_body<B>(xp.x, xp.y, xp.z, x.w);
    static_cast<B*>(a.pred_vel)[i] = make_body<B>(vp.x, vp.y, vp.z, 0.0);
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
// Force: the active i-bodies of this part against all n predicted j-bodies. The grid is fixed (one wave);
// the work items are (i-group, j-split) pairs planned from the active count (force_plan), handed out to
// the blocks round-robin. Thread t of a block serves i-lane t / q and j-slice t % q; the q slices of a lane
// are neighbouring threads of one warp and reduce with shuffles; the splits go to `partial` and the
// corrector sums them in split order (deterministic, in double).
template <class P>
__global__ void hermite_force_kernel(HermiteArgs a) {
    using B = typename P::Body;
    using R = typename P::Real;
    extern __shared__ float4 smem[];
    B* tpos = reinterpret_cast<B*>(smem);
    B* tvel = tpos + blockDim.x;
    const Slice sl = part_slice(a);
    const int ni = sl.hi - sl.lo;
    if (ni <= 0) return;
    const ForcePlan pl = force_plan(ni, a.n, blockDim.x, gridDim.x);
    const int lane = threadIdx.x / pl.q, slice = threadIdx.x % pl.q;
    const B* pos = static_cast<const B*>(a.pred_pos);
    const B* vel = static_cast<const B*>(a.pred_vel);
    R soft2;
    if constexpr (std::is_same_v<R, double>)
        soft2 = a.soft2_d;
    else
        soft2 = a.soft2;
    const int items = pl.groups * pl.splits;
    for (int w = blockIdx.x; w < items; w += gridDim.x) {  // uniform over the block
        const int group = w / pl.splits, split = w % pl.splits;
        const int p = group * pl.lanes + lane;
        const bool valid = p < ni;
        const int i = a.active[sl.lo + (valid ? p : 0)];
        const B xi = pos[i], vi = vel[i];
        const typename P::I bi = {xi.x, xi.y, xi.z, vi.x, vi.y, vi.z};
        typename P::Acc s{};
        const int j0 = split * pl.chunk, j1 = min(a.n, j0 + pl.chunk);
        for (int base = j0; base < j1; base += blockDim.x) {
            __syncthreads();  // the previous tile (or work item) is done with
            const int j = base + threadIdx.x;
            if (j < j1) tpos[threadIdx.x] = pos[j], tvel[threadIdx.x] = vel[j];
            __syncthreads();
            const int count = min(static_cast<int>(blockDim.x), j1 - base);
#pragma unroll 4
            for (int t = slice; t < count; t += pl.q) P::interact(bi, tpos[t], tvel[t], soft2, s);
        }
        for (int off = 1; off < pl.q; off <<= 1) {  // butterfly over the q slices of a lane (same warp)
            s.ax += __shfl_xor_sync(0xffffffffu, s.ax, off);
            s.ay += __shfl_xor_sync(0xffffffffu, s.ay, off);
            s.az += __shfl_xor_sync(0xffffffffu, s.az, off);
            s.jx += __shfl_xor_sync(0xffffffffu, s.jx, off);
            s.jy += __shfl_xor_sync(0xffffffffu, s.jy, off);
            s.jz += __shfl_xor_sync(0xffffffffu, s.jz, off);
            s.phi += __shfl_xor_sync(0xffffffffu, s.phi, off);
        }
        if (valid && slice == 0) {
            B* out = static_cast<B*>(a.partial) + 2 * (static_cast<long long>(split) * ni + p);
            out[0] = make_body<B>(s.ax, s.ay, s.az, s.phi);
            out[1] = make_body<B>(s.jx, s.jy, s.jz, 0.0);
        }
    }
}

// ---------------------------------------------------------------------------------------------------------
// Corrector: one thread per active body of this part. Sums the splits, corrects (or, priming, stores the
// first a and j), chooses the next step, and writes the body into every part's copy.
template <class B>
__global__ void hermite_correct_kernel(HermiteArgs a) {
    const Slice sl = part_slice(a);
    const int ni = sl.hi - sl.lo;
    const int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= ni) return;
    const int i = a.active[sl.lo + p];
    const ForcePlan pl = force_plan(ni, a.n, a.force_block, a.force_grid);
    const B* part = static_cast<const B*>(a.partial);
    DVec a1{}, j1{};
    double phi = 0;
    for (int s = 0; s < pl.splits; ++s) {
        const B* r = part + 2 * (static_cast<long long>(s) * ni + p);
        const B f = r[0], g = r[1];
        a1.x += f.x, a1.y += f.y, a1.z += f.z, phi += f.w;
        j1.x += g.x, j1.y += g.y, j1.z += g.z;
    }
    a1 = a.G * a1, j1 = a.G * j1, phi *= a.G;
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

template <class T>
unsigned blocks_for(long long n, int block) {
    return static_cast<unsigned>((n + block - 1) / block);
}

constexpr int kBlock = 256;  // predictor and corrector: one thread per body, memory bound

}  // namespace

void launch_hermite_predict(bool fp64, const HermiteArgs& a, cudaStream_t s) {
    const unsigned grid = blocks_for<int>(a.n, kBlock);
    if (fp64)
        hermite_predict_kernel<Dbl4><<<grid, kBlock, 0, s>>>(a);
    else
        hermite_predict_kernel<float4><<<grid, kBlock, 0, s>>>(a);
    NBODY_CUDA_CHECK_LAUNCH("hermite_predict_kernel");
}

void launch_hermite_force(bool fp64, const HermiteArgs& a, cudaStream_t s) {
    const size_t smem = static_cast<size_t>(a.force_block) * hermite_force_smem_per_thread(fp64);
    if (fp64)
        hermite_force_kernel<HermiteFp64><<<a.force_grid, a.force_block, smem, s>>>(a);
    else
        hermite_force_kernel<HermiteFp32><<<a.force_grid, a.force_block, smem, s>>>(a);
    NBODY_CUDA_CHECK_LAUNCH("hermite_force_kernel");
}

void launch_hermite_correct(bool fp64, const HermiteArgs& a, cudaStream_t s) {
    // Sized for every body: the active count lives on the device (threads past it return at once).
    const unsigned grid = blocks_for<int>(a.n, kBlock);
    if (fp64)
        hermite_correct_kernel<Dbl4><<<grid, kBlock, 0, s>>>(a);
    else
        hermite_correct_kernel<float4><<<grid, kBlock, 0, s>>>(a);
    NBODY_CUDA_CHECK_LAUNCH("hermite_correct_kernel");
}

const void* hermite_force_function(bool fp64) {
    return fp64 ? reinterpret_cast<const void*>(&hermite_force_kernel<HermiteFp64>)
                : reinterpret_cast<const void*>(&hermite_force_kernel<HermiteFp32>);
}

int hermite_force_smem_per_thread(bool fp64) {
    return 2 * (fp64 ? sizeof(Dbl4) : sizeof(float4));
}

void launch_iota(int* iota, int n, cudaStream_t s) {
    if (n == 0) return;
    iota_kernel<<<blocks_for<int>(n, kBlock), kBlock, 0, s>>>(iota, n);
    NBODY_CUDA_CHECK_LAUNCH("iota_kernel");
}

void launch_hermite_predict_now(const HermiteBodies& b, const HermiteStats* stats, int n, double tick,
                                Dbl4* pos, Dbl4* vel, cudaStream_t s) {
    if (n == 0) return;
    hermite_predict_now_kernel<<<blocks_for<int>(n, kBlock), kBlock, 0, s>>>(b, stats, n, tick, pos, vel);
    NBODY_CUDA_CHECK_LAUNCH("hermite_predict_now_kernel");
}

}  // namespace nbody::kernels
