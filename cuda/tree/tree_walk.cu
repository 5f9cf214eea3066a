// The GPU tree's group walk (Barnes 1990, in the manner of Bonsai): consecutive bodies in key order form a
// group that one warp walks with one shared traversal. Each round the warp pops up to 32 cells off its stack,
// one a lane, and applies the opening test of src/core/tree/interactions.hpp (the CPU tree's, rounded the
// same way): accepted cells and opened leaves' bodies are staged in shared memory and evaluated 32 at a time,
// every lane adding their force to its own bodies; other opened cells push their children (a group of at most
// 16 bodies spreads over the warp in slices, each summing a share of the staged elements: lanes_for). The
// interaction lists are never stored, so the walk's memory is its stacks alone.
//
// A walk of few groups (block steps' small steps, small N) would leave most of the GPU idle and last as long as
// its costliest group's traversal: at 1,026 due bodies of Milky Way-Andromeda, one warp's 0.32-0.37 ms of a
// 0.83 ms step. Each group's walk is then cut over `split` warps (parts): they run the first rounds alike
// (only part 0 keeps what those rounds accept), then at kCellsPerPart x split stacked cells part k keeps the
// entries k, k + split, ... and walks them alone. Each part's sums go to scratch; the last part to finish adds
// them in part order (the same bits whichever ran first) and writes the group's accelerations. The cut depends
// on the count of groups holding an active body in the whole tree alone, so every GPU and part count sums each
// group alike.
//
// The stack bound (why the stack cannot overflow). The stack is kept sorted by level, deepest on top: a round
// pops the top cells (levels a..b, every remaining cell at level <= a) and pushes their children (levels
// a+1..b+1) in the popped order. So after every push no cell of a level above a survives from before, and
// the cells of any one level came from one round: at most 32 x 8 = 256. With L levels the stack holds at most
// 256 L cells (L <= 22: at most 22.5 KB a warp). The first pass gives each warp far less (kFastStack); a group
// that would overflow it is counted, and the walk runs again with the bound.
//
// Work per interaction (tree/interactions.hpp): body-body 20 flops, body-cell 54 flops, each from shared
// memory by broadcast (one LDS.128 a body, three a cell). A visited cell costs a 16-byte and an 8-byte load of
// its moments (centre of mass and the three opening radii, one 64-byte segment); only an accepted one loads the
// other 32 bytes. With the acceleration criterion each group first reads its bodies' last accelerations.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "core/errors.hpp"
#include "core/tree/interactions.hpp"
#include "tree/gpu_tree_impl.cuh"

