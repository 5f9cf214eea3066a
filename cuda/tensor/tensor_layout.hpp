#pragma once
// Where each value of the tensor-core force kernel lives: the fragment layouts of
// mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 (PTX ISA, "Matrix Fragments for mma.m16n8k8": .tf32
// A and B, .f32 C and D), the K order of the two products, and the shared-memory slots of the j-side
// operands. Plain C++ with host-and-device functions: the device kernel (tensor_kernel.cuh) runs them on
// the GPU, and tests/unit/test_tensor_layout.cpp runs the same functions in a CPU
// emulation of a warp (and checks the layouts against the PTX ISA's tables), so the index math is proved
// before a device sees it.
#include <cstdint>

#if defined(__CUDACC__)
#define NBODY_TC_FN __host__ __device__ __forceinline__
#else
#define NBODY_TC_FN inline
#endif

namespace nbody::tensor {

// ---- Fragments of one m16n8k8 TF32 MMA (D = A B + C; A 16 x 8, B 8 x 8, C and D 16 x 8) ----------------

struct FragPos {
    int row, col;
};

NBODY_TC_FN constexpr int group_of(int lane) {
    return lane >> 2;
}  // PTX groupID
NBODY_TC_FN constexpr int thread_in_group(int lane) {
    return lane & 3;
}  // PTX threadID_in_group

// A: a0 (g, t), a1 (g + 8, t), a2 (g, t + 4), a3 (g + 8, t + 4)     (row = i, col = k)
NBODY_TC_FN constexpr FragPos a_pos(int lane, int reg) {
    return {group_of(lane) + 8 * (reg & 1), thread_in_group(lane) + 4 * (reg >> 1)};
}
// B: b0 (t, g), b1 (t + 4, g)                                           (row = k, col = n)
NBODY_TC_FN constexpr FragPos b_pos(int lane, int reg) {
    return {thread_in_group(lane) + 4 * reg, group_of(lane)};
}
// C and D: c0 (g, 2t), c1 (g, 2t + 1), c2 (g + 8, 2t), c3 (g + 8, 2t + 1)   (row = i, col = n)
NBODY_TC_FN constexpr FragPos c_pos(int lane, int reg) {
    return {group_of(lane) + 8 * (reg >> 1), 2 * thread_in_group(lane) + (reg & 1)};
}

// ---- The two products of one 16 (i) x 8 (j) tile ------------------------------------------------------
// First: r2 = D of two MMAs (k = 0..15) whose n is the j-body of the group. Second: the 16 x 8 weights w
// of the first, left in the D registers, are fed straight back as the A operand (no shuffles):
//     a0 = d0, a1 = d2, a2 = d1, a3 = d3,
// which puts the weight of j-column 2t at k = t and of 2t + 1 at k = t + 4. So row k of the second
// product's B must hold body j_of_k(k) of the group.
NBODY_TC_FN constexpr int d_reg_for_a(int a_reg) {
    return a_reg == 1 ? 2 : a_reg == 2 ? 1 : a_reg;
}
NBODY_TC_FN constexpr int j_of_k(int k) {
    return k < 4 ? 2 * k : 2 * (k - 4) + 1;
}

// Columns (n) of the second product: the j-side quantities m v (v relative to the block's centre) and m,
// each split into a TF32 high and low part.
enum AccColumn : int { kMvxHi, kMvyHi, kMvzHi, kMassHi, kMvxLo, kMvyLo, kMvzLo, kMassLo, kAccColumns };

// Accumulators per warp: j-group g sums into g % kGroupsInFlight, and the tile's accumulators are added in
// order at its end. More accumulators do not run faster (the chains' overlap is not what limits the kernel), but
// each carries fewer of the tile's terms, so the force error falls with their number (docs/bench/performance-log.md,
// the tensor-core family).
constexpr int kGroupsInFlight = 8;

// ---- Shared-memory slots of the j-side operands (floats; one tile of bodies, 8 per group) -------------
// First product: the lane (g, t) of group J reads one float4 {B[t], B[t+4], B[8+t], B[12+t]} of body
// 8J + g: the b0, b1 of both MMAs. Body jl's 16 values take 16 contiguous floats, so the builder writes 4
// float4s; float4 q of body jl sits in place (q + jl / 2) mod 4 of them. Unswizzled, the 8 builders of a
// store phase (bodies 64 bytes apart) hit 2 bank groups, a 4-way conflict on every STS.128; swizzled, the 8 land
// in 8 different 16-byte bank
// groups. The readers of a phase (bodies g, g + 1) still read 128 contiguous bytes.
constexpr int kR2Floats = 16;  // per body
NBODY_TC_FN constexpr int r2_swizzle(int jl, int q) {
    return 4 * ((q + (jl >> 1)) & 3);
}
NBODY_TC_FN constexpr int r2_lane_offset(int group, int lane) {
    return group * 8 * kR2Floats + group_of(lane) * kR2Floats + r2_swizzle(group_of(lane), thread_in_group(lane));
}
// k held at position p (0..15) of body jl's 16 floats (p = 4t + s: s picks b0/b1 of MMA 1, b0/b1 of MMA 2)
NBODY_TC_FN constexpr int r2_k_at(int p) {
    return (p & 3) * 4 + (p >> 2);
}
NBODY_TC_FN constexpr int r2_body_offset(int jl) {
    return jl * kR2Floats;
}
// Where float p (0..15, as r2_k_at numbers them) of body jl goes.
NBODY_TC_FN constexpr int r2_slot(int jl, int p) {
    return r2_body_offset(jl) + r2_swizzle(jl, p >> 2) + (p & 3);
}

// Second product: the lane (g, t) of group J reads one float2 {b0, b1} = column g of rows k = t and t + 4,
// i.e. quantity g of bodies 8J + j_of_k(t) = 8J + 2t and 8J + 2t + 1. A group takes 64 floats plus 8 of
// padding, so the 32 builders of a warp (4 groups) store one quantity to 32 different banks.
constexpr int kAccGroupFloats = 72;
NBODY_TC_FN constexpr int acc_lane_offset(int group, int lane) {
    return group * kAccGroupFloats + lane * 2;
}
// Where body jl's quantity q goes: lane 4q + t, register s, with 2t + s = jl % 8.
NBODY_TC_FN constexpr int acc_body_offset(int jl, int q) {
    return (jl >> 3) * kAccGroupFloats + 8 * q + (jl & 7);
}

// The second product's slots start after the first product's floats of all `bodies`.
NBODY_TC_FN constexpr int acc_base(int bodies) {
    return bodies * kR2Floats;
}

// Floats of shared memory a tile of `bodies` (a multiple of 8) takes for both products.
NBODY_TC_FN constexpr int fragment_floats(int bodies) {
    return bodies * kR2Floats + (bodies / 8) * kAccGroupFloats;
}

// After both products' operands: each body's raw position and mass (float4), for the near pairs summed on
// the CUDA cores (tensor_math.hpp near_r2).
NBODY_TC_FN constexpr int raw_base(int bodies) {
    return fragment_floats(bodies);
}
NBODY_TC_FN constexpr int tile_floats(int bodies) {
    return fragment_floats(bodies) + 4 * bodies;
}

// ---- The device kernel's mask and epilogue (tensor_kernel.cuh) --------------------------------------------
// In j-group `group` of a tile, D register `reg` of `lane` holds the pair (sorted i = warp_first + row,
// sorted j = tile_first + 8 group + col), row and col from c_pos; self_offset = warp_first - tile_first.
NBODY_TC_FN constexpr bool is_self_pair(int lane, int reg, int self_offset, int group) {
    return self_offset + c_pos(lane, reg).row - c_pos(lane, reg).col == 8 * group;
}

// After the j loop each lane holds D of the second product: columns 2t, 2t + 1 of rows g (registers 0, 1)
// and g + 8 (2, 3). The kernel adds the lo columns to the hi ones (sum[r] += the value of lane ^ 2: lanes
// t < 2 then hold columns 2t, 2t + 1 of kMvxHi..kMassHi) and takes `other` = the sums of lane ^ 1, so lanes
// t = 0 and t = 1 each hold all four quantities of one row: t = 0 row g, t = 1 row g + 8.
NBODY_TC_FN constexpr bool finishes_a_row(int lane) {
    return thread_in_group(lane) < 2;
}
struct RowSums {
    int row;                 // i row of the warp's 16 (only where finishes_a_row)
    float mvx, mvy, mvz, m;  // sum_j w m v and sum_j w m of that row
};
// Selected, not indexed: an indexed register array would go to local memory on the device.
NBODY_TC_FN RowSums row_sums(int lane, const float (&sum)[4], const float (&other)[4]) {
    const bool up = thread_in_group(lane) == 1;
    const float s0 = up ? sum[2] : sum[0], s1 = up ? sum[3] : sum[1];
    const float o0 = up ? other[2] : other[0], o1 = up ? other[3] : other[1];
    return {group_of(lane) + (up ? 8 : 0), up ? o0 : s0, up ? o1 : s1, up ? s0 : o0, up ? s1 : o1};
}

}  // namespace nbody::tensor
