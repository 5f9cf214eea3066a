#pragma once
// The walk's per-element math in float32, shared by the CPU and GPU trees (NBODY_TREE_HD): the opening test
// and the two interactions. Accelerations without G (applied outside), Plummer-softened exactly as the direct
// kernels: soft2 = eps^2 + kSelfFloor.
#include <cmath>

#include "core/tree/tree_defs.hpp"

namespace nbody::tree {

NBODY_TREE_HD float tree_rsqrt(float r2) {
#if defined(__CUDA_ARCH__)
    return rsqrtf(r2);
#else
    return 1.0f /
           __builtin_sqrtf(r2);  // rsqrt14 + one Newton step under -ffast-math, as src/cpu/force_f32.cpp
#endif
}

// An axis-aligned box (length units): a group's bodies' bounding box.
struct GroupBox {
    float x0, y0, z0, x1, y1, z1;
};

// Rounded product and sum that nvcc may not fuse into an FMA: the opening test must round as the CPU's
// (x86-64 without FMA) so both trees open the same cells, bit for bit.
NBODY_TREE_HD float mul_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fmul_rn(a, b);
#else
    return a * b;
#endif
}
NBODY_TREE_HD float add_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fadd_rn(a, b);
#else
    return a + b;
#endif
}

// x^2 + y^2 + z^2 rounded as on the CPU (mul_rn, add_rn): what the opening test compares.
NBODY_TREE_HD float norm2_rn(float x, float y, float z) {
    return add_rn(add_rn(mul_rn(x, x), mul_rn(y, y)), mul_rn(z, z));
}

// Squared distance from the point p to the box (0 inside). Per axis the larger of the two signed gaps and 0:
// below the box x0 - p (p - x1 is negative), above it p - x1, inside both are <= 0: the differences a
// branch would take, so the same bits, without the GPU walk's divergent branches. 15 flops.
NBODY_TREE_HD float box_distance2(const GroupBox& b, float px, float py, float pz) {
    const float dx = fmaxf(fmaxf(b.x0 - px, px - b.x1), 0.0f);
    const float dy = fmaxf(fmaxf(b.y0 - py, py - b.y1), 0.0f);
    const float dz = fmaxf(fmaxf(b.z0 - pz, pz - b.z1), 0.0f);
    return norm2_rn(dx, dy, dz);
}

// The group's factor in the acceleration criterion: |a|^(2/5) of its smallest last acceleration, from amin2 =
// min |a|^2 (each norm2_rn, so both trees agree). No acceleration known yet
// (the first evaluation): +inf, and the criterion passes every cell (Barnes alone decides). Double pow, the
// same function on both trees; a zero acceleration (bodies all at one point) gives 0: only exact cells pass.
inline constexpr float kNoAcceleration = HUGE_VALF;
NBODY_TREE_HD float group_accel_factor(float amin2) {
    return amin2 > 0.0f ? static_cast<float>(::pow(static_cast<double>(amin2), 0.2)) : 0.0f;
}

// The opening test (group form, Barnes 1990), on the rows walk_moments made: accept the cell's multipoles iff
// the group's bounding box lies farther than r_open from the centre of mass (Barnes 1994, the guard) and the
// acceleration criterion holds there, d^2 |a_min|^(2/5) > r_acc2 (accel_factor = |a_min|^(2/5)), or the box
// lies beyond r_far (kFarTheta: what bounds a group of near-zero accelerations); never when
// the cell holds a body of the group (bodies [g_begin, g_end) and the cell's [c_begin, c_end) in key order
// overlap): a big theta alone would otherwise let a group take the multipole of a cell it sits in.
NBODY_TREE_HD bool accept_cell(const GroupBox& g, uint32_t g_begin, uint32_t g_end, const TreeCell& c,
                               const CellMoments& q, float accel_factor) {
    if (c.body_begin < g_end && g_begin < c.body_begin + c.body_count) return false;
    const float d2 = box_distance2(g, q.x, q.y, q.z);
    return d2 > q.r_open2 &&
           (mul_rn(d2, accel_factor) > q.r_acc2 || d2 > q.r_far2);  // d2 > 0 here: inf x d2 is no NaN
}

// Body-body: m d / (|d|^2 + soft2)^(3/2), d = x_j - x_i. 3 sub, 3 mul-add (r^2), rsqrt, 3 mul (m/r^3),
// 3 mul-add: 20 flops by NVIDIA's convention, as the direct kernels.
NBODY_TREE_HD F3 body_body(float dx, float dy, float dz, float m, float soft2) {
    const float r2 = soft2 + dx * dx + dy * dy + dz * dz;
    const float inv_r = tree_rsqrt(r2);
    const float s = m * inv_r * inv_r * inv_r;
    return {dx * s, dy * s, dz * s};
}

// Body-cell: the Taylor expansion of the softened potential -sum m / sqrt(|d - s|^2 + soft2) to second order
// in the bodies' offsets s from the centre of mass, d = com - x_i, r^2 = |d|^2 + soft2:
//   a = M d / r^3 - Q d / r^5 + (5/2) (d.Q.d - soft2 tr) d / r^7.
// The soft2 tr term is what the traceless Q drops: the softened 1/r is not harmonic (its Laplacian is
// -3 soft2 / r^5), so the trace of the second moment does not vanish from the expansion as it does without
// softening. Left out (Bonsai leaves it out), a cell a few softening lengths away is off by up to
// soft2 l^2 / (8 r^4) of its monopole; on the Cartwheel's thin disk (eps 0.01, scale height 0.02) keeping it
// moved the median force error at theta 0.5 from 3.6e-4 to 3.3e-4 (131,072 bodies).
// t = softened_trace(q.tr, soft2), the same for every body, is taken once a cell and group (the walks stage
// it with the cell), so the term costs one add an interaction, folded into d.Q.d's first product. Flops,
// counted as body_body's 20: 3 sub (d), 6 (r^2), rsqrt 4, 3 mul (1/r^2, 1/r^3, 1/r^5), Q d 15, d.Q.d 6 (with
// t), the scalar s 5, the three components 9, the accumulation 3: 54 flops, 2.7 body-body interactions.
NBODY_TREE_HD float softened_trace(float tr, float soft2) {
    return -soft2 * tr;
}