namespace nbody {

namespace {

constexpr int kWalkWarps = 8;
constexpr int kWalkThreads = 32 * kWalkWarps;
constexpr unsigned kFull = 0xffffffffu;
constexpr uint32_t kMaxPush = 32 * 8;  // children one round pushes at most
// The first pass's stack, in cells a warp: far below the bound (a group's stack rarely holds more than a few
// hundred cells), so every warp that fits on the GPU gets one (4 KB each: 17 MB for 4,224 warps on an H200,
// 17 bytes a body at 1M). A group that would overflow it stops and is counted; the walk then runs again with
// the proven bound and as many warps as the same memory holds.
constexpr uint32_t kFastStack = 1024;
constexpr int kMaxPerLane = 4;  // bodies a lane holds: groups of up to 128
// The split: at most kMaxSplit warps a group, doubling while the walk's warps stay within kSplitWarps (about
// two waves of an H200's 4,224 walk warps; more on smaller GPUs, where the cut only queues); the parts go apart
// once the stack holds kCellsPerPart cells for each. Measured on an H200 (Milky Way-Andromeda's small block
// steps, at most 256 groups holding the 1,026 due bodies, 0.804 ms a step uncut): 8 warps 0.725 ms, 16 warps
// 0.631 ms with 16 cells a part, 0.729 with 8 and 0.788 with 4 (a shallower cut leaves the group's own subtree,
// where most of the work is, to one part); 32 warps 0.666 ms with 8, 0.774 with 4.
constexpr uint32_t kMaxSplit = 16, kSplitWarps = 8192, kCellsPerPart = 16;

enum Counter { kNextGroup, kBodyBody, kBodyCell, kOverflow, kWalked, kCounters };
constexpr std::size_t kCounterBytes = kCounters * sizeof(unsigned long long);

struct WalkArgs {
    const tree::TreeCell* cells;
    const tree::CellMoments* moments;
    const float4* body;          // key order: x, y, z (length units), m
    const uint32_t* order;       // key order -> input order
    const tree::TreeGroup* group_list;
    const uint32_t* walk_list;  // the groups to walk (block steps: those holding an active body); null: all
    const uint8_t* active;      // input order: the bodies whose accelerations are written; null: all
    uint32_t n, group, groups, walk_count, stack_cap;
    float soft2;
    bool use_last;     // acc holds each body's last acceleration: the acceleration criterion reads it
    uint32_t* stacks;  // stack_cap entries a warp
    unsigned long long* counters;
    uint32_t *group_cells, *group_bodies;
    float4* acc;  // input order
    float4* mirrors[WalkShare::kMaxMirrors];  // input order, other GPUs' (WalkShare::mirrors)
    int mirror_count;
    uint32_t split;          // warps (parts) a group's walk is cut over
    uint32_t* arrivals;      // split: parts finished, a walked slot (zeroed before the walk)
    uint4* part_counts;      // split: each part's cells, bodies and overflow
    float4* part_sums;       // split: each part's sums, kPerLane x 32 a part
};

__device__ float warp_min(float v) {
    for (int off = 16; off > 0; off >>= 1) v = fminf(v, __shfl_xor_sync(kFull, v, off));
    return v;
}
__device__ uint32_t warp_min_u32(uint32_t v) {
    for (int off = 16; off > 0; off >>= 1) v = min(v, __shfl_xor_sync(kFull, v, off));
    return v;
}
__device__ float warp_max(float v) {
    for (int off = 16; off > 0; off >>= 1) v = fmaxf(v, __shfl_xor_sync(kFull, v, off));
    return v;
}

// Exclusive prefix sum of v over the warp's lanes; total gets the sum of all.
__device__ uint32_t warp_exclusive_scan(uint32_t v, int lane, uint32_t& total) {
    uint32_t inc = v;
    for (int off = 1; off < 32; off <<= 1) {
        const uint32_t t = __shfl_up_sync(kFull, inc, off);
        if (lane >= off) inc += t;
    }
    total = __shfl_sync(kFull, inc, 31);
    return inc - v;
}

// Entry e's owner when lane l owns the entries [off_l, off_l + count_l) (off: the exclusive scan of the
// counts, in lane order): the last lane whose offset is <= e. A lane that owns none shares its offset with the
// next, so that last lane owns some. A 5-step search; every lane takes part (the shuffles), whatever its e.
__device__ __forceinline__ int owner_of(uint32_t e, uint32_t off) {
    int owner = 0;
#pragma unroll
    for (int step = 16; step > 0; step >>= 1)
        if (__shfl_sync(kFull, off, owner + step) <= e) owner += step;
    return owner;
}

// The round's opened cells' children onto the stack, the whole warp at once: entry e (of total, in lane order,
// each lane's children in order, as a lane writing its own would put them) is child e - off_l of its owner l.
// A lane writing its own children looped up to 8 times while the others idled; here a pass of 32 entries is
// one search and one store a lane.
__device__ __forceinline__ void push_children(uint32_t* top, uint32_t off, uint32_t first_child, uint32_t total,
                                              int lane) {
    for (uint32_t e0 = 0; e0 < total; e0 += 32) {
        const uint32_t e = e0 + uint32_t(lane);
        const int owner = owner_of(e, off);
        const uint32_t from = __shfl_sync(kFull, off, owner), child = __shfl_sync(kFull, first_child, owner);
        if (e < total) top[e] = child + (e - from);
    }
}

// Part `part` of `parts` keeps the stack's entries part, part + parts, ... in order, at the bottom, and returns
// how many (size > part). A subset of a stack sorted by level is sorted by level: the stack bound holds. Every
// pass reads before it writes, and writes below what later passes read.
__device__ uint32_t keep_part(uint32_t* stack, uint32_t size, uint32_t part, uint32_t parts, int lane) {
    const uint32_t kept = (size - part + parts - 1) / parts;
    for (uint32_t j0 = 0; j0 < kept; j0 += 32) {
        const uint32_t j = j0 + uint32_t(lane);
        const uint32_t v = j < kept ? stack[part + j * parts] : 0u;
        __syncwarp();
        if (j < kept) stack[j] = v;
        __syncwarp();
    }
    return kept;
}

// A part's sums (the first slice's lanes hold them) and counts into scratch; the last part of the group to
// arrive gets every part's, added in part order, and returns true (the others false: the group is not theirs
// to write). Fences on both sides of the arrival count, as CUDA's threadFenceReduction sample.
template <int kPerLane>
__device__ bool gather_parts(const WalkArgs& a, uint32_t slot, uint32_t part, int lane, float* ax, float* ay,
                             float* az, uint32_t& n_cells, uint32_t& n_bodies, bool& overflow) {
    const std::size_t first = std::size_t(slot) * a.split;
#pragma unroll
    for (int r = 0; r < kPerLane; ++r)
        a.part_sums[((first + part) * kPerLane + r) * 32 + lane] = make_float4(ax[r], ay[r], az[r], 0.f);
    if (lane == 0) a.part_counts[first + part] = make_uint4(n_cells, n_bodies, overflow ? 1u : 0u, 0u);
    __threadfence();
    __syncwarp();
    unsigned last = 0;
    if (lane == 0) last = atomicAdd(&a.arrivals[slot], 1u) == a.split - 1 ? 1u : 0u;
    if (__shfl_sync(kFull, last, 0) == 0) return false;
    __threadfence();
    n_cells = n_bodies = 0;
    overflow = false;
#pragma unroll
    for (int r = 0; r < kPerLane; ++r) ax[r] = ay[r] = az[r] = 0.f;
    for (uint32_t k = 0; k < a.split; ++k) {
#pragma unroll
        for (int r = 0; r < kPerLane; ++r) {
            const float4 v = __ldcg(&a.part_sums[((first + k) * kPerLane + r) * 32 + lane]);
            ax[r] += v.x, ay[r] += v.y, az[r] += v.z;
        }
        const uint4 c = __ldcg(&a.part_counts[first + k]);
        n_cells += c.x, n_bodies += c.y;
        overflow = overflow || c.z != 0;
    }
    return true;
}

// Lanes and bodies. A group of up to 32 bodies (kPerLane 1) and at most 16 spreads over the warp in `slices`
// = 32 / size copies: lane l holds body l % size and sums the staged cells and bodies j = slice, slice +
// slices, ... (lanes past slices x size idle), and the slices are added at the end. A group on the Plummer
// sphere or the galaxies holds about 25 bodies on average (tree::emit_groups), and those of at most 16 held a
// fifth of a 1M walk's interactions: this gives their lanes a body term each instead of one idle in two (or
// more). Larger groups:
// one slice, kPerLane bodies a lane (body gb + lane + 32 r).
struct Lanes {
    uint32_t body;  // offset in the group of the lane's (first) body
    int first, slices;  // the staged element the lane starts at, and its stride
};
template <int kPerLane>
__device__ Lanes lanes_for(uint32_t size, int lane) {
    if (kPerLane > 1 || size > 16 || size == 0) return {uint32_t(lane), 0, 1};
    const int slices = int(32u / size), slice = lane / int(size);
    return {uint32_t(lane) % size, slice < slices ? slice : 64, slices};  // 64: past any staged count (idle)
}

// The bodies a group evaluates, its members: every body, or with block steps' active set its active ones
// alone (tree::walks_active_members: groups of at most 32, one a lane, kPerLane 1), whose box and smallest
// acceleration then decide the openings: a body that only drifts this step neither widens the box nor takes
// a lane. Member i is body gb + member_offset(m, i). A walked group holds at least one (active_groups lists
// only such groups).
struct Members {
    unsigned mask;  // the active members' lanes (sub-groups only)
    uint32_t size;
    bool sub;
};
template <int kPerLane>
__device__ Members members_of(const WalkArgs& a, uint32_t gb, uint32_t count, int lane) {
    if (kPerLane > 1 || !a.active) return {0u, count, false};
    const unsigned mask = __ballot_sync(kFull, uint32_t(lane) < count && a.active[a.order[gb + uint32_t(lane)]]);
    return {mask, uint32_t(__popc(mask)), true};
}
__device__ __forceinline__ uint32_t member_offset(const Members& m, uint32_t i) {
    return m.sub ? uint32_t(__fns(m.mask, 0u, int(i) + 1)) : i;
}

// The group's bodies, kPerLane a lane (body gb + at + 32 r, at the lane's member; lanes without one repeat a
// member, or body gb past the group's end, so the box is unchanged), and their bounding box: the same floats
// the CPU tree's members_box takes.
template <int kPerLane>
__device__ tree::GroupBox load_group(const WalkArgs& a, uint32_t gb, uint32_t ge, uint32_t at, float* px,
                                     float* py, float* pz) {
    float lo[3], hi[3];
#pragma unroll
    for (int r = 0; r < kPerLane; ++r) {
        const uint32_t k = gb + at + 32u * uint32_t(r);
        const uint32_t kk = k < ge ? k : gb;
        const float4 b = a.body[kk];
        px[r] = b.x, py[r] = b.y, pz[r] = b.z;
        if (r == 0) {
            lo[0] = hi[0] = px[0], lo[1] = hi[1] = py[0], lo[2] = hi[2] = pz[0];
        } else {
            lo[0] = fminf(lo[0], px[r]), hi[0] = fmaxf(hi[0], px[r]);
            lo[1] = fminf(lo[1], py[r]), hi[1] = fmaxf(hi[1], py[r]);
            lo[2] = fminf(lo[2], pz[r]), hi[2] = fmaxf(hi[2], pz[r]);
        }
    }
    return {warp_min(lo[0]), warp_min(lo[1]), warp_min(lo[2]),
            warp_max(hi[0]), warp_max(hi[1]), warp_max(hi[2])};
}

// The group's factor in the acceleration criterion (tree::group_accel_factor) from its members' last
// accelerations (the lanes' bodies, as load_group), read before this group writes its new ones (no other group
// touches them).
template <int kPerLane>
__device__ float group_factor(const WalkArgs& a, uint32_t gb, uint32_t ge, uint32_t at) {
    if (!a.use_last) return tree::kNoAcceleration;
    float amin2 = HUGE_VALF;
#pragma unroll
    for (int r = 0; r < kPerLane; ++r) {
        const uint32_t k = gb + at + 32u * uint32_t(r);
        const float4 l = a.acc[a.order[k < ge ? k : gb]];
        amin2 = fminf(amin2, tree::norm2_rn(l.x, l.y, l.z));
    }
    return tree::group_accel_factor(warp_min(amin2));
}

// Body-cell terms of the staged cells (3 float4 each) front + first, front + first + step, ... below front +
// count on the lane's bodies (front 0 or 32, count <= 32: never past the ring's end).
template <int kPerLane>
__device__ void eval_cells(const float4 (*cells)[64], int front, int first, int step, int count, const float* px,
                           const float* py, const float* pz, float soft2, float* ax, float* ay, float* az) {
    const float4 *row0 = cells[0] + front, *row1 = cells[1] + front, *row2 = cells[2] + front;
    for (int j = first; j < count; j += step) {
        const float4 c0 = row0[j], c1 = row1[j], c2 = row2[j];
        tree::CellMoments cm{};
        cm.m = c0.w, cm.qxx = c1.x, cm.qyy = c1.y, cm.qzz = c1.z;
        cm.qxy = c1.w, cm.qxz = c2.x, cm.qyz = c2.y;
#pragma unroll
        for (int r = 0; r < kPerLane; ++r)
            tree::add_body_cell(c0.x - px[r], c0.y - py[r], c0.z - pz[r], cm, c2.z, soft2, ax[r], ay[r], az[r]);
    }
}

// Body-body terms of the staged bodies first, first + step, ... below count on the lane's bodies.
template <int kPerLane>
__device__ void eval_bodies(const float4* bodies, int first, int step, int count, const float* px,
                            const float* py, const float* pz, float soft2, float* ax, float* ay, float* az) {
    for (int j = first; j < count; j += step) {
        const float4 b = bodies[j];
#pragma unroll
        for (int r = 0; r < kPerLane; ++r)
            tree::add_body_body(b.x - px[r], b.y - py[r], b.z - pz[r], b.w, soft2, ax[r], ay[r], az[r]);
    }
}

// eval(first, step) on the lane's slice: a group of one slice takes the plain loop (first 0, step 1: at a
// constant count the compiler unrolls it; a strided one it does not, which would cost the large groups).
template <int kPerLane, class Eval>
__device__ __forceinline__ void on_slice(const Lanes& ln, Eval eval) {
    if (kPerLane == 1 && ln.slices > 1)
        eval(ln.first, ln.slices);
    else
        eval(0, 1);
}

// Accepted cells and opened leaves' bodies are staged in shared memory across rounds and evaluated 32 at a
// time (a round often accepts a handful of cells and opens a leaf of a dozen bodies: evaluating each as it
// came cost a synchronisation and a short loop per round).
// kSplit: the walk is cut over a.split warps a group (a.split > 1); its own instance, so that the whole walks'
// kernel keeps its registers (63 with one body a lane: four blocks a multiprocessor; the split's bookkeeping
// takes it to 70, three).
template <int kPerLane, bool kSplit>
__global__ void __launch_bounds__(kWalkThreads) tree_walk_kernel(WalkArgs a) {
    __shared__ float4 s_cell[kWalkWarps][3][64];  // staged cells: (x, y, z, m), (qxx, qyy, qzz, qxy), (qxz, qyz, t)
    __shared__ float4 s_body[kWalkWarps][32];     // staged leaf bodies: (x, y, z, m)
    const int lane = int(threadIdx.x) & 31, w = int(threadIdx.x) >> 5;
    const unsigned below = (1u << lane) - 1u;  // the lanes before this one
    uint32_t* stack = a.stacks + (std::size_t(blockIdx.x) * kWalkWarps + std::size_t(w)) * a.stack_cap;
    for (;;) {
        unsigned long long next = 0;
        if (lane == 0) next = atomicAdd(&a.counters[kNextGroup], 1ull);
        const unsigned long long item = __shfl_sync(kFull, next, 0);
        const uint32_t split = kSplit ? a.split : 1u;
        if (item >= static_cast<unsigned long long>(a.walk_count) * split) return;
        const uint32_t slot = uint32_t(item / split), part = uint32_t(item % split);  // split 1: item, 0
        const uint32_t g = a.walk_list ? a.walk_list[slot] : slot;
        const tree::TreeGroup grp = a.group_list[g];
        const uint32_t gb = grp.begin, ge = grp.begin + grp.count;
        float px[kPerLane], py[kPerLane], pz[kPerLane], ax[kPerLane] = {}, ay[kPerLane] = {}, az[kPerLane] = {};
        const Members mem = members_of<kPerLane>(a, gb, grp.count, lane);
        const Lanes ln = lanes_for<kPerLane>(mem.size, lane);
        const uint32_t at = member_offset(mem, ln.body < mem.size ? ln.body : 0u);  // spare lanes repeat one
        const tree::GroupBox box = load_group<kPerLane>(a, gb, ge, at, px, py, pz);
        const float factor = group_factor<kPerLane>(a, gb, ge, at);

        if (lane == 0) stack[0] = 0;  // the root
        __syncwarp();
        uint32_t size = 1, n_cells = 0, n_bodies = 0;  // warp-uniform
        int staged_cells = 0, staged_bodies = 0;         // warp-uniform
        // The staged cells are a ring of 64 slots starting at cell_front (0 or 32, warp-uniform): after 32 are
        // evaluated the front moves to the rest instead of the rest being copied to the front.
        int cell_front = 0;
        bool overflow = false;
        bool apart = !kSplit;  // false: the parts still run the same rounds, and part 0 alone keeps them
        while (size > 0) {
            if (!apart && size >= kCellsPerPart * split) {
                size = keep_part(stack, size, part, split, lane);
                apart = true;
            }
            const uint32_t take = min(size, 32u), base = size - take;
            const bool have = uint32_t(lane) < take;
            tree::TreeCell cell{};
            const float4* row = nullptr;  // the cell's moments: rows (x, y, z, r_open2), (m, Q..), (Q.., tr), (r_acc2, r_far2, -)
            float4 head{};
            bool accept = false, leaf = false;
            uint32_t kids = 0;
            if (have) {
                const uint32_t ci = stack[base + uint32_t(lane)];
                cell = a.cells[ci];
                row = reinterpret_cast<const float4*>(a.moments + ci);
                head = __ldg(row);  // the opening test reads row 0 and row 3's radii; the quadrupole only when accepted
                tree::CellMoments q{};
                q.x = head.x, q.y = head.y, q.z = head.z, q.r_open2 = head.w;
                const float2 radii = __ldg(reinterpret_cast<const float2*>(row + 3));  // r_acc2, r_far2
                q.r_acc2 = radii.x, q.r_far2 = radii.y;
                accept = tree::accept_cell(box, gb, ge, cell, q, factor);
                leaf = !accept && cell.n_children == 0;
                kids = !accept && !leaf ? cell.n_children : 0u;
            }
            __syncwarp();  // every pop read before a push overwrites it
            uint32_t total = 0;
            const uint32_t off = warp_exclusive_scan(kids, lane, total);  // this lane's first entry above base
            if (base + total > a.stack_cap) {  // total is warp-uniform: the whole warp leaves together
                overflow = true;
                break;
            }
            push_children(stack + base, off, cell.first_child, total, lane);
            size = base + total;
            if (!apart && part != 0) accept = leaf = false;  // part 0 keeps the rounds the parts share

            const unsigned accepted = __ballot_sync(kFull, accept);
            if (accept) {
                const int slot = (cell_front + staged_cells + __popc(accepted & below)) & 63;
                const float4 r1 = __ldg(row + 1), r2 = __ldg(row + 2);  // (m, qxx, qyy, qzz), (qxy, qxz, qyz, tr)
                s_cell[w][0][slot] = make_float4(head.x, head.y, head.z, r1.x);
                s_cell[w][1][slot] = make_float4(r1.y, r1.z, r1.w, r2.x);
                s_cell[w][2][slot] = make_float4(r2.y, r2.z, tree::softened_trace(r2.w, a.soft2), 0.f);
            }
            staged_cells += __popc(accepted);
            n_cells += uint32_t(__popc(accepted));
            __syncwarp();  // also orders the pushes before the next round's pops
            if (staged_cells >= 32) {
                on_slice<kPerLane>(ln, [&](int first, int step) {
                    eval_cells<kPerLane>(s_cell[w], cell_front, first, step, 32, px, py, pz, a.soft2, ax, ay,
                                         az);
                });
                __syncwarp();  // every lane's reads before the next round's writes wrap onto these slots
                staged_cells -= 32;
                cell_front ^= 32;
            }

            // The round's opened leaves' bodies, staged by the whole warp at once in the order a leaf at a time
            // would stage them (lane order, each leaf's bodies in key order): a pass fills the staging from as
            // many leaves as it takes, a lane a body (a leaf at a time loaded a dozen bodies with the other
            // lanes idle, and waited on each leaf's loads in turn).
            if (__ballot_sync(kFull, leaf) != 0) {
                uint32_t leaf_total = 0;
                const uint32_t leaf_off = warp_exclusive_scan(leaf ? cell.body_count : 0u, lane, leaf_total);
                for (uint32_t e0 = 0; e0 < leaf_total;) {
                    const uint32_t put = min(leaf_total - e0, uint32_t(32 - staged_bodies));
                    const uint32_t e = e0 + uint32_t(lane);
                    const int owner = owner_of(e, leaf_off);
                    const uint32_t from = __shfl_sync(kFull, leaf_off, owner);
                    const uint32_t b0 = __shfl_sync(kFull, cell.body_begin, owner);
                    if (uint32_t(lane) < put) {
                        const uint32_t k = b0 + (e - from);
                        s_body[w][staged_bodies + lane] = a.body[k];
                    }
                    staged_bodies += int(put);
                    e0 += put;
                    if (staged_bodies == 32) {
                        __syncwarp();
                        on_slice<kPerLane>(ln, [&](int first, int step) {
                            eval_bodies<kPerLane>(s_body[w], first, step, 32, px, py, pz, a.soft2, ax, ay, az);
                        });
                        __syncwarp();
                        staged_bodies = 0;
                    }
                }
                n_bodies += leaf_total;
            }
        }
        __syncwarp();
        on_slice<kPerLane>(ln, [&](int first, int step) {
            eval_cells<kPerLane>(s_cell[w], cell_front, first, step, staged_cells, px, py, pz, a.soft2, ax, ay,
                                 az);
            eval_bodies<kPerLane>(s_body[w], first, step, staged_bodies, px, py, pz, a.soft2, ax, ay, az);
        });
        __syncwarp();  // the next group's staging waits for every lane's reads
        // The slices' partial sums into the first slice's lanes, in slice order (the same bits every run), each
        // read as its lane left it (a lane of a later slice also adds, into its own sum, what it reads).
        const float part_x = ax[0], part_y = ay[0], part_z = az[0];
        for (int sl = 1; sl < ln.slices; ++sl) {
            const int from = lane + sl * int(mem.size);
            const float bx = __shfl_sync(kFull, part_x, from & 31), by = __shfl_sync(kFull, part_y, from & 31),
                        bz = __shfl_sync(kFull, part_z, from & 31);
            if (from < 32) ax[0] += bx, ay[0] += by, az[0] += bz;
        }
        if (kSplit && !gather_parts<kPerLane>(a, slot, part, lane, ax, ay, az, n_cells, n_bodies, overflow))
            continue;
        // Only the active bodies take their new accelerations (the others keep the one their step began
        // with: their closing kick comes later, and the acceleration criterion reads it meanwhile).
        uint32_t written = 0;  // warp-uniform
#pragma unroll
        for (int r = 0; r < kPerLane; ++r) {
            const uint32_t i = uint32_t(lane) + 32u * uint32_t(r);  // member i's sum: lane i (the first slice)
            const bool put = mem.sub ? i < mem.size : gb + i < ge && (!a.active || a.active[a.order[gb + i]]);
            const uint32_t k = gb + (put ? member_offset(mem, i) : 0u);
            if (put) {
                const float4 v = make_float4(ax[r], ay[r], az[r], walk_cost(n_cells, n_bodies));
                const uint32_t body = a.order[k];
                a.acc[body] = v;
                for (int m = 0; m < a.mirror_count; ++m) a.mirrors[m][body] = v;
            }
            written += uint32_t(__popc(__ballot_sync(kFull, put)));
        }
        if (lane == 0) {
            const unsigned long long members = written;
            a.group_cells[g] = n_cells;
            a.group_bodies[g] = n_bodies;
            atomicAdd(&a.counters[kBodyBody], members * n_bodies);
            atomicAdd(&a.counters[kBodyCell], members * n_cells);
            atomicAdd(&a.counters[kWalked], static_cast<unsigned long long>(ge - gb));
            if (overflow) atomicAdd(&a.counters[kOverflow], 1ull);
        }
    }
}

// The selection's scalars after the list: its length, the first body of the share's run and one past it, and
// the groups holding an active body in every share (what the split goes by).
enum Selected { kSelectedCount, kRunBegin, kRunEnd, kHolding, kSelectedScalars };

// walk_list gets every group in the share [share_begin, share_end) of first bodies (key order) that holds an
// active body (input-order flags through the key order; null: any), in no fixed order: each group's result
// does not depend on when it is walked. The share's run: from the first group starting at or after
// share_begin to the first starting at or after share_end (the scalars start at n).
__global__ void select_groups_kernel(const tree::TreeGroup* groups, uint32_t count, const uint32_t* order,
                                     const uint8_t* active, uint32_t share_begin, uint32_t share_end,
                                     uint32_t* walk_list, uint32_t* scalars) {
    const uint32_t g = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = int(threadIdx.x & 31u);
    uint32_t begin = UINT32_MAX;  // past the groups (the scalars start at n)
    bool holds = false;
    if (g < count) {
        const tree::TreeGroup grp = groups[g];
        begin = grp.begin;
        holds = !active;
        for (uint32_t k = begin; k < begin + grp.count && !holds; ++k) holds = active[order[k]];
    }
    const bool take = holds && begin >= share_begin && begin < share_end;
    // A warp's atomics, not a thread's: every group bids for the run's bounds and the taken ones for places in
    // the list, all on three words (at 10M bodies 0.05 ms of a share's walk, one atomic a thread).
    const uint32_t from = warp_min_u32(begin >= share_begin ? begin : UINT32_MAX);
    const uint32_t to = warp_min_u32(begin >= share_end ? begin : UINT32_MAX);
    const unsigned taken = __ballot_sync(kFull, take), held = __ballot_sync(kFull, holds);
    uint32_t base = 0;
    if (lane == 0) {
        if (held) atomicAdd(&scalars[kHolding], uint32_t(__popc(held)));
        if (from != UINT32_MAX) atomicMin(&scalars[kRunBegin], from);
        if (to != UINT32_MAX) atomicMin(&scalars[kRunEnd], to);
        if (taken) base = atomicAdd(&scalars[kSelectedCount], uint32_t(__popc(taken)));
    }
    base = __shfl_sync(kFull, base, 0);
    if (take) walk_list[base + uint32_t(__popc(taken & ((1u << lane) - 1u)))] = g;
}

// Warps each group's walk is cut over, from the groups holding an active body in the whole tree (the same on
// every GPU and part, and whatever the GPU: the same bits everywhere).
uint32_t split_for(uint32_t holding) {
    uint32_t split = 1;
    while (split < kMaxSplit && uint64_t(holding) * split * 2 <= kSplitWarps) split *= 2;
    return split;
}

// The walk's instances: bodies a lane 1, 2 or 4, each whole and cut (Impl::walk_blocks_per_sm's order).
using WalkKernel = void (*)(WalkArgs);
constexpr WalkKernel kWalkKernels[] = {tree_walk_kernel<1, false>, tree_walk_kernel<1, true>,
                                       tree_walk_kernel<2, false>, tree_walk_kernel<2, true>,
                                       tree_walk_kernel<4, false>, tree_walk_kernel<4, true>};
std::size_t walk_instance(int per_lane, bool split) {
    return std::size_t(2 * (per_lane == 1 ? 0 : per_lane == 2 ? 1 : 2) + (split ? 1 : 0));
}

int blocks_per_sm(WalkKernel kernel) {
    int blocks = 0;
    NBODY_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, kWalkThreads, 0));
    return std::max(1, blocks);
}

}  // namespace

