#pragma once
// The Hermite integrators' kernels, 4th order (Makino & Aarseth 1992; Belleman et al. 2008; Sapporo2) and 6th
// order (Nitadori & Makino 2008): the predictor of every body, the force (acceleration, jerk, 6th order also
// snap; the potential on request) of an active list of i-bodies against all predicted j-bodies, and the
// corrector with the next time step. hermite_engine.cu strings them together, with the block-time selection
// (hermite_select.cu), over the parts of a DeviceSet; one HermiteKernelSet per order says which kernels.
//
// Time is kept in integer ticks, 2^kHermiteLevels of them per largest step p.dt: block steps are p.dt / 2^k,
// so t_i + dt_i, the minimum over bodies and the equality that picks the active set are exact integer
// operations (in double seconds p.dt = 0.01 would make them inexact).
#include <cuda_runtime.h>

#include "common/precision.cuh"
#include "core/rows/sim_params.hpp"
#include "hermite/hermite_math.cuh"
#include "hermite/hermite_plan.hpp"

namespace nbody::kernels {

// Threads per block of the force kernel (the tile is one j-body per thread).
inline constexpr int kForceBlock = 128;

// One part's copy of every body (device pointers, N each). Every part holds all N bodies; the corrector
// writes the bodies it advanced into every part's copy (peer stores), so the next block step on any part
// sees them.
struct HermiteBodies {
    Dbl4* pos;     // x, y, z, m at t_last
    Dbl4* vel;     // v at t_last
    Dbl4* acc;     // a at t_last, G included; w = phi_i = -G sum_j m_j / r_ij (the potential per unit mass)
    Dbl4* jerk;    // da/dt at t_last, G included
    Dbl4* snap;    // 6th order: d^2a/dt^2 at t_last, G included (null for 4th order)
    Dbl4* crackle; // 6th order: d^3a/dt^3 at t_last from the last corrector's interpolant (null for 4th order)
    Tick* t_last;  // when the body was last corrected
    Tick* t_end;   // t_last + dt_i: when it is next due
};

// What the engine accumulates on the device (read by the host after a batch of block steps).
struct HermiteStats {
    Tick t_now;                 // the block time just reached (ticks since the reset)
    long long block_steps;      // block steps taken (the priming evaluation not counted)
    unsigned long long active;  // sum of the active counts over those block steps
    int underflow_body;         // -1, or a body whose step fell below one tick (clamped to one tick)
    int nonfinite_body;         // -1, or a body whose corrected state is NaN or infinite
};

// The predicted bodies, all N, as the predictor writes them and the force kernel reads them.
struct Predicted {
    void* pos;   // x (w = m): float4 (fp32; ds: the float hi part) or Dbl4 (fp64)
    void* vel;   // v: float4 (fp32, ds) or Dbl4 (fp64)
    float4* lo;  // ds: x - hi (w unused)
    void* acc;   // 6th order: a, float4 (ds) or Dbl4 (fp64); null for 4th order
};

struct HermiteArgs {
    HermiteBodies self;        // this part's copy
    const HermiteBodies* all;  // every part's copy (device array of `parts`, readable on this part's GPU)
    int parts, part;
    Predicted pred;       // every body predicted to t_next, in the force precision
    const int* active;    // active bodies (indices), n_active of them
    const int* n_active;  // device scalar
    const Tick* t_next;   // device scalar: the block time being reached
    void* partial;        // [splits][slice] x 2 records (acc + phi, jerk) per active body of this part
    HermiteStats* stats;
    int n;                        // bodies
    int force_block, force_grid;  // the force kernel's launch: the corrector re-derives the split from them
    int force_k;                  // i-bodies per thread at most (hermite_force_max_k)
    int force_min_groups;         // groups k > 1 must fill (force_plan's min_groups; 0: kMinGroupsForK)
    float soft2;                  // eps^2 + self-interaction floor (float32 kernels)
    double soft2_d;
    double G, tick;    // tick: time units per tick
    double eta;        // Aarseth's parameter
    double step_floor; // 6th order: the shortest step as a fraction of |a| / |j| (ds: kDsStepFloor6; else 0)
    Tick dt_max;       // ticks in the largest step (kHermiteTicks)
    bool block_steps;  // false: every body steps dt_max
    bool prime;        // the first evaluation: store a, j (and s) and the first step, move nothing
    bool prime_acc;    // 6th order, before prime: store a only (snap needs every body's a), keep the times
    bool potential;    // the force kernel also sums phi into acc.w (cuda_hermite_forces); else acc.w = 0
};

// The force kernel's R records of i-body p (of ni) over its `splits` j-splits, added by one warp in a fixed
// order (lane l takes splits l, l + 32, ..., then a butterfly), into v: record r's x, y, z, w at 4r .. 4r + 3
// (a, phi; jerk, 0; 6th order: snap, 0), every lane the total.
template <int R, class Rec>
__device__ inline void sum_records(const Rec* partial, int splits, int ni, int p, double (&v)[4 * R]) {
    const int lane = threadIdx.x & 31;
    for (int k = 0; k < 4 * R; ++k) v[k] = 0;
    for (int s = lane; s < splits; s += 32) {
        const Rec* r = partial + R * (static_cast<long long>(s) * ni + p);
#pragma unroll
        for (int q = 0; q < R; ++q) {
            const Rec f = r[q];
            v[4 * q] += f.x, v[4 * q + 1] += f.y, v[4 * q + 2] += f.z, v[4 * q + 3] += f.w;
        }
    }
#pragma unroll
    for (int k = 0; k < 4 * R; ++k)
        for (int off = 16; off > 0; off >>= 1) v[k] += __shfl_xor_sync(0xffffffffu, v[k], off);
}

// 4th order's two records as a (3), phi, jerk (3): the corrector and the GRAPE-6 library's reduction.
template <class Rec>
__device__ inline void sum_split_records(const Rec* partial, int splits, int ni, int p, double v[7]) {
    double w[8];
    sum_records<2>(partial, splits, ni, p, w);
    for (int k = 0; k < 7; ++k) v[k] = w[k];
}

// 4th order's launchers (hermite_kernels.cu), for the force precision `prec` (fp32, ds, fp64); the GRAPE-6
// library calls them too.
void launch_hermite_predict(Precision prec, const HermiteArgs& a, cudaStream_t s);
void launch_hermite_force(Precision prec, const HermiteArgs& a, cudaStream_t s);
void launch_hermite_correct(Precision prec, const HermiteArgs& a, cudaStream_t s);
// The force kernel (the stepping one, without the potential) as a function (for cudaFuncGetAttributes and
// the occupancy calculator), its shared
// memory per thread (one j-body of the tile), and the bytes of one partial-sum record.
const void* hermite_force_function(Precision prec, bool potential = false);
int hermite_force_smem_per_thread(Precision prec);
int hermite_record_bytes(Precision prec);
// The most i-bodies per thread the force kernel of `prec` takes (force_plan's max_k).
int hermite_force_max_k(Precision prec);

// One order's kernels as the engine calls them: 4th order (hermite_kernels.cu) or 6th (hermite6_kernels.cu).
// records: partial-sum records per i-body and j-split (acc + phi, jerk; 6th order also snap). A precision the
// order has no kernel for (6th order: fp32) is refused by the integrator rows before any launch.
struct HermiteKernelSet {
    void (*predict)(Precision, const HermiteArgs&, cudaStream_t);
    void (*force)(Precision, const HermiteArgs&, cudaStream_t);
    void (*correct)(Precision, const HermiteArgs&, cudaStream_t);
    const void* (*force_function)(Precision, bool potential);
    int (*smem_per_thread)(Precision);
    int (*record_bytes)(Precision);
    int (*max_k)(Precision);
    int records;
};
const HermiteKernelSet& hermite4_kernels();
const HermiteKernelSet& hermite6_kernels();

// Block-time selection (hermite_select.cu): t_next = min_i t_end[i], the active list = the bodies with
// t_end[i] == t_next in index order, n_active; the part that counts (count_stats) adds to the stats.
class HermiteSelect {
  public:
    // Scratch for n bodies on the current device (temp storage of the reduction and the selection).
    std::size_t scratch_bytes(int n);
    void run(const Tick* t_end, const int* iota, int n, Tick* t_next, int* active, int* n_active,
             void* scratch, std::size_t scratch_bytes, HermiteStats* stats, bool count_stats, bool prime,
             cudaStream_t s);
};

// iota[i] = i (the identity list the selection picks from).
void launch_iota(int* iota, int n, cudaStream_t s);
// Predicted double positions and velocities of every body at the block time stats->t_now (read_state,
// potential energy).
void launch_hermite_predict_now(const HermiteBodies& b, const HermiteStats* stats, int n, double tick,
                                Dbl4* pos, Dbl4* vel, cudaStream_t s);

}  // namespace nbody::kernels
