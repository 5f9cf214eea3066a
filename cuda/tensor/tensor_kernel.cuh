#pragma once
// The tensor-core leap-frog step: forces on Morton-sorted bodies (morton_sort.cuh) as two
// m16n8k8 TF32 matrix products per 16 (i) x 8 (j) tile around an element-wise step on the CUDA cores, then
// the same fused kick-drift-kick as step_kernel.cuh, scattered back to the bodies' own order. The layouts
// and arithmetic are cuda/tensor/tensor_layout.hpp and cuda/tensor/tensor_math.hpp, proved on the CPU by
// tests/unit/test_tensor_layout.cpp and modelled warp by warp by tests/unit/test_tensor_kernel_model.cpp.
//
// Block: W = blockDim.x / 32 warps; warp w takes the 16 sorted i-bodies [16 (W b + w), + 16) of block b. All
// positions are relative to the centre c of the block's W x 16 i-bodies (their mean), so r^2 = |u|^2 + |v|^2
// - 2 u.v stays well conditioned (the bodies are sorted, so the block is compact). Pairs closer than a
// quarter of |u_i| (tensor_math.hpp near_r2) are summed on the CUDA cores instead, from the raw positions;
// only tiles that can hold one for the warp (|v_j| < 1.25 max |u| of its 16: its own and its neighbours)
// check. blockIdx.y is the j-split: split y sums the sorted j-bodies [y chunk, (y + 1) chunk) and, with
// several splits, the last block of an i-group to finish adds the partial sums in split order
// (deterministic), as step_kernel does.
//
// Per j-tile (one j-body per thread, T = blockDim.x bodies) every thread builds one body's operands into
// shared memory (v = x - c split hi/lo, |v|^2, m v and m split, the raw position: ~70 instructions, 116
// bytes), one __syncthreads, then each warp runs T / 8 j-groups. Per j-group, per lane (4 interactions; 128
// per warp), in a tile with no near pair:
//     LDS.128 (first product's B) + LDS.64 (second's B)               2
//     HMMA x 4 (r^2: 2, the sum: 2; m16n8k8 TF32)                     4
//     MUFU.RSQ x 4 (rsqrtf, -ftz)                                     4
//     FMUL x 8 (rsqrt^3)                                              8
//     split of w: CVT + LOP + FADD x 4                                12
//     loop and addressing, amortised                                  ~1
// ~31 issued per 4 interactions: 7.75 per interaction against 13.3 for the fp32 CUDA-core kernel (a tile
// that may hold near pairs adds 4 FSETP + 4 FSEL + a vote, ~10 more, and the rare near pairs ~15 each). The
// MUFU (16 lanes/clk/SM) does 4 x 32 = 128 lanes per 128 interactions, 1 per interaction: at 16
// interactions/clk/SM the cap is 132 x 1.98e9 x 16 = 4.18e12 interactions/s on the H200, with the issue
// rate (16.5/clk/SM) just above it; the tensor pipe needs ~4.3 clk per tile of the MUFU's 8. The builder
// adds ~70 instructions per j-body per block (T / 2 = 64 i-bodies share it at block 128): ~1.1 per
// interaction. (A prediction from the instruction count; what the compiled kernel issues is below.)
//
// Registers per thread (ptxas: 71 with one accumulator, no spills; forcing 64 spills): A of the first product
// 8 (TF32, both MMAs), C (|u|^2 + eps^2) 2, near thresholds 2, the near pairs' sums 6, the tile's sum 4, the
// running sum 4, the prefetched j-body 4; per j-group B 6, D 4, w hi/lo 8. With kGroupsInFlight = 8
// accumulators (4 floats each) ptxas takes 127, no spills: 4 blocks of 128 (16 warps) or 2 of 256 per SM.
// The compiled plain loop issues 9.1 instructions per interaction; the kernel is latency-bound, not issue-bound
// (docs/bench/performance-log.md, the tensor-core family).
// Shared memory: 2 tiles (double-buffered, one barrier per tile) x 116 bytes per body = 29.7 KiB at
// block 128, 59.4 KiB at 256 (opted in above 48 KiB), plus the block's raw i-bodies and minima (2.5 KiB).
#include <cuda_runtime.h>