// One persistent launch: as many warps as fit at once, each taking groups
// from a counter, so the dense centre of a galaxy does not hold a multiprocessor while the outskirts wait.
void GpuTree::Impl::walk(const TreeParams& p, float soft2, float4* acc, TreeStats& s, bool use_last,
                         const uint8_t* active, const WalkShare* share) {
    const uint32_t group = uint32_t(p.group);
    // bodies a lane holds: 1, 2 or 4 (a three-body instance spilled registers; 65..96 take four with lanes idle)
    const int per_lane = group <= 32 ? 1 : group <= 64 ? 2 : 4;
    if (group > 32u * kMaxPerLane) throw BackendError("tree walk: group " + std::to_string(group) + " above 128");
    const uint32_t levels = uint32_t(level_start.size() - 1);
    const uint32_t bound = kMaxPush * levels, fast = std::min(kFastStack, bound);

    run = {0, n};
    const bool selected = active || share;
    const Selection sel = selected ? select_groups(active, share) : Selection{uint32_t(groups), uint32_t(groups)};
    // A share may hold no group (a few bodies over several parts): nothing to cut, and no scratch to clear.
    const uint32_t walk_count = sel.walked, split = walk_count ? split_for(sel.holding) : 1u;
    const std::size_t instance = walk_instance(per_lane, split > 1);
    const WalkKernel kernel = kWalkKernels[instance];
    if (sms == 0) NBODY_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    static_assert(std::size(kWalkKernels) == std::tuple_size_v<decltype(walk_blocks_per_sm)>, "one count each");
    int& per_sm = walk_blocks_per_sm[instance];
    if (per_sm == 0) per_sm = blocks_per_sm(kernel);
    const std::size_t items = std::size_t(walk_count) * split;  // (group, part) pairs, a warp each
    const std::size_t group_blocks = std::max<std::size_t>(1, (items + kWalkWarps - 1) / kWalkWarps);
    const int blocks = int(std::min(std::size_t(sms) * std::size_t(per_sm), group_blocks));
    const std::size_t stack_bytes = std::size_t(blocks) * kWalkWarps * fast * sizeof(uint32_t);
    if (stacks.bytes() < stack_bytes) stacks = kernels::DeviceBuffer::alloc(device, stack_bytes, "tree walk stacks");
    if (walk_counters.bytes() == 0) {
        walk_counters = kernels::DeviceBuffer::alloc(device, kCounterBytes, "tree counters");
        host_counters = kernels::Pinned<unsigned long long>(kCounters);
    }
    if (group_counts.bytes() < 2 * std::size_t(groups) * sizeof(uint32_t))
        group_counts = kernels::DeviceBuffer::alloc(device, 2 * std::size_t(groups) * sizeof(uint32_t),
                                                    "tree group list lengths");

    WalkArgs a{};
    a.cells = tree_cells.as<const tree::TreeCell>();
    a.moments = moments.as<const tree::CellMoments>();
    a.body = bodies.as<const float4>();
    a.order = sorted.order();
    a.group_list = group_list.as<const tree::TreeGroup>();
    const uint32_t* candidates = selected ? walk_list.as<const uint32_t>() : nullptr;
    // Costliest first only where each warp walks several groups (a 1M-body step 4-5% faster on an H100): with
    // few groups a warp (131,072 bodies: 1.4) the sort costs more than the tail it saves, and the key order
    // keeps neighbouring warps' lists in cache (8% slower there). A share of the groups (several GPUs) is
    // judged by the whole tree's count: its shorter list makes the tail a larger part of its walk, not a smaller
    // one (on two parts of one H200 at 1M bodies, 228.4 -> 234.0 steps/s with the shares sorted).
    const uint32_t resident_warps = uint32_t(sms * per_sm * kWalkWarps);
    const bool by_cost = (share ? uint32_t(groups) : walk_count) >= 4u * resident_warps;
    a.walk_list = by_cost ? costliest_first(candidates, walk_count, acc) : candidates;
    a.active = active;
    a.n = uint32_t(n), a.group = group, a.groups = uint32_t(groups), a.walk_count = walk_count;
    a.soft2 = soft2;
    a.use_last = use_last;
    a.stacks = stacks.as<uint32_t>();
    a.counters = walk_counters.as<unsigned long long>();
    a.group_cells = group_counts.as<uint32_t>();
    a.group_bodies = a.group_cells + groups;
    a.acc = acc;
    if (share)
        for (int m = 0; m < share->mirror_count && m < WalkShare::kMaxMirrors; ++m)
            a.mirrors[a.mirror_count++] = static_cast<float4*>(share->mirrors[m]);
    a.split = split;
    // The cut's scratch, one buffer: the arrivals (a slot each, padded to 16 bytes), then each part's counts,
    // then each part's sums.
    const std::size_t arrival_bytes = (std::size_t(walk_count) * sizeof(uint32_t) + 15) / 16 * 16;
    if (split > 1) {
        const std::size_t part_bytes = sizeof(uint4) + std::size_t(per_lane) * 32 * sizeof(float4);
        const std::size_t bytes = arrival_bytes + items * part_bytes;
        if (split_scratch.bytes() < bytes)
            split_scratch = kernels::DeviceBuffer::alloc(device, bytes, "tree walk parts' sums");
        unsigned char* at = split_scratch.as<unsigned char>();
        a.arrivals = reinterpret_cast<uint32_t*>(at);
        a.part_counts = reinterpret_cast<uint4*>(at + arrival_bytes);
        a.part_sums = reinterpret_cast<float4*>(at + arrival_bytes + items * sizeof(uint4));
    }
    const unsigned long long* counts = host_counters.get();
    auto walk_all = [&](uint32_t cap, int grid) {
        a.stack_cap = cap;
        NBODY_CUDA_CHECK(cudaMemsetAsync(walk_counters.get(), 0, kCounterBytes, stream));
        if (split > 1) NBODY_CUDA_CHECK(cudaMemsetAsync(a.arrivals, 0, arrival_bytes, stream));
        kernel<<<grid, kWalkThreads, 0, stream>>>(a);
        NBODY_CUDA_CHECK_LAUNCH("tree_walk_kernel");
        NBODY_CUDA_CHECK(
            cudaMemcpyAsync(host_counters.get(), walk_counters.get(), kCounterBytes, cudaMemcpyDeviceToHost, stream));
        NBODY_CUDA_CHECK(cudaStreamSynchronize(stream));
    };
    walk_all(fast, blocks);
    if (counts[kOverflow] != 0 && fast < bound)  // again, every group, with the bound in the same memory
        walk_all(bound, int(std::max<std::size_t>(1, stack_bytes / (std::size_t(kWalkWarps) * bound * sizeof(uint32_t)))));
    if (counts[kOverflow] != 0)
        throw BackendError("tree walk: " + std::to_string(counts[kOverflow]) + " groups overflowed their stack of " +
                           std::to_string(bound) + " cells (a bug: the bound says it cannot)");
    // The walk took every group it will take next time (all of them, or a share's): each of their bodies holds
    // its group's cost (a block step's partial walk leaves the others' as they were).
    if (!active) costs_known = true;
    s.groups = groups;
    s.body_body = counts[kBodyBody];
    s.body_cell = counts[kBodyCell];
    s.walked_bodies = counts[kWalked];
    s.walk_split = int(split);
}

