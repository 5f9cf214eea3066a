#pragma once
// The walk's per-element math in float32, shared by the CPU and GPU trees (NBODY_TREE_HD): the opening test and
// the two interactions. Accelerations without G (applied outside), Plummer-softened exactly as the direct
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

// Squared distance from the point p to the box (0 inside). 9 flops.
NBODY_TREE_HD float box_distance2(const GroupBox& b, float px, float py, float pz) {
    const float dx = px < b.x0 ? b.x0 - px : (px > b.x1 ? px - b.x1 : 0.0f);
    const float dy = py < b.y0 ? b.y0 - py : (py > b.y1 ? py - b.y1 : 0.0f);
    const float dz = pz < b.z0 ? b.z0 - pz : (pz > b.z1 ? pz - b.z1 : 0.0f);
    return add_rn(add_rn(mul_rn(dx, dx), mul_rn(dy, dy)), mul_rn(dz, dz));
}

// Barnes (1994), group form: the group accepts the cell's multipoles iff the distance from the group's box
// to the cell's centre of mass exceeds l / theta + delta, and never when the cell holds a body of the group
// (bodies [g_begin, g_end) and the cell's [c_begin, c_end) in key order overlap): a big theta alone would
// otherwise let a group take the multipole of a cell it sits in.
NBODY_TREE_HD bool accept_cell(const GroupBox& g, uint32_t g_begin, uint32_t g_end, const TreeCell& c,
                          const CellMoments& q) {
    if (c.body_begin < g_end && g_begin < c.body_begin + c.body_count) return false;
    return box_distance2(g, q.x, q.y, q.z) > q.r_open2;
}

// Body-body: m d / (|d|^2 + soft2)^(3/2), d = x_j - x_i. 3 sub, 3 mul-add (r^2), rsqrt, 3 mul (m/r^3),
// 3 mul-add: 20 flops by NVIDIA's convention, as the direct kernels.
NBODY_TREE_HD F3 body_body(float dx, float dy, float dz, float m, float soft2) {
    const float r2 = soft2 + dx * dx + dy * dy + dz * dz;
    const float inv_r = tree_rsqrt(r2);
    const float s = m * inv_r * inv_r * inv_r;
    return {dx * s, dy * s, dz * s};
}

// Body-cell, monopole plus quadrupole about the centre of mass, d = com - x_i, r^2 = |d|^2 + soft2 (the same
// softened 1/r in every term, as Bonsai): a = M d / r^3 - Q d / r^5 + (5/2) (d.Q.d) d / r^7.
// Flops, counted as body_body's 20: 3 sub (d), 6 (r^2), rsqrt 4, 3 mul (1/r^2, 1/r^3, 1/r^5), Q d 15,
// d.Q.d 5, the scalar s 5, the three components 9, the accumulation 3: 53 flops, 2.65 body-body interactions.
NBODY_TREE_HD F3 body_cell(float dx, float dy, float dz, const CellMoments& q, float soft2) {
    const float r2 = soft2 + dx * dx + dy * dy + dz * dz;
    const float inv_r = tree_rsqrt(r2);
    const float inv_r2 = inv_r * inv_r;
    const float inv_r3 = inv_r * inv_r2;
    const float inv_r5 = inv_r3 * inv_r2;
    const float qx = q.qxx * dx + q.qxy * dy + q.qxz * dz;
    const float qy = q.qxy * dx + q.qyy * dy + q.qyz * dz;
    const float qz = q.qxz * dx + q.qyz * dy + q.qzz * dz;
    const float dqd = dx * qx + dy * qy + dz * qz;
    const float s = q.m * inv_r3 + 2.5f * dqd * inv_r5 * inv_r2;
    return {s * dx - inv_r5 * qx, s * dy - inv_r5 * qy, s * dz - inv_r5 * qz};
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

NBODY_TREE_HD void add_body_cell(float dx, float dy, float dz, const CellMoments& q, float soft2, float& ax,
                                 float& ay, float& az) {
    const float r2 = fmaf(dz, dz, fmaf(dy, dy, fmaf(dx, dx, soft2)));
    const float inv_r = tree_rsqrt(r2);
    const float inv_r2 = inv_r * inv_r;
    const float inv_r3 = inv_r * inv_r2;
    const float inv_r5 = inv_r3 * inv_r2;
    const float qx = fmaf(q.qxz, dz, fmaf(q.qxy, dy, q.qxx * dx));
    const float qy = fmaf(q.qyz, dz, fmaf(q.qyy, dy, q.qxy * dx));
    const float qz = fmaf(q.qzz, dz, fmaf(q.qyz, dy, q.qxz * dx));
    const float dqd = fmaf(dz, qz, fmaf(dy, qy, dx * qx));
    const float s = fmaf(2.5f * dqd, inv_r5 * inv_r2, q.m * inv_r3);
    ax = fmaf(-inv_r5, qx, fmaf(s, dx, ax));
    ay = fmaf(-inv_r5, qy, fmaf(s, dy, ay));
    az = fmaf(-inv_r5, qz, fmaf(s, dz, az));
}

}  // namespace nbody::tree
