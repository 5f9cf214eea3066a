// The 6th-order Hermite kernels (Nitadori & Makino 2008): predictor of every body to crackle, force
// (acceleration, jerk, snap) on the active list with the shared force kernel (hermite_force_items.cuh), and
// the corrector with the generalised Aarseth step. The data, the plan and the block-time selection are 4th
// order's (hermite_kernel.cuh); the per-body arithmetic is core/physics/hermite6.hpp's, the CPU reference's.
#include "common/cuda_check.cuh"
#include "core/physics/hermite6.hpp"
#include "hermite/hermite6_force.cuh"
#include "hermite/hermite_force_items.cuh"
#include "hermite/hermite_kernel.cuh"
#include "hermite/hermite_math.cuh"

namespace nbody::kernels {

namespace {

constexpr int kBlock = 256;  // predictor: one thread per body, memory bound; corrector: 8 warps

// Predictor: every body to the block time, x, v and a to crackle in double, stored in the force precision.
template <class P>
__global__ void hermite6_predict_kernel(HermiteArgs a) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= a.n) return;
    const double tau = static_cast<double>(*a.t_next - a.self.t_last[i]) * a.tick;
    const Dbl4 x = a.self.pos[i];
    DVec xp, vp, ap;
    hermite6::predict6(dvec(x), dvec(a.self.vel[i]), dvec(a.self.acc[i]), dvec(a.self.jerk[i]),
                       dvec(a.self.snap[i]), dvec(a.self.crackle[i]), tau, xp, vp, ap);
    P::store(a.pred, i, xp, vp, ap, x.w);
}

// The corrector of body i with its new a1, j1, s1 (G included) and potential phi; priming, the first a, j, s
// and step (or, the pass before, a alone).
__device__ void correct6_body(const HermiteArgs& a, int i, DVec a1, DVec j1, DVec s1, double phi) {
    const HermiteBodies& self = a.self;
    if (a.prime_acc) {  // the j-bodies' accelerations for the priming pass's snap; nothing else moves
        for (int t = 0; t < a.parts; ++t) a.all[t].acc[i] = {a1.x, a1.y, a1.z, phi};
        return;
    }
    const Tick t_last = self.t_last[i], t_now = *a.t_next;
    const Dbl4 x0 = self.pos[i];
    DVec x = dvec(x0), v = dvec(self.vel[i]), crackle{0, 0, 0};
    Tick dt_next = a.dt_max;
    bool underflow = false;
    if (a.prime) {
        if (a.block_steps)
            dt_next = block_step_ticks(
                hermite6::floored_step6(hermite6::initial_step6(a.eta, a1, j1), a.step_floor, a1, j1, s1) /
                    a.tick,
                t_now, 0, a.dt_max, underflow);
    } else {
        const double dt = static_cast<double>(t_now - t_last) * a.tick;
        const hermite6::Corrected6 c = hermite6::correct6(x, v, dvec(self.acc[i]), dvec(self.jerk[i]),
                                                          dvec(self.snap[i]), a1, j1, s1, dt);
        x = c.x, v = c.v, crackle = c.crackle;
        if (a.block_steps)
            dt_next = block_step_ticks(hermite6::floored_step6(hermite6::next_step6(a.eta, a1, j1, s1, c),
                                                               a.step_floor, a1, j1, s1) /
                                           a.tick,
                                       t_now, t_now - t_last, a.dt_max, underflow);
    }
    if (underflow) a.stats->underflow_body = i;
    if (!body_finite({x, v, a1, j1})) a.stats->nonfinite_body = i;
    for (int t = 0; t < a.parts; ++t) {  // this part's copy and, peer to peer, every other part's
        const HermiteBodies& d = a.all[t];
        d.pos[i] = {x.x, x.y, x.z, x0.w};
        d.vel[i] = {v.x, v.y, v.z, 0.0};
        d.acc[i] = {a1.x, a1.y, a1.z, phi};
        d.jerk[i] = {j1.x, j1.y, j1.z, 0.0};
        d.snap[i] = {s1.x, s1.y, s1.z, 0.0};
        d.crackle[i] = {crackle.x, crackle.y, crackle.z, 0.0};
        d.t_last[i] = t_now;
        d.t_end[i] = t_now + dt_next;
    }
}

// Corrector: for_each_active_sum's warps over the three records; lane 0 corrects.
template <class Rec>
__global__ void hermite6_correct_kernel(HermiteArgs a) {
    for_each_active_sum<3, Rec>(a, [&](int i, const double(&v)[12]) {  // a (3), phi, jerk (3), 0, snap (3), 0
        correct6_body(a, i, a.G * DVec{v[0], v[1], v[2]}, a.G * DVec{v[4], v[5], v[6]},
                      a.G * DVec{v[8], v[9], v[10]}, a.G * v[3]);
    });
}

// The policy of each precision (ForceKernelOf's Pick). fp32 has no 6th-order kernel (the integrator rows
// refuse it; snap's cancellations need more than float's 24 bits): the ds kernels serve it if it ever gets
// here.
struct Pick6 {
    template <class F>
    static void of(Precision prec, F&& f) {
        switch (prec) {
            case Precision::Fp64:
                f(Hermite6Fp64{});
                break;
            case Precision::DS:
            case Precision::Fp32:
                f(Hermite6DS{});
                break;
        }
    }
};
using Force6 = ForceKernelOf<Pick6>;

unsigned blocks_for(long long n, int block) {
    return static_cast<unsigned>((n + block - 1) / block);
}

void predict6(Precision prec, const HermiteArgs& a, cudaStream_t s) {
    Pick6::of(prec, [&](auto pol) {
        hermite6_predict_kernel<decltype(pol)><<<blocks_for(a.n, kBlock), kBlock, 0, s>>>(a);
    });
    NBODY_CUDA_CHECK_LAUNCH("hermite6_predict_kernel");
}

void correct6(Precision prec, const HermiteArgs& a, cudaStream_t s) {
    Pick6::of(prec, [&](auto pol) {
        hermite6_correct_kernel<typename decltype(pol)::Rec><<<correct_grid(a, kBlock), kBlock, 0, s>>>(a);
    });
    NBODY_CUDA_CHECK_LAUNCH("hermite6_correct_kernel");
}

}  // namespace

const HermiteKernelSet& hermite6_kernels() {
    static const HermiteKernelSet set{
        predict6,           Force6::launch,       correct6,      Force6::function,
        Force6::tile_bytes, Force6::record_bytes, Force6::max_k, 3};
    return set;
}

}  // namespace nbody::kernels
