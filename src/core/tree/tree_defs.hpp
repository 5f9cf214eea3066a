#pragma once
// The tree code's shared vocabulary: what the CPU tree (src/cpu/tree/, the reference) and the GPU tree
// (cuda/tree/) both compile, so they make the same decisions. Plain structs and NBODY_TREE_HD functions only:
// this header compiles as host C++20 and under nvcc (C++17) alike; nothing here allocates or throws.
#include <cstdint>

#if defined(__CUDACC__)
#define NBODY_TREE_HD __host__ __device__ __forceinline__
#else
#define NBODY_TREE_HD inline
#endif

namespace nbody::tree {

// Morton keys: 21 bits per axis, 63 bits in all. A cell at level L (root L = 0) is the set of bodies whose
// keys share their top 3L bits, so the key resolution is also the depth cap: a cell at level kMaxLevel is
// never split, however many bodies it holds (coincident bodies end there instead of recursing forever).
inline constexpr int kKeyBits = 21;
inline constexpr int kMaxLevel = kKeyBits;
inline constexpr uint32_t kKeyCells = 1u << kKeyBits;  // cells per axis at the finest level

// Short keys: both trees first sort on the keys' top 3 kShortLevels bits alone, the low bits zeroed (48 bits:
// six radix passes of 8 bits instead of eight; on the GPU 0.23 -> 0.17 ms of a 1M-body step, 1.49 -> 1.20 ms
// at 10M). Bodies of one level-16 cell then keep their input order (the sort is stable). Where no level-16
// cell holds more than `leaf` bodies that is the full keys' tree: every cell down to level 16 has the same
// bodies, and none is split below it. Where one does, the short build reaches level 17 (its bodies share one
// key down to kMaxLevel) and the tree is built again on all 63 bits. The rule fixes the order from the bodies
// alone, so the CPU and GPU trees agree whichever keys they try first (each tries what its last build needed).
inline constexpr int kShortLevels = 16;
inline constexpr uint64_t kShortKeyMask = ~((uint64_t(1) << (3 * (kKeyBits - kShortLevels))) - 1);
inline constexpr int kShortKeyLowBit = 3 * (kKeyBits - kShortLevels);  // the first bit a short sort reads

// Builds the rule's tree: build(short_keys) sorts and builds on short or full keys and returns the depth.
// Short keys reaching below kShortLevels need full keys; full keys that stayed above it need short ones. At
// most two builds; short_keys starts as what the last build settled on and ends as what this one did.
template <class Build>
void build_settled(bool& short_keys, Build build) {
    for (int tries = 0; tries < 2; ++tries) {
        if (short_keys == (build(short_keys) <= kShortLevels)) return;
        short_keys = !short_keys;
    }
}

// The same floor the direct float32 loops add to eps^2 (src/cpu/force_f32.hpp, the CUDA kernels): a body's
// own term (r = 0, in its own leaf) stays a finite 0 with eps = 0.
inline constexpr float kSelfFloor = 1e-20f;
// The squared softening every tree evaluation sums with, the walk's and the due bodies' direct sums alike.
NBODY_TREE_HD float softening2(double eps) { return static_cast<float>(eps * eps) + kSelfFloor; }

// One octree cell. Cells are stored breadth first, so a level is a contiguous range and the children of a
// cell are contiguous: (first_child, n_children). Bodies are in key order, so a cell's bodies are the
// contiguous range [body_begin, body_begin + body_count) of the sorted arrays. 24 bytes.
struct TreeCell {
    uint64_t key;          // the cell's key prefix in the top 3 * level bits, the rest zero
    uint32_t body_begin;   // first body (index into the key-sorted arrays)
    uint32_t body_count;   // > 0 always: only non-empty children are made
    uint32_t first_child;  // index of the first child cell; meaningless when n_children == 0 (a leaf)
    uint8_t n_children;    // 0 (leaf) to 8
    uint8_t level;         // 0 (root) to kMaxLevel
    uint16_t pad;
};

// A cell's multipoles as the walk reads them (float32, 64 bytes, four 16-byte rows; tree/multipoles.hpp's
// walk_moments makes them). Row 0: the centre of mass (length units) and the Barnes opening radius squared
// r_open2, what every visited cell's test reads; row 3 holds the acceleration criterion's r_acc2 (length^2 x
// acceleration^(-2/5)) and its far radius r_far2 (length^2), read with it. Rows 1 and 2, read only for a cell
// the test accepts: the mass and the traceless quadrupole about the centre of mass Q_ab = sum m (3 x_a x_b -
// r^2 delta_ab) (x relative to the centre of mass, so float32 keeps its digits whatever the cell's distance
// from the origin) and its dropped trace tr = sum m r^2 (tree/interactions.hpp's softened term). A cell is one 64-byte segment: both reads
// touch the same lines.
struct alignas(16) CellMoments {
    float x, y, z, r_open2;
    float m, qxx, qyy, qzz;
    float qxy, qxz, qyz, tr;
    float r_acc2, r_far2, pad0, pad1;
};

// The cube every key is taken in: lower corner (length units) and side; cells at level L have side
// side / 2^L. Double, so the keys of both trees come from the same arithmetic.
struct KeyBox {
    double x0, y0, z0;
    double side;
};

// A group: bodies [begin, begin + count) in key order that share one interaction list (one warp on the GPU).
struct TreeGroup {
    uint32_t begin, count;
};

// Three float32 components (an acceleration contribution), without CUDA's float3 so host code needs no
// CUDA header.
struct F3 {
    float x, y, z;
};

}  // namespace nbody::tree
