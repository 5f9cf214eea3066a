// The GPU tree's multipoles in one launch, bottom-up, with the CPU tree's double-precision accumulation
// (src/core/tree/multipoles.hpp, compiled here without FMA contraction so the bits are the CPU tree's): one
// thread a leaf computes it from its bodies, then counts itself in at its parent; the child that arrives last
// computes the parent from all its children (in child order, so the bits do not depend on which child came
// last) and climbs on. A launch a level, each waiting on the last, took 0.14 ms for 131,072 Plummer bodies'
// 11 levels on an H100, mostly the launches' latency; one launch takes 0.07 ms. Against a launch a level the
// steps are 8% faster at 262,144 bodies, 4.6% at 524,288, 3.6% at 1M and the same at 10M
// (docs/bench/performance-log.md). At Milky Way-Andromeda's 2,097,152 bodies the launch took 184 us on an
// H200 with a thread loading its leaf's bodies as four floats each and its children's rows one child at a
// time; with a 16-byte row a body and the warp loading the children's rows together, 131 us
// (docs/performance.md).
#include "core/tree/multipoles.hpp"
#include "tree/gpu_tree_impl.cuh"

namespace nbody {

namespace {

struct MomentsArgs {
    const tree::TreeCell* cells;
    const tree::KeyBox* box;
    const float4* body;  // key order: x, y, z (length units), m
    tree::MomentsD* md;
    tree::CellMoments* mf;
    double inv_theta, alpha;
};

// A thread reads its leaf's bodies one 16-byte row each, twice (tree::leaf_moments_of's two passes): the
// lanes of a warp read 32 leaves' rows at once, a line each, so a load of one row costs what a load of one
// float would.
__device__ tree::MomentsD leaf_of(const MomentsArgs& a, const tree::TreeCell& cell) {
    const float4* b = a.body + cell.body_begin;
    return tree::leaf_moments_of(
        [b](uint32_t k) {
            const float4 r = b[k];
            return tree::BodyF{r.x, r.y, r.z, r.w};
        },
        cell.body_count, tree::cell_box(cell.key, cell.level, *a.box));
}

__device__ void store(const MomentsArgs& a, uint32_t c, const tree::TreeCell& cell, const tree::MomentsD& q) {
    a.md[c] = q;
    a.mf[c] = tree::walk_moments(q, cell, a.inv_theta, a.alpha);
}

// A parent's children's rows as other multiprocessors wrote them, loaded through L2 (this one's L1 may hold
// the lines from before the writes) by the whole warp into shared memory, kSlots parents at a time, after the
// fence that follows the arrival count: eight children are 56 16-byte rows, two loads a lane issued at once.
// Each parent's thread then sums its children from there alone, in child order (the bits of
// tree::parent_moments_of wherever the rows come from). A thread loading its parent's rows itself paid two L2
// round trips a child (the two passes, 16 for eight children) at every level of the climb to the root, the
// launch's longest path.
constexpr int kBlock = 128, kSlots = 4;
constexpr int kRows = 7;  // 16-byte rows in a MomentsD
static_assert(sizeof(tree::MomentsD) == kRows * sizeof(double2), "MomentsD loads as whole 16-byte rows");
constexpr int kSlotRows = 8 * kRows;  // eight children at most
static_assert(kSlotRows <= 64, "a parent's rows take two loads a lane");

struct Climb {
    uint32_t c;
    tree::TreeCell cell;
    tree::MomentsD q;
    bool live;  // q is cell c's moments, to store and count in at the parent
};

// Each lane with live set stores its cell, counts it in at the parent and, if it was the last child there,
// moves to the parent; the others drop out.
__device__ void store_and_climb(const MomentsArgs& a, const uint32_t* parent, uint32_t* arrived, Climb& k) {
    if (!k.live) return;
    store(a, k.c, k.cell, k.q);
    if (k.c == 0) {
        k.live = false;
        return;
    }
    __threadfence();  // this cell's moments are visible before its arrival is
    k.c = parent[k.c];
    k.cell = a.cells[k.c];
    k.live = atomicAdd(arrived + k.c, 1u) == k.cell.n_children - 1u;
    if (k.live) __threadfence();
}

// The warp's live lanes' parents from their children, kSlots at a time.
__device__ void parents_of(const MomentsArgs& a, double2 (*rows)[kSlotRows], Climb& k) {
    constexpr unsigned kFull = 0xffffffffu;
    const int lane = int(threadIdx.x % 32u);
    __syncwarp();  // the owners' fences come before the other lanes' loads
    for (unsigned todo = __ballot_sync(kFull, k.live); todo != 0;) {
        int slot = -1;
        for (int s = 0; s < kSlots && todo != 0; ++s) {
            const int owner = __ffs(int(todo)) - 1;
            todo &= todo - 1;
            const uint32_t first = __shfl_sync(kFull, k.cell.first_child, owner);
            const int count = kRows * __shfl_sync(kFull, int(k.cell.n_children), owner);
            const auto* from = reinterpret_cast<const double2*>(a.md + first);
#pragma unroll
            for (int r = 0; r < kSlotRows; r += 32)
                if (r + lane < count) rows[s][r + lane] = __ldcg(from + r + lane);
            if (lane == owner) slot = s;
        }
        __syncwarp();
        if (slot >= 0) {
            const auto* kids = reinterpret_cast<const tree::MomentsD*>(rows[slot]);
            k.q = tree::parent_moments(kids, k.cell.n_children, tree::cell_box(k.cell.key, k.cell.level, *a.box));
        }
        __syncwarp();  // the slots are read before the next parents' rows overwrite them
    }
}

__global__ void __launch_bounds__(kBlock) tree_moments_kernel(MomentsArgs a, uint32_t count,
                                                              const uint32_t* parent, uint32_t* arrived) {
    __shared__ double2 rows[kBlock / 32][kSlots][kSlotRows];
    const uint32_t c = blockIdx.x * blockDim.x + threadIdx.x;
    Climb k{c, {}, {}, false};
    if (c < count) {
        k.cell = a.cells[c];
        k.live = k.cell.n_children == 0;  // an internal cell is computed by its last child's thread
        if (k.live) k.q = leaf_of(a, k.cell);
    }
    // every lane stays to the end: the warp loads each parent's rows together
    while (__any_sync(0xffffffffu, k.live)) {
        store_and_climb(a, parent, arrived, k);
        parents_of(a, rows[threadIdx.x / 32], k);
    }
}

}  // namespace

void GpuTree::Impl::compute_moments(double inv_theta, double alpha) {
    if (cells == 0) return;
    // the key box is read on the device: no wait for the box kernel
    const MomentsArgs a{tree_cells.as<const tree::TreeCell>(), box.as<const tree::KeyBox>(),
                        bodies.as<const float4>(),
                        moments_d.as<tree::MomentsD>(), moments.as<tree::CellMoments>(), inv_theta, alpha};
    // cell_parent and the cleared cell_arrivals come from the link pass (tree_build_levels.cu)
    tree_moments_kernel<<<grid_for(cells, kBlock), kBlock, 0, stream>>>(
        a, uint32_t(cells), cell_parent.as<const uint32_t>(), cell_arrivals.as<uint32_t>());
    NBODY_CUDA_CHECK_LAUNCH("tree_moments_kernel");
}

}  // namespace nbody
