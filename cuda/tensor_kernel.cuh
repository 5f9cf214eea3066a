#pragma once
// The tensor-core leap-frog step (issue 9 part 2): forces on Morton-sorted bodies (morton_sort.cuh) as two
// m16n8k8 TF32 matrix products per 16 (i) x 8 (j) tile around an element-wise step on the CUDA cores, then
// the same fused kick-drift-kick as step_kernel.cuh, scattered back to the bodies' own order. The layouts
// and arithmetic are cuda/tensor_layout.hpp and cuda/tensor_math.hpp, proved on the CPU by
// tests/unit/test_tensor_layout.cpp; this file only runs them.
//
// Block: W = blockDim.x / 32 warps; warp w takes the 16 sorted i-bodies [16 (W b + w), + 16) of block b. All
// positions are relative to the centre c of the block's W x 16 i-bodies (the midpoint of their box), so
// r^2 = |u|^2 + |v|^2 - 2 u.v stays well conditioned for close pairs (the bodies are sorted). blockIdx.y is
// the j-split: split y sums the sorted j-bodies [y chunk, (y + 1) chunk) and, with several splits, the last
// block of an i-group to finish adds the partial sums in split order (deterministic), as step_kernel does.
//
// Per j-tile (one j-body per thread, T = blockDim.x bodies) every thread builds one body's operands into
// shared memory (v = x - c split hi/lo, |v|^2, m v and m split: ~60 instructions, 100 bytes), one
// __syncthreads, then each warp runs T / 8 j-groups. Per j-group, per lane (4 interactions; 128 per warp):
//     LDS.128 (first product's B) + LDS.64 (second's B)               2
//     HMMA.1688.F32.TF32 x 4 (r^2: 2, the sum: 2)                     4
//     MUFU.RSQ x 4 (rsqrtf, -ftz)                                     4
//     FMUL x 8 (rsqrt^3)                                              8
//     split of w: CVT + LOP + FADD x 4                                12
//     loop and addressing, amortised                                  ~1 (+4 FMNMX where the floor clamps)
// ~31 issued per 4 interactions: 7.75 per interaction against 13.3 for the fp32 CUDA-core kernel. The
// MUFU (16 lanes/clk/SM) does 4 x 32 = 128 lanes per 128 interactions, 1 per interaction: at 16
// interactions/clk/SM the cap is 132 x 1.98e9 x 16 = 4.18e12 interactions/s on the H200, with the issue
// rate (16.5/clk/SM) just above it; the tensor pipe needs ~4.3 clk per tile of the MUFU's 8. The builder
// adds ~60 instructions per j-body per block (T / 2 = 64 i-bodies share it at block 128): ~0.9 per
// interaction. (Predicted from the instruction count; no device measurement by the author of this file.)
//
// Registers per thread (target <= 64 for 8 blocks of 128 = 32 warps per SM): A of the first product 8
// (TF32, both MMAs), C (|u|^2 + eps^2) 2, the tile's sum 4, the running sum 4, the prefetched j-body 4,
// the centre and floor 4; per j-group B 6, D 4, w hi/lo 8. Shared memory: 2 tiles (double-buffered, one
// barrier per tile) x 100 bytes per body = 25.6 KiB at block 128, 51.2 KiB at 256 (opt-in above 48 KiB).
#include <cuda_runtime.h>

#include <cstdint>

#include "step_kernel.cuh"
#include "tensor_math.hpp"

namespace nbody::kernels {

struct TensorArgs {
    StepArgs step;         // buffers, n, G, dt, prime, soft2; partial is float4 [split][sorted i]
    const float4* sorted;  // the bodies at step.in.pos in Morton order
    const int* order;      // sorted index -> body index
};

namespace tc {

constexpr int kIPerWarp = 16;  // the M of m16n8k8

// Shared-memory floats of one j-tile of `bodies` (both products' operands).
__host__ __device__ constexpr int tile_floats(int bodies) {
    return tensor::fragment_floats(bodies);
}

// D = A B + C, m16n8k8, TF32 operands (their bit patterns), fp32 accumulate.
__device__ __forceinline__ void mma(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1,
                                    const float (&c)[4]) {
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%10, %11, %12, %13};\n"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1), "f"(c[0]), "f"(c[1]), "f"(c[2]),
          "f"(c[3]));
}

// The block's centre (midpoint of its valid i-bodies' box) and the squared radius of that box around it.
struct Centre {
    float x, y, z, radius2;
};

