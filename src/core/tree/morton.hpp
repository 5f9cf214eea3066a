#pragma once
// 63-bit Morton keys (21 bits per axis, x the most significant of each triple) and the geometry of the cell
// a key prefix names. Shared by the CPU and GPU trees (NBODY_TREE_HD): both compute keys with this double
// arithmetic from the same float32 positions and the same KeyBox, so both sort the bodies identically.
#include <cstdint>

#include "core/tree/tree_defs.hpp"

namespace nbody::tree {

// Spreads the low 21 bits of v so that bit b lands at bit 3b (the classic magic-number dilation).
NBODY_TREE_HD uint64_t dilate3(uint32_t v) {
    uint64_t x = v & 0x1fffffu;
    x = (x | x << 32) & 0x1f00000000ffffull;
    x = (x | x << 16) & 0x1f0000ff0000ffull;
    x = (x | x << 8) & 0x100f00f00f00f00full;
    x = (x | x << 4) & 0x10c30c30c30c30c3ull;
    x = (x | x << 2) & 0x1249249249249249ull;
    return x;
}

// The inverse of dilate3: gathers bits 0, 3, 6, ... into the low 21 bits.
NBODY_TREE_HD uint32_t contract3(uint64_t x) {
    x &= 0x1249249249249249ull;
    x = (x ^ (x >> 2)) & 0x10c30c30c30c30c3ull;
    x = (x ^ (x >> 4)) & 0x100f00f00f00f00full;
    x = (x ^ (x >> 8)) & 0x1f0000ff0000ffull;
    x = (x ^ (x >> 16)) & 0x1f00000000ffffull;
    x = (x ^ (x >> 32)) & 0x1fffffull;
    return static_cast<uint32_t>(x);
}

NBODY_TREE_HD uint64_t morton_key(uint32_t ix, uint32_t iy, uint32_t iz) {
    return dilate3(ix) << 2 | dilate3(iy) << 1 | dilate3(iz);
}

// The finest-level cell index of coordinate v along an axis starting at v0, clamped into [0, 2^21 - 1]
// (the upper face of the box and rounding both land in the last cell). scale = 2^21 / side. (v - v0) * scale
// has no add after the multiply, so no compiler can contract it into an FMA differently on host and device.
NBODY_TREE_HD uint32_t key_coord(float v, double v0, double scale) {
    const double f = (static_cast<double>(v) - v0) * scale;
    if (!(f > 0)) return 0;  // also catches a NaN, which validation has refused before
    if (f >= static_cast<double>(kKeyCells - 1)) return kKeyCells - 1;
    return static_cast<uint32_t>(f);
}

NBODY_TREE_HD uint64_t body_key(float x, float y, float z, const KeyBox& box) {
    const double scale = static_cast<double>(kKeyCells) / box.side;
    return morton_key(key_coord(x, box.x0, scale), key_coord(y, box.y0, scale), key_coord(z, box.z0, scale));
}

// The cube the keys are taken in, from the bodies' bounding box lo..hi (float32, exact on any device): centred
// on the box, side its largest extent widened by 2^-20 so the upper faces fall inside; bodies all at one point
// get a side of 2^-40 of their distance from the origin (or 2^-40), so the cube is never empty and the depth
// cap ends the split. Both trees call this, so both take keys in the same cube.
NBODY_TREE_HD KeyBox key_box_from_bounds(const float lo[3], const float hi[3]) {
    double c[3], extent = 0, far = 1;
    for (int a = 0; a < 3; ++a) {
        c[a] = 0.5 * (static_cast<double>(lo[a]) + static_cast<double>(hi[a]));
        const double e = static_cast<double>(hi[a]) - static_cast<double>(lo[a]);
        extent = e > extent ? e : extent;
        const double ac = c[a] < 0 ? -c[a] : c[a];
        far = ac > far ? ac : far;
    }
    const double wide = extent * (1 + 0x1p-20), tiny = far * 0x1p-40;
    const double side = wide > tiny ? wide : tiny;
    return {c[0] - 0.5 * side, c[1] - 0.5 * side, c[2] - 0.5 * side, side};
}

// Bit shift that leaves the top 3 * level bits of a key: a cell's prefix is key >> level_shift(level).
NBODY_TREE_HD int level_shift(int level) {
    return 3 * (kMaxLevel - level);
}

// Octant (0..7, 4x + 2y + z) of a key within its cell at `level` (the child at level + 1 it falls in).
NBODY_TREE_HD int child_octant(uint64_t key, int level) {
    return static_cast<int>((key >> level_shift(level + 1)) & 7u);
}

// The geometric centre and side (length units) of the cell with key prefix `key` at `level`.
struct CellBox {
    double cx, cy, cz, side;
};
NBODY_TREE_HD CellBox cell_box(uint64_t key, int level, const KeyBox& box) {
    const uint64_t prefix = key >> level_shift(level);
    const double side = box.side / static_cast<double>(1u << level);
    return {box.x0 + (contract3(prefix >> 2) + 0.5) * side, box.y0 + (contract3(prefix >> 1) + 0.5) * side,
            box.z0 + (contract3(prefix) + 0.5) * side, side};
}

}  // namespace nbody::tree
