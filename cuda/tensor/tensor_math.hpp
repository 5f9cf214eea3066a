#pragma once
// The arithmetic of the tensor-core force kernel that is not a matrix product: TF32 splitting, the
// operands of both products, the per-pair weight and the final combination. Host-and-device functions
// shared by the device kernel (tensor_kernel.cuh) and its CPU emulation (tests/unit/test_tensor_layout.cpp).
//
// The pair sum as two products around an element-wise step (positions relative to the centre c of the
// block's i-bodies: u_i = x_i - c, v_j = x_j - c):
//     r2_ij = |u_i|^2 + soft2 - 2 u_i . v_j + |v_j|^2            (first product, K = 16, C = |u|^2 + soft2)
//     w_ij  = r2_ij^(-3/2)                                       (CUDA cores: 1 MUFU.RSQ + 2 FMUL)
//     a_i   = sum_j w_ij m_j v_j - u_i sum_j w_ij m_j              (second product, columns m v and m)
// TF32 keeps 10 explicit mantissa bits, so every operand is split hi + lo (each exactly TF32) and the
// products keep hi*hi + hi*lo + lo*hi (+ lo*lo where a K slot is free): about 22 bits per term.
#include <cstdint>
#include <cstring>

#include "tensor_layout.hpp"  // beside it: the CPU tests include this header from the project root

#if !defined(__CUDA_ARCH__)
#include <cmath>
#endif