#include <cstdint>

#include "direct/step_kernel.cuh"
#include "tensor/tensor_math.hpp"

namespace nbody::kernels {

struct TensorArgs {
    StepArgs step;         // buffers, n, G, dt, prime, soft2; partial is float4 [split][sorted i]
    const float4* sorted;  // the bodies at step.in.pos in Morton order
    const int* order;      // sorted index -> body index
};

namespace tc {

constexpr int kIPerWarp = 16;    // the M of m16n8k8
constexpr int kMaxWarps = 8;     // kTensorMaxBlock / 32
constexpr float kFar = 3.0e38f;  // |v|^2 of padding: never near

// Shared-memory floats of one j-tile of `bodies` (both products' operands and the raw positions).
__host__ __device__ constexpr int tile_floats(int bodies) {
    return tensor::tile_floats(bodies);
}

// D = A B + C, m16n8k8, TF32 operands (their bit patterns), fp32 accumulate.
__device__ __forceinline__ void mma(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1,
                                    const float (&c)[4]) {
#if __CUDA_ARCH__ >= 800
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%10, %11, %12, %13};\n"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1), "f"(c[0]), "f"(c[1]), "f"(c[2]),
          "f"(c[3]));
#else
    // No TF32 tensor cores before sm_80: the family is refused there (FamilyInfo::min_cc) and never launched.
    (void)a, (void)b0, (void)b1;
    for (int r = 0; r < 4; ++r) d[r] = c[r];
    __trap();
#endif
}

// Shared memory besides the tiles: the block's raw i-bodies (for the near pairs) and the per-warp minima of
// |v|^2 of each tile buffer (so a tile is known to be far without atomics or resets).
struct BlockShared {
    float4 ipos[kMaxWarps * kIPerWarp];
    float vmin[2][kMaxWarps];
    float red[3][32];
};

// The block's centre: the mean position of its valid i-bodies (a far body in the block, as a Morton-order
// jump brings, moves it by 1/count of the distance, where the box's midpoint would move halfway).
struct Centre {
    float x, y, z;
};

// Sum of v over the block's threads; every thread gets the result.
__device__ inline void block_sum(float (&v)[3], float (*red)[32]) {
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = static_cast<int>(blockDim.x / 32);
    for (int a = 0; a < 3; ++a) {
        for (int off = 16; off > 0; off >>= 1) v[a] += __shfl_xor_sync(0xffffffffu, v[a], off);
        if (lane == 0) red[a][warp] = v[a];
    }
    __syncthreads();
    for (int a = 0; a < 3; ++a) {
        v[a] = red[a][0];
        for (int w = 1; w < warps; ++w) v[a] += red[a][w];
    }
}

// Also stores the block's raw i-bodies in sh.ipos (padding: zero mass at the origin).
__device__ inline Centre block_centre(const float4* sorted, int first, int count, BlockShared& sh) {
    const bool valid = static_cast<int>(threadIdx.x) < count;
    const float4 p = valid ? sorted[first + threadIdx.x] : make_float4(0.f, 0.f, 0.f, 0.f);
    if (threadIdx.x < blockDim.x / 2) sh.ipos[threadIdx.x] = p;
    float v[3] = {p.x, p.y, p.z};
    block_sum(v, sh.red);
    const float inv = 1.f / static_cast<float>(count);
    return {v[0] * inv, v[1] * inv, v[2] * inv};
}

