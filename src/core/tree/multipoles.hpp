#pragma once
// Cell multipoles to quadrupole order, accumulated in double (NBODY_TREE_HD, shared by both trees): a leaf from
// its bodies, an internal cell from its children by the parallel-axis shift. Every moment is taken about the
// cell's own centre of mass, never as raw sums of x^2 about the origin, so the float32 copy the walk reads
// keeps its digits for a cell far from the origin.
#include <math.h>

#include "core/tree/morton.hpp"
#include "core/tree/tree_defs.hpp"

namespace nbody::tree {

// Mass, centre of mass (length units) and traceless quadrupole about it: Q_ab = sum m (3 x_a x_b - r^2 d_ab).
struct MomentsD {
    double m, x, y, z;
    double qxx, qyy, qzz, qxy, qxz, qyz;
};

// Adds m (3 s_a s_b - |s|^2 delta_ab) to q: the quadrupole of a point mass m at offset s (also the
// parallel-axis term that moves a child's quadrupole to its parent's centre of mass).
NBODY_TREE_HD void add_point_quadrupole(MomentsD& q, double m, double sx, double sy, double sz) {
    const double s2 = sx * sx + sy * sy + sz * sz;
    q.qxx += m * (3 * sx * sx - s2);
    q.qyy += m * (3 * sy * sy - s2);
    q.qzz += m * (3 * sz * sz - s2);
    q.qxy += m * 3 * sx * sy;
    q.qxz += m * 3 * sx * sz;
    q.qyz += m * 3 * sy * sz;
}

// Moments of `count` bodies (positions and masses in float32, as the walk sees them). The centre of mass is
// summed relative to the cell's geometric centre `c`; a cell of massless bodies keeps c as its centre.
// Two passes: centre of mass first, then the quadrupole about it.
NBODY_TREE_HD MomentsD leaf_moments(const float* x, const float* y, const float* z, const float* m, uint32_t count,
                               const CellBox& c) {
    MomentsD r{};
    double sx = 0, sy = 0, sz = 0;
    for (uint32_t k = 0; k < count; ++k) {
        r.m += m[k];
        sx += m[k] * (x[k] - c.cx);
        sy += m[k] * (y[k] - c.cy);
        sz += m[k] * (z[k] - c.cz);
    }
    const double inv_m = r.m > 0 ? 1.0 / r.m : 0.0;
    r.x = c.cx + sx * inv_m;
    r.y = c.cy + sy * inv_m;
    r.z = c.cz + sz * inv_m;
    for (uint32_t k = 0; k < count; ++k) add_point_quadrupole(r, m[k], x[k] - r.x, y[k] - r.y, z[k] - r.z);
    return r;
}

// Moments of a cell from its children's (`kids`, n of them), shifted to the cell's centre of mass.
NBODY_TREE_HD MomentsD parent_moments(const MomentsD* kids, int n, const CellBox& c) {
    MomentsD r{};
    double sx = 0, sy = 0, sz = 0;
    for (int k = 0; k < n; ++k) {
        r.m += kids[k].m;
        sx += kids[k].m * (kids[k].x - c.cx);
        sy += kids[k].m * (kids[k].y - c.cy);
        sz += kids[k].m * (kids[k].z - c.cz);
    }
    const double inv_m = r.m > 0 ? 1.0 / r.m : 0.0;
    r.x = c.cx + sx * inv_m;
    r.y = c.cy + sy * inv_m;
    r.z = c.cz + sz * inv_m;
    for (int k = 0; k < n; ++k) {
        const MomentsD& q = kids[k];
        r.qxx += q.qxx, r.qyy += q.qyy, r.qzz += q.qzz, r.qxy += q.qxy, r.qxz += q.qxz, r.qyz += q.qyz;
        add_point_quadrupole(r, q.m, q.x - r.x, q.y - r.y, q.z - r.z);
    }
    return r;
}

// The float32 copy the walk reads, with the opening radius of Barnes (1994): a group accepts the cell when
// its bounding box lies farther than r_open = l / theta + delta from the centre of mass. inv_theta = 1 /
// theta; an infinite inv_theta opens every cell (direct summation through the tree).
NBODY_TREE_HD CellMoments walk_moments(const MomentsD& q, const CellBox& c, double inv_theta) {
    const double dx = q.x - c.cx, dy = q.y - c.cy, dz = q.z - c.cz;
    const double delta = ::sqrt(dx * dx + dy * dy + dz * dz);
    const double r_open = c.side * inv_theta + delta;
    CellMoments out{};
    out.x = static_cast<float>(q.x), out.y = static_cast<float>(q.y), out.z = static_cast<float>(q.z);
    out.r_open2 = static_cast<float>(r_open * r_open);
    out.m = static_cast<float>(q.m);
    out.qxx = static_cast<float>(q.qxx), out.qyy = static_cast<float>(q.qyy), out.qzz = static_cast<float>(q.qzz);
    out.qxy = static_cast<float>(q.qxy), out.qxz = static_cast<float>(q.qxz), out.qyz = static_cast<float>(q.qyz);
    return out;
}

}  // namespace nbody::tree