__device__ inline Centre block_centre(const float4* sorted, int first, int count) {
    __shared__ float red[6][32];
    __shared__ Centre out;
    const int t = threadIdx.x, lane = t % 32, warp = t / 32;
    const bool valid = t < count;
    const float4 p = valid ? sorted[first + t] : make_float4(0.f, 0.f, 0.f, 0.f);
    float v[6] = {p.x, p.y, p.z, -p.x, -p.y, -p.z};  // maxima of x and of -x
    for (int a = 0; a < 6; ++a) {
        if (!valid) v[a] = -3.0e38f;
        for (int off = 16; off > 0; off >>= 1) v[a] = fmaxf(v[a], __shfl_xor_sync(0xffffffffu, v[a], off));
        if (lane == 0) red[a][warp] = v[a];
    }
    __syncthreads();
    if (t == 0) {
        float m[6];
        for (int a = 0; a < 6; ++a) {
            m[a] = red[a][0];
            for (int w = 1; w < static_cast<int>(blockDim.x / 32); ++w) m[a] = fmaxf(m[a], red[a][w]);
        }
        const float cx = 0.5f * (m[0] - m[3]), cy = 0.5f * (m[1] - m[4]), cz = 0.5f * (m[2] - m[5]);
        const float hx = m[0] - cx, hy = m[1] - cy, hz = m[2] - cz;  // half extents
        out = {cx, cy, cz, hx * hx + hy * hy + hz * hz};
    }
    __syncthreads();
    return out;
}

// One j-body's operands (relative to the centre) into a tile of `bodies`; zero operands past the chunk (zero
// mass, and r^2 = |u|^2 + soft2 > 0 exactly, so the product adds exactly nothing).
__device__ __forceinline__ void build(float* tile, int bodies, int jl, const float4& p, bool valid,
                                      const Centre& c) {
    const float vx = valid ? p.x - c.x : 0.f, vy = valid ? p.y - c.y : 0.f, vz = valid ? p.z - c.z : 0.f;
    tensor::build_j_body(jl, bodies, vx, vy, vz, valid ? p.w : 0.f, [&](int at, float x) { tile[at] = x; });
}