// One j-body's operands (relative to the centre) and raw position into a tile of `bodies`; zero operands
// past the chunk (zero mass, and r^2 = |u|^2 + soft2 exactly, so the product adds exactly nothing). Returns
// |v|^2 (kFar for padding).
__device__ __forceinline__ float build(float* tile, int bodies, int jl, const float4& p, bool valid,
                                       const Centre& c) {
    const float vx = valid ? p.x - c.x : 0.f, vy = valid ? p.y - c.y : 0.f, vz = valid ? p.z - c.z : 0.f;
    // The first product's 16 floats as 4 STS.128 (r2_slot keeps each float4 whole and 16-byte aligned), the
    // second product's 8 one by one (acc_body_offset spreads them over the group's columns).
    const tensor::JBodyValues b = tensor::j_body_values(vx, vy, vz, valid ? p.w : 0.f);
#pragma unroll
    for (int q = 0; q < 4; ++q)
        asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};" ::"r"(static_cast<unsigned>(
                         __cvta_generic_to_shared(tile + tensor::r2_slot(jl, 4 * q)))),
                     "f"(b.r2[4 * q]), "f"(b.r2[4 * q + 1]), "f"(b.r2[4 * q + 2]), "f"(b.r2[4 * q + 3])
                     : "memory");
#pragma unroll
    for (int q = 0; q < tensor::kAccColumns; ++q) tile[tensor::acc_base(bodies) + tensor::acc_body_offset(jl, q)] = b.acc.q[q];
    reinterpret_cast<float4*>(tile + tensor::raw_base(bodies))[jl] =
        valid ? p : make_float4(0.f, 0.f, 0.f, 0.f);
    return valid ? vx * vx + vy * vy + vz * vz : kFar;
}

// The i-side operands of one lane (rows g and g + 8 of its warp's 16 i-bodies).
struct ISide {
    uint32_t a1[4], a2[4];  // A of the two r^2 MMAs (k 0-7, 8-15), TF32
    float c[4];             // C: |u|^2 + soft2 of the row of each D register
    float near[2];          // near_r2(|u|^2) of rows g and g + 8: below it a pair goes to the CUDA cores
    float near_tile;        // a tile whose smallest |v|^2 is below this may hold a near pair of the warp
};

__device__ __forceinline__ float3 relative(const float4* sorted, int k, int n, const Centre& c) {
    if (k >= n) return make_float3(0.f, 0.f, 0.f);  // a padding row: computed, never written
    const float4 p = sorted[k];
    return make_float3(p.x - c.x, p.y - c.y, p.z - c.z);
}

__device__ inline ISide i_side(const float4* sorted, int first, int n, const Centre& c, float soft2) {
    const int lane = threadIdx.x % 32;
    ISide s;
    float3 u[2];
    tensor::SplitVec su[2];
    float u2[2];
    for (int h = 0; h < 2; ++h) {
        u[h] = relative(sorted, first + tensor::group_of(lane) + 8 * h, n, c);
        su[h] = tensor::split_vec(u[h].x, u[h].y, u[h].z);
        u2[h] = u[h].x * u[h].x + u[h].y * u[h].y + u[h].z * u[h].z;
        s.near[h] = tensor::near_r2(u2[h]);
    }
    // Per warp, not per block: a warp whose 16 bodies sit near the centre checks only the tiles next to it.
    float max_u2 = fmaxf(u2[0], u2[1]);
    for (int off = 16; off > 0; off >>= 1) max_u2 = fmaxf(max_u2, __shfl_xor_sync(0xffffffffu, max_u2, off));
    s.near_tile = tensor::kNearTileOfMaxU2 * max_u2;
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        const tensor::FragPos a = tensor::a_pos(lane, r);
        const tensor::SplitVec& row = su[r & 1];  // a_pos: row g + 8 (r & 1)
        s.a1[r] = tensor::bits_of(tensor::r2_a_entry(row, a.col));
        s.a2[r] = tensor::bits_of(tensor::r2_a_entry(row, 8 + a.col));
        const float3 v = u[r >> 1];  // c_pos: row g + 8 (r >> 1)
        s.c[r] = v.x * v.x + v.y * v.y + v.z * v.z + soft2;
    }
    return s;
}