namespace nbody::tensor {

NBODY_TC_FN uint32_t bits_of(float x) {
#if defined(__CUDA_ARCH__)
    return __float_as_uint(x);
#else
    uint32_t b;
    std::memcpy(&b, &x, sizeof b);
    return b;
#endif
}

NBODY_TC_FN float float_of(uint32_t b) {
#if defined(__CUDA_ARCH__)
    return __uint_as_float(b);
#else
    float x;
    std::memcpy(&x, &b, sizeof x);
    return x;
#endif
}

// A TF32 value is an fp32 bit pattern whose low 13 mantissa bits are zero. The tensor cores read only
// the top 19 bits of an operand register (they truncate; MMA-Sim's bit-accurate Hopper model, and
// CUTLASS's "round_half_ulp_truncate" relies on it), so operands this kernel feeds are either
// rounded here (exact TF32) or deliberately left raw where truncation error is harmless (the low part
// of the pair weight: 2^-11 of 2^-11 of the weight, and signed, so unbiased).
constexpr uint32_t kTf32Mask = 0xFFFFE000u;

// Round to nearest TF32, ties away from zero, with 2 integer instructions (IADD + LOP), host and device alike:
// exact for every finite x (a carry into the exponent is the correct rounding up; above the largest TF32 it
// gives infinity). cvt.rna.tf32.f32 compiled to 4 on sm_90 (FSETP and SEL guarding infinities and NaN, which
// no operand here is): 8 instructions more per 4 pairs in the pair weights (in the sm_90 SASS).
NBODY_TC_FN float tf32_round(float x) {
    return float_of((bits_of(x) + 0x1000u) & kTf32Mask);
}
// What the MMA sees of a raw fp32 operand.
NBODY_TC_FN float tf32_truncate(float x) {
    return float_of(bits_of(x) & kTf32Mask);
}

struct Split {
    float hi, lo;  // both exactly TF32; x - hi - lo is at most 2^-22 |x| (2^-11 of 2^-11)
};
NBODY_TC_FN Split split_tf32(float x) {
    const float hi = tf32_round(x);
    return {hi, tf32_round(x - hi)};  // x - hi is exact in fp32
}

// Reciprocal square root: MUFU.RSQ on the device (rsqrtf with -ftz=true, at most 2 ulp off). The host
// emulation takes the correctly rounded value and moves it by a deterministic pseudo-random error of up
// to 2 ulp either way, the documented bound, so its accuracy figures are not better than the device's.
NBODY_TC_FN float fast_rsqrt(float x) {
#if defined(__CUDA_ARCH__)
    return rsqrtf(x);
#else
    const float exact = static_cast<float>(1.0 / std::sqrt(static_cast<double>(x)));
    if (exact == 0.f) return exact;  // x = inf (a pair the kernel leaves out): MUFU.RSQ gives exactly 0 too
    const uint32_t h = bits_of(x) * 2654435761u;            // Knuth's multiplicative hash
    const int ulps = static_cast<int>((h >> 28) % 5u) - 2;  // -2 .. 2
    return float_of(bits_of(exact) + static_cast<uint32_t>(ulps));
#endif
}

// ---- First product: r2 (K order: two m16n8k8 MMAs, k = 0..15) --------------------------------------
//   k      0-2       3          4-6       7          8-10      11-13     14-15
//   A    -2 u_hi     1        -2 u_hi     1        -2 u_lo   -2 u_lo       0
//   B     v_hi   |v|^2_hi      v_lo   |v|^2_lo      v_hi      v_lo         0
// with C = |u|^2 + soft2 (fp32, exact in the accumulator). -2 u is exactly TF32 when u is.
struct SplitVec {
    Split x, y, z;
};
NBODY_TC_FN SplitVec split_vec(float x, float y, float z) {
    return {split_tf32(x), split_tf32(y), split_tf32(z)};
}

NBODY_TC_FN float component(const SplitVec& s, int c, bool lo) {
    const Split& p = c == 0 ? s.x : c == 1 ? s.y : s.z;
    return lo ? p.lo : p.hi;
}

// A[i][k] for an i-body at u (split).
NBODY_TC_FN float r2_a_entry(const SplitVec& u, int k) {
    if (k == 3 || k == 7) return 1.f;
    if (k >= 14) return 0.f;
    const int c = k < 8 ? k & 3 : (k - 8) % 3;
    return -2.f * component(u, c, k >= 8);
}

// B[k][j] for a j-body at v (split) with |v|^2 split as v2.
NBODY_TC_FN float r2_b_entry(const SplitVec& v, Split v2, int k) {
    if (k == 3) return v2.hi;
    if (k == 7) return v2.lo;
    if (k >= 14) return 0.f;
    if (k < 8) return component(v, k & 3, k >= 4);
    return component(v, (k - 8) % 3, k >= 11);
}

// ---- Per pair (the CUDA-core work: 1 MUFU.RSQ, 2 FMUL, 2 integer + 1 FADD for the split) -------------
struct Weight {
    float hi, lo;  // hi exactly TF32; lo = w - hi, raw (the MMA truncates it)
};
NBODY_TC_FN Weight pair_weight(float r2) {
    const float inv = fast_rsqrt(r2);
    const float w = inv * inv * inv;
    const float hi = tf32_round(w);
    return {hi, w - hi};
}

// ---- Second product: the j-side columns -------------------------------------------------------------
// Quantity q (AccColumn) of a j-body at v with mass m.
struct AccOperands {
    float q[kAccColumns];
};
NBODY_TC_FN AccOperands acc_operands(float vx, float vy, float vz, float m) {
    const Split sx = split_tf32(m * vx), sy = split_tf32(m * vy), sz = split_tf32(m * vz), sm = split_tf32(m);
    return {{sx.hi, sy.hi, sz.hi, sm.hi, sx.lo, sy.lo, sz.lo, sm.lo}};
}

// Everything the builder writes for one j-body of a tile of `bodies` at shared-memory index jl: 16 floats
// of the first product (contiguous, in the lanes' read order) and, after all bodies' first-product
// floats, 8 of the second (one per quantity).
struct JBodyValues {
    float r2[kR2Floats];  // in r2_slot order p: float4 q = p / 4 is stored whole (swizzled as a unit)
    AccOperands acc;
};
NBODY_TC_FN JBodyValues j_body_values(float vx, float vy, float vz, float m) {
    const SplitVec v = split_vec(vx, vy, vz);
    const Split v2 = split_tf32(vx * vx + vy * vy + vz * vz);
    JBodyValues out{};
    for (int p = 0; p < kR2Floats; ++p) out.r2[p] = r2_b_entry(v, v2, r2_k_at(p));
    out.acc = acc_operands(vx, vy, vz, m);
    return out;
}
template <typename Store>
NBODY_TC_FN void build_j_body(int jl, int bodies, float vx, float vy, float vz, float m, Store&& store) {
    const JBodyValues b = j_body_values(vx, vy, vz, m);
    for (int p = 0; p < kR2Floats; ++p) store(r2_slot(jl, p), b.r2[p]);
    for (int q = 0; q < kAccColumns; ++q) store(acc_base(bodies) + acc_body_offset(jl, q), b.acc.q[q]);
}

// ---- Near pairs: on the CUDA cores ------------------------------------------------------------------------
// r2 = |u|^2 + |v|^2 - 2 u.v (u, v relative to the block's centre) carries a rounding error of ~2^-23
// (|u|^2 + |v|^2) in the fp32 accumulator, and a = sum w m v - u sum w m cancels by |u| / d: both grow as a
// pair's separation d falls below |u_i|. A pair with r2 < |u_i|^2 / 16 (d < |u_i| / 4; for a close pair |v| ~
// |u|) is therefore left out of the products (w = 0) and summed on the CUDA cores from the raw positions, as
// the fp32 kernel does (so eps = 0, coincident bodies and the self pair behave as there). The products keep
// pairs with d >= |u_i| / 4: r2 good to ~1e-6 and the cancellation at most 4x (~1e-6 of the pair's term).
// A tile can hold such a pair only if some |v_j| < 1.25 max |u_i| (|v| <= |u| + d): kNearTileOfMaxU2 is that
// factor squared with 2% slack for the rounding of |v|^2, so tiles far from the block skip the check.
constexpr float kNearOfU2 = 1.f / 16.f;
constexpr float kNearTileOfMaxU2 = 1.6f;
NBODY_TC_FN float near_r2(float u2) {
    return kNearOfU2 * u2;
}

}  // namespace nbody::tensor
