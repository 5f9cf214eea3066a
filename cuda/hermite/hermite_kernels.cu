// The Hermite kernels: predictor (every body), force on the active list (j split over threads and blocks),
// corrector with the next time step (the active list). See hermite_kernel.cuh for the data and the plan.
#include <algorithm>
#include <type_traits>

#include "common/cuda_check.cuh"
#include "core/physics/hermite6.hpp"
#include "hermite/hermite_force.cuh"
#include "hermite/hermite_force_items.cuh"
#include "hermite/hermite_kernel.cuh"
#include "hermite/hermite_math.cuh"

namespace nbody::kernels {

namespace {

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
    if (b.snap) {  // 6th order: to crackle
        DVec ap;
        hermite6::predict6(dvec(x), dvec(b.vel[i]), dvec(b.acc[i]), dvec(b.jerk[i]), dvec(b.snap[i]),
                           dvec(b.crackle[i]), tau, xp, vp, ap);
    } else {
        hermite_predict({dvec(x), dvec(b.vel[i]), dvec(b.acc[i]), dvec(b.jerk[i])}, tau, xp, vp);
    }
    pos[i] = {xp.x, xp.y, xp.z, x.w};
    vel[i] = {vp.x, vp.y, vp.z, 0.0};
}

__global__ void iota_kernel(int* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = i;
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

// Corrector: for_each_active_sum's warps; lane 0 corrects (or, priming, stores the first a and j), chooses
// the next step, and writes the body into every part's copy.
template <class Rec>
__global__ void hermite_correct_kernel(HermiteArgs a) {
    for_each_active_sum<2, Rec>(a, [&](int i, const double(&v)[8]) {  // a (3), phi, jerk (3), 0
        correct_body(a, i, a.G * DVec{v[0], v[1], v[2]}, a.G * DVec{v[4], v[5], v[6]}, a.G * v[3]);
    });
}

unsigned blocks_for(long long n, int block) {
    return static_cast<unsigned>((n + block - 1) / block);
}

constexpr int kBlock = 256;  // predictor: one thread per body, memory bound; corrector: 8 warps

}  // namespace

// The policy of each precision (ForceKernelOf's Pick).
struct Pick4 {
    template <class F>
    static void of(Precision prec, F&& f) {
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
};
using Force4 = ForceKernelOf<Pick4>;

void launch_hermite_predict(Precision prec, const HermiteArgs& a, cudaStream_t s) {
    const unsigned grid = blocks_for(a.n, kBlock);
    Pick4::of(prec, [&](auto pol) { hermite_predict_kernel<decltype(pol)><<<grid, kBlock, 0, s>>>(a); });
    NBODY_CUDA_CHECK_LAUNCH("hermite_predict_kernel");
}

void launch_hermite_force(Precision prec, const HermiteArgs& a, cudaStream_t s) {
    Force4::launch(prec, a, s);
}

void launch_hermite_correct(Precision prec, const HermiteArgs& a, cudaStream_t s) {
    Pick4::of(prec, [&](auto pol) {
        hermite_correct_kernel<typename decltype(pol)::Rec><<<correct_grid(a, kBlock), kBlock, 0, s>>>(a);
    });
    NBODY_CUDA_CHECK_LAUNCH("hermite_correct_kernel");
}

const void* hermite_force_function(Precision prec, bool potential) {
    return Force4::function(prec, potential);
}
int hermite_force_smem_per_thread(Precision prec) {
    return Force4::tile_bytes(prec);
}
int hermite_force_max_k(Precision prec) {
    return Force4::max_k(prec);
}
int hermite_record_bytes(Precision prec) {
    return Force4::record_bytes(prec);
}

const HermiteKernelSet& hermite4_kernels() {
    static const HermiteKernelSet set{
        launch_hermite_predict,        launch_hermite_force, launch_hermite_correct, hermite_force_function,
        hermite_force_smem_per_thread, hermite_record_bytes, hermite_force_max_k,    2};
    return set;
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