GpuTree::Impl::Selection GpuTree::Impl::select_groups(const uint8_t* active, const WalkShare* share) {
    const std::size_t bytes = (std::size_t(groups) + kSelectedScalars) * sizeof(uint32_t);
    if (walk_list.bytes() < bytes)
        walk_list = kernels::DeviceBuffer::alloc(device, std::max(bytes, (n / 8 + 4) * sizeof(uint32_t)),
                                                 "tree walk list");
    uint32_t* scalars = walk_list.as<uint32_t>() + groups;
    // Page-locked both ways, in two places: the start is read by the copy when the stream gets to it, which the
    // wait below sees done before the words are written again.
    static_assert(2 * kSelectedScalars <= kHostWords, "the selection's scalars fit the read-back words");
    uint32_t* start = host_words.get();
    uint32_t* out = start + kSelectedScalars;
    start[kSelectedCount] = 0u, start[kRunBegin] = uint32_t(n), start[kRunEnd] = uint32_t(n), start[kHolding] = 0u;
    NBODY_CUDA_CHECK(cudaMemcpyAsync(scalars, start, kSelectedScalars * sizeof(uint32_t), cudaMemcpyHostToDevice,
                                     stream));
    const uint32_t share_begin = share ? uint32_t(std::min(share->begin, n)) : 0u;
    const uint32_t share_end = share ? uint32_t(std::min(share->end, n)) : uint32_t(n);
    if (groups > 0) {
        select_groups_kernel<<<grid_for(groups, 256), 256, 0, stream>>>(
            group_list.as<const tree::TreeGroup>(), uint32_t(groups), sorted.order(), active, share_begin,
            share_end, walk_list.as<uint32_t>(), scalars);
        NBODY_CUDA_CHECK_LAUNCH("select_groups_kernel");
    }
    NBODY_CUDA_CHECK(cudaMemcpyAsync(out, scalars, kSelectedScalars * sizeof(uint32_t), cudaMemcpyDeviceToHost,
                                     stream));
    NBODY_CUDA_CHECK(cudaStreamSynchronize(stream));
    run = share ? KeyRun{out[kRunBegin], out[kRunEnd]} : KeyRun{0, n};
    return {out[kSelectedCount], out[kHolding]};
}

std::vector<uint32_t> GpuTree::group_cell_counts() const {
    std::vector<uint32_t> out(m->groups);
    if (m->groups)
        NBODY_CUDA_CHECK(cudaMemcpy(out.data(), m->group_counts.get(), m->groups * 4, cudaMemcpyDeviceToHost));
    return out;
}

std::vector<uint32_t> GpuTree::group_body_counts() const {
    std::vector<uint32_t> out(m->groups);
    if (m->groups)
        NBODY_CUDA_CHECK(cudaMemcpy(out.data(), m->group_counts.as<uint32_t>() + m->groups, m->groups * 4,
                                    cudaMemcpyDeviceToHost));
    return out;
}

}  // namespace nbody