// The near pairs of one j-group flagged in `near`, as the fp32 CUDA-core kernel sums them (raw positions, the
// same soft2): into ex[h] for row g + 8 h of the lane. The self pair adds exactly zero here (dx = 0).
__device__ __forceinline__ void near_pairs(const float* tile, int bodies, int g, const bool (&near)[4],
                                           const float4* ipos, float soft2, float3 (&ex)[2]) {
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const float4* raw = reinterpret_cast<const float4*>(tile + tensor::raw_base(bodies));
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        if (!near[r]) continue;
        const tensor::FragPos p = tensor::c_pos(lane, r);
        const float4 xi = ipos[kIPerWarp * warp + p.row], xj = raw[8 * g + p.col];
        const float dx = xj.x - xi.x, dy = xj.y - xi.y, dz = xj.z - xi.z;
        const float inv = rsqrtf(fmaf(dz, dz, fmaf(dy, dy, fmaf(dx, dx, soft2))));
        const float s = xj.w * inv * inv * inv;
        float3& e = ex[r >> 1];
        e.x = fmaf(dx, s, e.x), e.y = fmaf(dy, s, e.y), e.z = fmaf(dz, s, e.z);
    }
}

// One j-group of 8 (group `g` of the tile) against the warp's 16 i-bodies: acc += w [m v, m] (hi and lo
// columns). MASK: the self pair (sorted i == sorted j) gets w = 0. NEAR: the tile may hold near pairs; they
// get w = 0 (r^2 = inf: rsqrt gives 0) and go to near_pairs.
template <bool MASK, bool NEAR>
__device__ __forceinline__ void j_group(const float* tile, int bodies, int g, const ISide& is,
                                        int self_offset, const BlockShared& sh, float soft2, float (&acc)[4],
                                        float3 (&ex)[2]) {
    const int lane = threadIdx.x % 32;
    const float4 rb = *reinterpret_cast<const float4*>(tile + tensor::r2_lane_offset(g, lane));
    float d[4];
    mma(d, is.a1, tensor::bits_of(rb.x), tensor::bits_of(rb.y), is.c);
    mma(d, is.a2, tensor::bits_of(rb.z), tensor::bits_of(rb.w), d);
    bool near[4] = {false, false, false, false};
    float whi[4], wlo[4];
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        if (NEAR) near[r] = d[r] < is.near[r >> 1];  // c_pos: row g + 8 (r >> 1)
        tensor::Weight w = tensor::pair_weight(near[r] ? __int_as_float(0x7f800000) : d[r]);
        if (MASK && tensor::is_self_pair(lane, r, self_offset, g)) w = {0.f, 0.f};
        whi[r] = w.hi, wlo[r] = w.lo;
    }
    uint32_t ahi[4], alo[4];
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        ahi[r] = tensor::bits_of(whi[tensor::d_reg_for_a(r)]);
        alo[r] = tensor::bits_of(wlo[tensor::d_reg_for_a(r)]);
    }
    const float2 q =
        *reinterpret_cast<const float2*>(tile + tensor::acc_base(bodies) + tensor::acc_lane_offset(g, lane));
    mma(acc, ahi, tensor::bits_of(q.x), tensor::bits_of(q.y), acc);
    mma(acc, alo, tensor::bits_of(q.x), tensor::bits_of(q.y), acc);
    if (NEAR && __any_sync(0xffffffffu, near[0] || near[1] || near[2] || near[3]))
        near_pairs(tile, bodies, g, near, sh.ipos, soft2, ex);
}