NBODY_TREE_HD F3 body_cell(float dx, float dy, float dz, const CellMoments& q, float t, float soft2) {
    const float r2 = soft2 + dx * dx + dy * dy + dz * dz;
    const float inv_r = tree_rsqrt(r2);
    const float inv_r2 = inv_r * inv_r;
    const float inv_r3 = inv_r * inv_r2;
    const float inv_r5 = inv_r3 * inv_r2;
    const float qx = q.qxx * dx + q.qxy * dy + q.qxz * dz;
    const float qy = q.qxy * dx + q.qyy * dy + q.qyz * dz;
    const float qz = q.qxz * dx + q.qyz * dy + q.qzz * dz;
    const float dqd = t + dx * qx + dy * qy + dz * qz;
    const float s = q.m * inv_r3 + 2.5f * dqd * inv_r5 * inv_r2;
    return {s * dx - inv_r5 * qx, s * dy - inv_r5 * qy, s * dz - inv_r5 * qz};
}

// The potentials whose gradients body_body and body_cell are, without G and with the sign left outside (each
// returns -phi / G, positive): what colour by potential draws. Body-body: m / r. Body-cell, the same
// expansion to second order: sum m / |d + s| ~ M / r + (1/2) sum m s_a s_b (3 d_a d_b / r^5 - delta_ab /
// r^3), which with Q = 3 S - tr I (S_ab = sum m s_a s_b) is M / r + (1/2) (d.Q.d - soft2 tr) / r^5: the same
// dqd (t + d.Q.d) as the acceleration's. Flops, counted as above: body-body 3 sub, 6 (r^2), rsqrt 4, 1 mul:
// 14; body-cell 3 sub, 6, rsqrt 4, 3 mul (1/r^2, 1/r^5), Q d 15, d.Q.d 6, 4 (the sum): 41.
NBODY_TREE_HD float body_body_potential(float dx, float dy, float dz, float m, float soft2) {
    return m * tree_rsqrt(soft2 + dx * dx + dy * dy + dz * dz);
}

NBODY_TREE_HD float body_cell_potential(float dx, float dy, float dz, const CellMoments& q, float t,
                                        float soft2) {
    const float inv_r = tree_rsqrt(soft2 + dx * dx + dy * dy + dz * dz);
    const float inv_r2 = inv_r * inv_r;
    const float inv_r5 = inv_r * inv_r2 * inv_r2;
    const float qx = q.qxx * dx + q.qxy * dy + q.qxz * dz;
    const float qy = q.qxy * dx + q.qyy * dy + q.qyz * dz;
    const float qz = q.qxz * dx + q.qyz * dy + q.qzz * dz;
    const float dqd = t + dx * qx + dy * qy + dz * qz;
    return q.m * inv_r + 0.5f * dqd * inv_r5;
}

// The same two interactions added into (ax, ay, az) with each component's product folded into the sum: the
// accumulation costs no separate add, so a body-cell term issues 3 instructions fewer (35 with its loads' 3)
// and a body-body term 3 fewer (13). Equal to the forms above up to float32 rounding: what the GPU walk
// runs, issue-bound as it is.
NBODY_TREE_HD void add_body_body(float dx, float dy, float dz, float m, float soft2, float& ax, float& ay,
                                 float& az) {
    const float r2 = fmaf(dz, dz, fmaf(dy, dy, fmaf(dx, dx, soft2)));
    const float inv_r = tree_rsqrt(r2);
    const float s = m * inv_r * inv_r * inv_r;
    ax = fmaf(dx, s, ax), ay = fmaf(dy, s, ay), az = fmaf(dz, s, az);
}

NBODY_TREE_HD void add_body_cell(float dx, float dy, float dz, const CellMoments& q, float t, float soft2,
                                 float& ax, float& ay, float& az) {
    const float r2 = fmaf(dz, dz, fmaf(dy, dy, fmaf(dx, dx, soft2)));
    const float inv_r = tree_rsqrt(r2);
    const float inv_r2 = inv_r * inv_r;
    const float inv_r3 = inv_r * inv_r2;
    const float inv_r5 = inv_r3 * inv_r2;
    const float qx = fmaf(q.qxz, dz, fmaf(q.qxy, dy, q.qxx * dx));
    const float qy = fmaf(q.qyz, dz, fmaf(q.qyy, dy, q.qxy * dx));
    const float qz = fmaf(q.qzz, dz, fmaf(q.qyz, dy, q.qxz * dx));
    const float dqd = fmaf(dz, qz, fmaf(dy, qy, fmaf(dx, qx, t)));
    const float s = fmaf(2.5f * dqd, inv_r5 * inv_r2, q.m * inv_r3);
    ax = fmaf(-inv_r5, qx, fmaf(s, dx, ax));
    ay = fmaf(-inv_r5, qy, fmaf(s, dy, ay));
    az = fmaf(-inv_r5, qz, fmaf(s, dz, az));
}

}  // namespace nbody::tree