// The i-side operands of one lane (rows g and g + 8 of its warp's 16 i-bodies).
struct ISide {
    uint32_t a1[4], a2[4];  // A of the two r^2 MMAs (k 0-7, 8-15), TF32
    float c[4];             // C: |u|^2 + soft2 of the row of each D register
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
    for (int h = 0; h < 2; ++h) {
        u[h] = relative(sorted, first + tensor::group_of(lane) + 8 * h, n, c);
        su[h] = tensor::split_vec(u[h].x, u[h].y, u[h].z);
    }
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

// One j-group of 8 (group `g` of the tile) against the warp's 16 i-bodies: acc += w [m v, m] (hi and lo
// columns). MASK: the self pair (sorted i == sorted j) gets w = 0. CLAMP: r^2 is held at `floor2` (eps = 0).
template <bool MASK, bool CLAMP>
__device__ __forceinline__ void j_group(const float* tile, int bodies, int g, const ISide& is, float floor2,
                                        int self_offset, float (&acc)[4]) {
    const int lane = threadIdx.x % 32;
    const float4 rb = *reinterpret_cast<const float4*>(tile + tensor::r2_lane_offset(g, lane));
    float d[4];
    mma(d, is.a1, tensor::bits_of(rb.x), tensor::bits_of(rb.y), is.c);
    mma(d, is.a2, tensor::bits_of(rb.z), tensor::bits_of(rb.w), d);
    float whi[4], wlo[4];
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        const float r2 = CLAMP ? fmaxf(d[r], floor2) : d[r];
        tensor::Weight w = tensor::pair_weight(r2);
        if (MASK) {
            const tensor::FragPos p = tensor::c_pos(lane, r);  // i row, j column of this D register
            if (self_offset + p.row - p.col == 8 * g) w = {0.f, 0.f};
        }
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
}

// A whole tile (`groups` j-groups) into the running sum: the tile's products accumulate from zero in the
// MMA's C and are added to `sum` once per tile (FADD), so the tensor cores' accumulator carries at most
// T terms and the long sum over N stays in IEEE fp32.
template <bool MASK, bool CLAMP>
__device__ __forceinline__ void tile_sum(const float* tile, int bodies, int groups, const ISide& is,
                                         float floor2, int self_offset, float (&sum)[4]) {
    float acc[4] = {0.f, 0.f, 0.f, 0.f};
#pragma unroll 2
    for (int g = 0; g < groups; ++g) j_group<MASK, CLAMP>(tile, bodies, g, is, floor2, self_offset, acc);
#pragma unroll
    for (int r = 0; r < 4; ++r) sum[r] += acc[r];
}

// The j loop of one block over its split's chunk: returns the lane's four D-layout sums (columns 2t, 2t + 1
// of rows g and g + 8).
template <bool CLAMP>
__device__ void j_loop(const TensorArgs& a, float* smem, const Centre& c, const ISide& is, float floor2,
                       int warp_first, float (&sum)[4]) {
    const int T = blockDim.x, t = threadIdx.x, n = a.step.n;
    const int j0 = static_cast<int>(blockIdx.y) * a.step.chunk, j1 = min(n, j0 + a.step.chunk);
    const int floats = tc::tile_floats(T);
    const bool live = warp_first < n;  // a warp of padding rows only builds
    float4 next = j0 + t < j1 ? a.sorted[j0 + t] : make_float4(0.f, 0.f, 0.f, 0.f);
    int buf = 0;
    for (int base = j0; base < j1; base += T, buf ^= 1) {
        float* tile = smem + buf * floats;
        build(tile, T, t, next, base + t < j1, c);
        __syncthreads();  // the tile is built; the other buffer's last readers passed the previous barrier
        if (base + T + t < j1) next = a.sorted[base + T + t];  // in flight during this tile's products
        if (!live) continue;
        const int groups = (min(T, j1 - base) + 7) / 8;
        const int self_offset = warp_first - base;  // sorted i - sorted j = self_offset + row - col - 8 g
        if (self_offset > -16 && self_offset < T)   // the warp's own bodies are in this tile
            tile_sum<true, CLAMP>(tile, T, groups, is, floor2, self_offset, sum);
        else
            tile_sum<false, CLAMP>(tile, T, groups, is, floor2, self_offset, sum);
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
    float* smem = reinterpret_cast<float*>(smem4);
    const int n = a.step.n, lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int per_block = static_cast<int>(blockDim.x / 32) * tc::kIPerWarp;
    const int block_first = static_cast<int>(blockIdx.x) * per_block, warp_first = block_first + 16 * warp;
    const tc::Centre c = tc::block_centre(a.sorted, block_first, min(per_block, n - block_first));
    // The floor under r^2 for eps = 0 (tensor_math.hpp effective_soft2): below it r^2's rounding could
    // reach zero. Clamped per pair rather than added to eps^2, so pairs above it keep their exact softening.
    const float floor2 = tensor::kSoftFloorOfRadius2 * c.radius2;
    const tc::ISide is = tc::i_side(a.sorted, warp_first, n, c, a.step.soft2);
    float sum[4] = {0.f, 0.f, 0.f, 0.f};
    if (a.step.soft2 < floor2)
        tc::j_loop<true>(a, smem, c, is, floor2, warp_first, sum);
    else
        tc::j_loop<false>(a, smem, c, is, floor2, warp_first, sum);

        // Columns q and q + 4 (hi and lo parts) are in lanes t and t ^ 2; then lanes t and t ^ 1 hold (x, y)
        // and (z, m) of the same rows. Lane t = 0 finishes row g, t = 1 row g + 8.
#pragma unroll
    for (int r = 0; r < 4; ++r) sum[r] += __shfl_xor_sync(0xffffffffu, sum[r], 2);
    float other[4];
#pragma unroll
    for (int r = 0; r < 4; ++r) other[r] = __shfl_xor_sync(0xffffffffu, sum[r], 1);
    const int tig = tensor::thread_in_group(lane);
    const int row = tensor::group_of(lane) + 8 * tig;
    const int k = warp_first + row;
    const bool writer = tig < 2 && k < n;
    float ax = 0.f, ay = 0.f, az = 0.f;
    if (writer) {
        // Registers of row g (0, 1) or g + 8 (2, 3); selected, not indexed (an indexed array goes to local
        // memory).
        const bool up = tig == 1;
        const float s0 = up ? sum[2] : sum[0], s1 = up ? sum[3] : sum[1];
        const float o0 = up ? other[2] : other[0], o1 = up ? other[3] : other[1];
        const float sx = up ? o0 : s0, sy = up ? o1 : s1, sz = up ? s0 : o0, sm = up ? s1 : o1;
        const float3 u = tc::relative(a.sorted, k, n, c);
        ax = sx - u.x * sm, ay = sy - u.y * sm, az = sz - u.z * sm;  // sum w m (v - u), without G
    }
    if (a.step.splits == 1) {
        if (writer) leapfrog_update<Fp32>(a.step, a.order[k], ax, ay, az);
        return;
    }
    float4* part = static_cast<float4*>(a.step.partial) + static_cast<long long>(blockIdx.y) * n;
    if (writer) part[k] = make_float4(ax, ay, az, 0.f);
    __threadfence();  // the partial sums are visible device-wide before the count says so
    __shared__ bool last;
    __syncthreads();
    if (threadIdx.x == 0) {
        const unsigned done = atomicAdd(&a.step.counters[blockIdx.x], 1u);
        last = done == static_cast<unsigned>(a.step.splits - 1);
        if (last) a.step.counters[blockIdx.x] = 0;  // ready for the next launch
    }
    __syncthreads();
    if (!last) return;
    __threadfence();
    const int kk = block_first + static_cast<int>(threadIdx.x);
    if (static_cast<int>(threadIdx.x) < per_block && kk < n) tensor_finish(a, kk);
}

}  // namespace nbody::kernels