// A whole tile (`groups` j-groups) into the running sum: the tile's products accumulate from zero in the
// MMA's C and are added to `sum` once per tile (FADD), so the tensor cores' accumulator carries at most
// T terms and the long sum over N stays in IEEE fp32.
template <bool MASK, bool NEAR>
__device__ __forceinline__ void tile_sum(const float* tile, int bodies, int groups, const ISide& is,
                                         int self_offset, const BlockShared& sh, float soft2, float (&sum)[4],
                                         float3 (&ex)[2]) {
    // kGroupsInFlight accumulators, group g into acc[g % kGroupsInFlight]: each group's two accumulating MMAs
    // depend on the previous ones' D, so one accumulator chains every HMMA of the tile (the kernel is
    // latency-bound: 'wait' is its largest stall); independent groups overlap.
    constexpr int A = tensor::kGroupsInFlight;
    float acc[A][4] = {};
    const int full = groups - groups % A;
#pragma unroll 1
    for (int g = 0; g < full; g += A) {
#pragma unroll
        for (int k = 0; k < A; ++k) j_group<MASK, NEAR>(tile, bodies, g + k, is, self_offset, sh, soft2, acc[k], ex);
    }
#pragma unroll
    for (int k = 0; k + 1 < A; ++k)
        if (full + k < groups) j_group<MASK, NEAR>(tile, bodies, full + k, is, self_offset, sh, soft2, acc[k], ex);
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        float t = 0.f;
#pragma unroll
        for (int k = 0; k < A; ++k) t += acc[k][r];
        sum[r] += t;
    }
}

// The j loop of one block over its split's chunk: the lane's four D-layout sums (columns 2t, 2t + 1 of rows
// g and g + 8) and its near pairs' sums (rows g, g + 8).
__device__ inline void j_loop(const TensorArgs& a, float* smem, BlockShared& sh, const Centre& c,
                              const ISide& is, int warp_first, float (&sum)[4], float3 (&ex)[2]) {
    const int T = blockDim.x, t = threadIdx.x, n = a.step.n, lane = t % 32, warp = t / 32;
    const int warps = T / 32;
    const int j0 = static_cast<int>(blockIdx.y) * a.step.chunk, j1 = min(n, j0 + a.step.chunk);
    const int floats = tc::tile_floats(T);
    const float soft2 = a.step.soft2;
    const bool live = warp_first < n;  // a warp of padding rows only builds
    float4 next = j0 + t < j1 ? a.sorted[j0 + t] : make_float4(0.f, 0.f, 0.f, 0.f);
    int buf = 0;
    for (int base = j0; base < j1; base += T, buf ^= 1) {
        float* tile = smem + buf * floats;
        float v2 = build(tile, T, t, next, base + t < j1, c);
        for (int off = 16; off > 0; off >>= 1) v2 = fminf(v2, __shfl_xor_sync(0xffffffffu, v2, off));
        if (lane == 0) sh.vmin[buf][warp] = v2;
        __syncthreads();  // the tile is built; the other buffer's last readers passed the previous barrier
        if (base + T + t < j1) next = a.sorted[base + T + t];  // in flight during this tile's products
        if (!live) continue;
        float tile_min = sh.vmin[buf][0];
        for (int w = 1; w < warps; ++w) tile_min = fminf(tile_min, sh.vmin[buf][w]);
        const bool near = tile_min < is.near_tile;  // warp-uniform: some j may be within |u_i| / 4 of an i
        const int groups = (min(T, j1 - base) + 7) / 8;
        const int self_offset = warp_first - base;  // sorted i - sorted j = self_offset + row - col - 8 g
        if (self_offset > -16 && self_offset < T)   // the warp's own bodies are in this tile
            tile_sum<true, true>(tile, T, groups, is, self_offset, sh, soft2, sum, ex);
        else if (near)
            tile_sum<false, true>(tile, T, groups, is, self_offset, sh, soft2, sum, ex);
        else
            tile_sum<false, false>(tile, T, groups, is, self_offset, sh, soft2, sum, ex);
    }
}

}  // namespace tc

