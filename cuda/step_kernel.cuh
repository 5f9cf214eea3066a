#pragma once
// The gravity step kernel: shared-memory j-tiles (the Chamomile J-BAG), i-bodies and accumulators in
// registers (the I-POT), the j range of each i-group optionally split over q threads of one warp, and the
// leap-frog update fused into the epilogue, so one launch is one whole step.
//
// Build flags (cuda/CMakeLists.txt): -ftz=true. Without flush-to-zero every rsqrtf carries a denormal
// fix-up (a compare and two multiplies): 18 issued instructions per interaction instead of 13.
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

namespace nbody::kernels {

// Everything one launch needs. Between steps the backend keeps the invariant
//     vel = v_n, acc = a_n, pos_cur = x_n, pos_in = x_{n+1} = x_n + (v_n + a_n h) dt      (h = dt / 2)
// and a step evaluates a_{n+1} at pos_in, then writes
//     v_{n+1} = (v_n + a_n h) + a_{n+1} h,   acc = a_{n+1},   pos_out = x_{n+2} = x_{n+1} + (v_{n+1} + a_{n+1} h) dt
// which is kick-drift-kick with the next step's kick and drift done early. pos_out is the buffer that
// held x_n: no block reads it during the launch. In `prime` mode (after a reset or a change of eps or G)
// the kernel evaluates a_n at pos_in = x_n instead, keeps vel, and writes pos_out = x_{n+1}.
struct StepArgs {
    const float4* __restrict__ pos_in;  // positions the forces are evaluated at, w = mass (N)
    float4* __restrict__ pos_out;       // next positions (N)
    float4* __restrict__ vel;           // v in, v out (N)
    float4* __restrict__ acc;           // a in, a out, G included (N)
    int n;
    int q;             // threads per i-group (j-split), a power of two dividing 32
    int tile;          // j-bodies per shared-memory tile: a multiple of blockDim.x and of q * U
    float soft2;       // eps^2 + self-interaction floor (length^2)
    float G;
    float half_dt;     // h = dt / 2
    float dt;
    bool prime;
};

// One interaction: the acceleration body j (x, y, z, mass) exerts on position xi, without G.
// 3 FADD (dx, dy, dz), 3 FFMA (r2 = soft2 + dx^2 + dy^2 + dz^2, softening as the first term), 1 MUFU.RSQ,
// 3 FMUL (s = m / r^3), 3 FFMA (accumulate): 13 issued instructions, 20 flops by NVIDIA's convention
// (38 by Warren et al.'s). soft2 > 0 always (a 1e-20 floor), so the self term is a finite zero.
__device__ __forceinline__ void interact(float xi, float yi, float zi, float4 bj, float soft2, float& ax,
                                         float& ay, float& az) {
    const float dx = bj.x - xi, dy = bj.y - yi, dz = bj.z - zi;
    const float r2 = fmaf(dz, dz, fmaf(dy, dy, fmaf(dx, dx, soft2)));
    const float inv_r = rsqrtf(r2);
    const float inv_r2 = inv_r * inv_r;
    const float s = bj.w * inv_r * inv_r2;
    ax = fmaf(dx, s, ax);
    ay = fmaf(dy, s, ay);
    az = fmaf(dz, s, az);
}

// K i-bodies per thread, U j-bodies per inner iteration. ROLLED keeps the loop over j groups rolled
// (`#pragma unroll 1`), as the paper's no-unrolling and i-unrolling variants do; the ij variant unrolls U.
// Block layout: thread t serves i-lane t / q and j-slice t % q, so the q slices of a lane sit in one warp
// and reduce with shuffles. Slice s reads tile entries s, s + q, s + 2q, ...: the q slices of a lane read
// neighbouring float4s (conflict-free for q <= 8), and lanes in a warp with the same slice read the same
// address (a broadcast). A tile holds `tile` bodies (blockDim.x times a small factor, so each slice gets
// at least 32 j-bodies between two barriers even at q = 32); the last tile is cut to the bodies left.
// Requires tile % (q * U) == 0 and blockDim.x % q == 0 (checked on the host).
template <int K, int U, bool ROLLED>
__global__ void step_kernel(StepArgs a) {
    extern __shared__ float4 tile[];
    const int q = a.q;
    const int lanes = blockDim.x / q;
    const int lane = threadIdx.x / q, slice = threadIdx.x % q;
    const int block_first = blockIdx.x * lanes * K;

    float xi[K], yi[K], zi[K], ax[K], ay[K], az[K];
#pragma unroll
    for (int k = 0; k < K; ++k) {
        const int i = block_first + k * lanes + lane;  // neighbouring lanes take neighbouring bodies
        const float4 p = i < a.n ? a.pos_in[i] : make_float4(0.f, 0.f, 0.f, 0.f);
        xi[k] = p.x, yi[k] = p.y, zi[k] = p.z;
        ax[k] = ay[k] = az[k] = 0.f;
    }

    // Two tile buffers: while the block computes on one, cp.async (sm_80+) fills the other from global
    // memory, so the L2 latency of a tile load hides behind the previous tile's arithmetic.
    auto fetch = [&](int base, float4* buf) {
        for (int t = threadIdx.x; t < a.tile; t += blockDim.x) {
            const int j = base + t;
            // Bodies past N arrive as zero mass (zfill): they add exactly 0, as soft2 > 0 keeps r2 finite.
            __pipeline_memcpy_async(&buf[t], j < a.n ? &a.pos_in[j] : a.pos_in, sizeof(float4),
                                    j < a.n ? 0 : sizeof(float4));
        }
        __pipeline_commit();
    };
    fetch(0, tile);
    int buf = 0;
    for (int base = 0; base < a.n; base += a.tile, buf ^= 1) {
        const float4* cur = tile + buf * a.tile;
        if (base + a.tile < a.n) {
            fetch(base + a.tile, tile + (buf ^ 1) * a.tile);
            __pipeline_wait_prior(1);  // this tile has landed; the next one may still be in flight
        } else {
            __pipeline_wait_prior(0);
        }
        __syncthreads();
        // Entries this slice must read: ceil(bodies left / q), rounded up to a whole U group.
        const int left = min(a.tile, a.n - base);
        const int per_slice = ((left + q - 1) / q + U - 1) / U * U;
        if constexpr (ROLLED) {
#pragma unroll 1
            for (int jj = 0; jj < per_slice; ++jj) {
                const float4 bj = cur[jj * q + slice];
#pragma unroll
                for (int k = 0; k < K; ++k) interact(xi[k], yi[k], zi[k], bj, a.soft2, ax[k], ay[k], az[k]);
            }
        } else {
#pragma unroll 1
            for (int jj = 0; jj < per_slice; jj += U) {
                float4 bj[U];
#pragma unroll
                for (int u = 0; u < U; ++u) bj[u] = cur[(jj + u) * q + slice];
#pragma unroll
                for (int u = 0; u < U; ++u)
#pragma unroll
                    for (int k = 0; k < K; ++k)
                        interact(xi[k], yi[k], zi[k], bj[u], a.soft2, ax[k], ay[k], az[k]);
            }
        }
        __syncthreads();  // everyone is done with `cur` before the next fetch overwrites it
    }

    // Butterfly sum over the q slices of each lane: every slice ends with the same total, in the same
    // order, so the result does not depend on which slice writes it.
    for (int off = 1; off < q; off <<= 1) {
#pragma unroll
        for (int k = 0; k < K; ++k) {
            ax[k] += __shfl_xor_sync(0xffffffffu, ax[k], off);
            ay[k] += __shfl_xor_sync(0xffffffffu, ay[k], off);
            az[k] += __shfl_xor_sync(0xffffffffu, az[k], off);
        }
    }

    // Leap-frog epilogue: slice k % q handles i-body k, so the writes spread over the slices.
#pragma unroll
    for (int k = 0; k < K; ++k) {
        const int i = block_first + k * lanes + lane;
        if (i >= a.n || (k % q) != slice) continue;
        const float4 an = make_float4(a.G * ax[k], a.G * ay[k], a.G * az[k], 0.f);
        float4 v = a.vel[i];
        if (!a.prime) {
            const float4 ao = a.acc[i];
            v.x = (v.x + ao.x * a.half_dt) + an.x * a.half_dt;
            v.y = (v.y + ao.y * a.half_dt) + an.y * a.half_dt;
            v.z = (v.z + ao.z * a.half_dt) + an.z * a.half_dt;
            a.vel[i] = v;
        }
        a.acc[i] = an;
        const float4 p = a.pos_in[i];
        const float vx = v.x + an.x * a.half_dt, vy = v.y + an.y * a.half_dt, vz = v.z + an.z * a.half_dt;
        a.pos_out[i] = make_float4(p.x + vx * a.dt, p.y + vy * a.dt, p.z + vz * a.dt, p.w);
    }
}

}  // namespace nbody::kernels
