#pragma once
// Cell multipoles to quadrupole order, accumulated in double (NBODY_TREE_HD, shared by both trees): a leaf from
// its bodies, an internal cell from its children by the parallel-axis shift. Every moment is taken about the
// cell's own centre of mass, never as raw sums of x^2 about the origin, so the float32 copy the walk reads
// keeps its digits for a cell far from the origin.
#include <math.h>

#include "core/tree/morton.hpp"
#include "core/tree/tree_defs.hpp"

namespace nbody::tree {

// Mass, centre of mass (length units) and traceless quadrupole about it: Q_ab = sum m (3 x_a x_b - r^2 d_ab),
// and the trace the traceless form drops, tr = sum m r^2 (mass x length^2): the softened potential needs it.
// lo, hi: the bounding box of the cell's bodies (exact float32 minima and maxima), the extent the opening
// radius takes (walk_moments).
struct alignas(16) MomentsD {  // seven 16-byte rows (the GPU tree loads them so)
    double m, x, y, z;
    double qxx, qyy, qzz, qxy, qxz, qyz;
    double tr;
    float lo[3], hi[3];
};

// Adds m (3 s_a s_b - |s|^2 delta_ab) to q and m |s|^2 to its trace: the second moments of a point mass m at
// offset s (also the parallel-axis term that moves a child's moments to its parent's centre of mass).
NBODY_TREE_HD void add_point_quadrupole(MomentsD& q, double m, double sx, double sy, double sz) {
    const double s2 = sx * sx + sy * sy + sz * sz;
    q.tr += m * s2;
    q.qxx += m * (3 * sx * sx - s2);
    q.qyy += m * (3 * sy * sy - s2);
    q.qzz += m * (3 * sz * sz - s2);
    q.qxy += m * 3 * sx * sy;
    q.qxz += m * 3 * sx * sz;
    q.qyz += m * 3 * sy * sz;
}

// A body as the leaf moments read it: position (length units) and mass, float32 as the walk sees them.
struct BodyF {
    float x, y, z, m;
};

// Moments of `count` bodies, body(k) giving the k-th (read twice: the GPU tree loads one 16-byte row, the CPU
// tree four arrays). The centre of mass is summed relative to the cell's geometric centre `c`; a cell of
// massless bodies keeps c as its centre. Two passes: centre of mass first, then the quadrupole about it.
template <class Body>
NBODY_TREE_HD MomentsD leaf_moments_of(Body body, uint32_t count, const CellBox& c) {
    MomentsD r{};
    double sx = 0, sy = 0, sz = 0;
    const BodyF first = body(0);
    r.lo[0] = r.hi[0] = first.x, r.lo[1] = r.hi[1] = first.y, r.lo[2] = r.hi[2] = first.z;
    for (uint32_t k = 0; k < count; ++k) {
        const BodyF b = body(k);
        r.lo[0] = fminf(r.lo[0], b.x), r.hi[0] = fmaxf(r.hi[0], b.x);
        r.lo[1] = fminf(r.lo[1], b.y), r.hi[1] = fmaxf(r.hi[1], b.y);
        r.lo[2] = fminf(r.lo[2], b.z), r.hi[2] = fmaxf(r.hi[2], b.z);
        r.m += b.m;
        sx += b.m * (b.x - c.cx);
        sy += b.m * (b.y - c.cy);
        sz += b.m * (b.z - c.cz);
    }
    const double inv_m = r.m > 0 ? 1.0 / r.m : 0.0;
    r.x = c.cx + sx * inv_m;
    r.y = c.cy + sy * inv_m;
    r.z = c.cz + sz * inv_m;
    for (uint32_t k = 0; k < count; ++k) {
        const BodyF b = body(k);
        add_point_quadrupole(r, b.m, b.x - r.x, b.y - r.y, b.z - r.z);
    }
    return r;
}

// The same from four arrays (the CPU tree's key-ordered bodies).
NBODY_TREE_HD MomentsD leaf_moments(const float* x, const float* y, const float* z, const float* m,
                                    uint32_t count, const CellBox& c) {
    return leaf_moments_of([=](uint32_t k) { return BodyF{x[k], y[k], z[k], m[k]}; }, count, c);
}

// Moments of a cell from its n children's, shifted to the cell's centre of mass; kid(k) gives child k's
// MomentsD, read twice (the centre of mass first, then the quadrupole about it). The box starts as the first
// child's.
template <class Kid>
NBODY_TREE_HD MomentsD parent_moments_of(Kid kid, int n, const CellBox& c) {
    MomentsD r{};
    double sx = 0, sy = 0, sz = 0;
    for (int k = 0; k < n; ++k) {
        const MomentsD q = kid(k);
        for (int a = 0; a < 3; ++a) {
            r.lo[a] = k == 0 ? q.lo[a] : fminf(r.lo[a], q.lo[a]);
            r.hi[a] = k == 0 ? q.hi[a] : fmaxf(r.hi[a], q.hi[a]);
        }
        r.m += q.m;
        sx += q.m * (q.x - c.cx);
        sy += q.m * (q.y - c.cy);
        sz += q.m * (q.z - c.cz);
    }
    const double inv_m = r.m > 0 ? 1.0 / r.m : 0.0;
    r.x = c.cx + sx * inv_m;
    r.y = c.cy + sy * inv_m;
    r.z = c.cz + sz * inv_m;
    for (int k = 0; k < n; ++k) {
        const MomentsD q = kid(k);
        r.qxx += q.qxx, r.qyy += q.qyy, r.qzz += q.qzz, r.qxy += q.qxy, r.qxz += q.qxz, r.qyz += q.qyz;
        r.tr += q.tr;
        add_point_quadrupole(r, q.m, q.x - r.x, q.y - r.y, q.z - r.z);
    }
    return r;
}

// The same from an array of the n children's moments.
NBODY_TREE_HD MomentsD parent_moments(const MomentsD* kids, int n, const CellBox& c) {
    return parent_moments_of([kids](int k) { return kids[k]; }, n, c);
}

// The float32 copy the walk reads, with its two opening radii (tree/interactions.hpp's accept_cell):
// - Barnes (1994), the geometric guard: a group accepts the cell only when its bounding box lies farther than
//   r_open = l / theta + delta from the centre of mass, l the largest side of the box of the cell's bodies and
//   delta the distance of the centre of mass from that box's centre (Bonsai's form: the bodies' box, not the
//   octree cell, which a few bodies may fill only in a corner). inv_theta = 1 / theta; an infinite inv_theta
//   opens every cell (direct summation through the tree).
// - The acceleration criterion (GADGET-2's relative criterion at quadrupole order, as GOTHIC uses it): the
//   first term the quadrupole leaves out is of order M l^3 / d^5, so accept only when M l^3 / d^5 <= alpha
//   |a|, |a| the smallest acceleration in the group at the last evaluation. Kept as r_acc2 = (M l^3 /
//   alpha)^(2/5): the walk accepts when d^2 |a|^(2/5) > r_acc2, or when the cell lies beyond r_far = l /
//   kFarTheta + delta. alpha = 0 switches it off (r_acc2 = 0).
// A leaf of one or two bodies is never accepted: its bodies cost less than one quadrupole term.
// The far test's opening angle: a cell Barnes's test would accept at this theta is accepted whatever alpha
// says. It bounds what a group whose smallest acceleration is near zero (a body at the centre of a cluster)
// walks: at 131,072 Plummer bodies the costliest group's list fell 2 times (what one warp walks while the
// others wait), and the force errors stayed (Barnes alone at 0.35 gives a median near 4e-5).
inline constexpr double kFarTheta = 0.35;
NBODY_TREE_HD CellMoments walk_moments(const MomentsD& q, const TreeCell& cell, double inv_theta, double alpha) {
    const bool tiny_leaf = cell.n_children == 0 && cell.body_count <= 2;
    const double bx = 0.5 * (double(q.lo[0]) + double(q.hi[0])), by = 0.5 * (double(q.lo[1]) + double(q.hi[1])),
                 bz = 0.5 * (double(q.lo[2]) + double(q.hi[2]));
    const double l = fmax(double(q.hi[0]) - double(q.lo[0]),
                          fmax(double(q.hi[1]) - double(q.lo[1]), double(q.hi[2]) - double(q.lo[2])));
    const double dx = q.x - bx, dy = q.y - by, dz = q.z - bz;
    const double delta = ::sqrt(dx * dx + dy * dy + dz * dz);
    // (l / theta + delta)^2; l * inf with l = 0 (coincident bodies) would be NaN: open_all opens every cell
    const auto radius2 = [&](double inv) {
        const double r = inv_theta == HUGE_VAL ? HUGE_VAL : l * inv + delta;
        return tiny_leaf ? HUGE_VALF : static_cast<float>(r * r);
    };
    CellMoments out{};
    out.x = static_cast<float>(q.x), out.y = static_cast<float>(q.y), out.z = static_cast<float>(q.z);
    out.r_open2 = radius2(inv_theta);
    out.m = static_cast<float>(q.m);
    out.qxx = static_cast<float>(q.qxx), out.qyy = static_cast<float>(q.qyy), out.qzz = static_cast<float>(q.qzz);
    out.qxy = static_cast<float>(q.qxy), out.qxz = static_cast<float>(q.qxz), out.qyz = static_cast<float>(q.qyz);
    out.tr = static_cast<float>(q.tr);
    out.r_acc2 = alpha > 0 ? static_cast<float>(::pow(q.m * l * l * l / alpha, 0.4)) : 0.0f;
    out.r_far2 = radius2(1.0 / kFarTheta);
    return out;
}

}  // namespace nbody::tree