// Sum of the s splits of sorted i-body k, in split order, then the leap-frog update of its own body.
__device__ inline void tensor_finish(const TensorArgs& a, int k) {
    const float4* part = static_cast<const float4*>(a.step.partial);
    float sx = 0.f, sy = 0.f, sz = 0.f;
#pragma unroll 1
    for (int s = 0; s < a.step.splits; ++s) {
        const float4 v = load_cg(part + static_cast<long long>(s) * a.step.n + k);
        sx += v.x, sy += v.y, sz += v.z;
    }
    leapfrog_update<Fp32>(a.step, a.order[k], sx, sy, sz);
}

__global__ void __launch_bounds__(256) tensor_step_kernel(TensorArgs a) {
    extern __shared__ float4 smem4[];
    __shared__ tc::BlockShared sh;
    float* smem = reinterpret_cast<float*>(smem4);
    const int n = a.step.n, lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int per_block = static_cast<int>(blockDim.x / 32) * tc::kIPerWarp;
    const int block_first = static_cast<int>(blockIdx.x) * per_block, warp_first = block_first + 16 * warp;
    const tc::Centre c = tc::block_centre(a.sorted, block_first, min(per_block, n - block_first), sh);
    const tc::ISide is = tc::i_side(a.sorted, warp_first, n, c, a.step.soft2);
    float sum[4] = {0.f, 0.f, 0.f, 0.f};
    float3 ex[2] = {make_float3(0.f, 0.f, 0.f), make_float3(0.f, 0.f, 0.f)};
    tc::j_loop(a, smem, sh, c, is, warp_first, sum, ex);

    // The hi and lo columns (lanes t and t ^ 2), then (x, y | z, m) from lane t ^ 1: tensor_layout.hpp
    // row_sums. The near pairs' sums of a row are spread over the 4 lanes of its group: added up the same
    // way.
#pragma unroll
    for (int r = 0; r < 4; ++r) sum[r] += __shfl_xor_sync(0xffffffffu, sum[r], 2);
    float other[4];
#pragma unroll
    for (int r = 0; r < 4; ++r) other[r] = __shfl_xor_sync(0xffffffffu, sum[r], 1);
#pragma unroll
    for (int h = 0; h < 2; ++h)
        for (int off = 1; off < 4; off <<= 1) {
            ex[h].x += __shfl_xor_sync(0xffffffffu, ex[h].x, off);
            ex[h].y += __shfl_xor_sync(0xffffffffu, ex[h].y, off);
            ex[h].z += __shfl_xor_sync(0xffffffffu, ex[h].z, off);
        }
    const tensor::RowSums rs = tensor::row_sums(lane, sum, other);
    const int k = warp_first + rs.row;
    const bool writer = tensor::finishes_a_row(lane) && k < n;
    float ax = 0.f, ay = 0.f, az = 0.f;
    if (writer) {
        const float3 u = tc::relative(a.sorted, k, n, c);
        const float3 e = rs.row < 8 ? ex[0] : ex[1];
        // sum w m (v - u) over the products' pairs, plus the near pairs; without G
        ax = (rs.mvx - u.x * rs.m) + e.x, ay = (rs.mvy - u.y * rs.m) + e.y, az = (rs.mvz - u.z * rs.m) + e.z;
    }
    if (a.step.splits == 1) {
        if (writer) leapfrog_update<Fp32>(a.step, a.order[k], ax, ay, az);
        return;
    }
    float4* part = static_cast<float4*>(a.step.partial) + static_cast<long long>(blockIdx.y) * n;
    if (writer) part[k] = make_float4(ax, ay, az, 0.f);
    if (!last_split_to_finish(a.step)) return;
    const int kk = block_first + static_cast<int>(threadIdx.x);
    if (static_cast<int>(threadIdx.x) < per_block && kk < n) tensor_finish(a, kk);
}

}  // namespace nbody::kernels
