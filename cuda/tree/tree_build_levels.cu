// The GPU octree, every level at once (core/tree/tree_shape.hpp): each body finds the levels of the cells
// that start at it from its neighbours' keys, so the build needs one host synchronisation (the cell count, to
// size the cell arrays and for the host's level starts) where building level by level needed one a level,
// and it makes CpuTree::build's cells byte for byte. On the key-sorted bodies:
//   count: per block of kBlockBodies bodies, the cells of each level starting in it, as a level-major table
//     (row L, one column a block) with a last row of zeros;
//   a CUB exclusive scan of the table: each (level, block)'s first cell, so row L's first entry is level L's
//     first cell and the zero row's is the total; the host reads those kRows numbers and waits for them;
//   write: each body writes its cells at their (level, block) start plus their rank in the block (ballots),
//     so each level is in body order; a split cell's first child is the next level's cell at the same body;
//   link: each cell its body count and child count from its neighbours in the array (tree::link_cell), and
//     its children their parent (for the multipoles, tree_multipoles.cu).
// Five kernels (two of them the scan's) and one copy back: one host synchronisation for the whole tree instead
// of one a level; the count and write passes are bound by instruction issue (docs/bench/performance-log.md, the
// one-pass octree).
#include <algorithm>
#include <cstdint>
#include <string>

#include "common/warp_reduce.cuh"
#include "core/tree/tree_shape.hpp"
#include "tree/gpu_tree_impl.cuh"

namespace nbody {

namespace {

constexpr int kBlockBodies = 256;
constexpr int kWarps = kBlockBodies / 32;
constexpr int kLevels = tree::kMaxLevel + 1;  // levels 0 .. kMaxLevel
constexpr int kRows = kLevels + 1;            // and the zero row, whose scanned first entry is the total
constexpr int kMaxLeaf = 64;                  // TreeParams::validate's bound: how far a body's windows reach
constexpr int kLinkThreads = 256;

// The levels of the cells starting at this thread's body (none past n). Each window's level is computed once,
// into shared memory: the windows that hold this block's bodies are the ones ending at bodies
// b0 .. b0 + kBlockBodies - 1 + leaf, window[t] the one ending at b0 + t.
__device__ tree::BodyLevels block_body_levels(const uint64_t* keys, uint32_t n, int leaf, uint8_t* window) {
    const uint32_t b0 = blockIdx.x * kBlockBodies, l = static_cast<uint32_t>(leaf);
    for (uint32_t t = threadIdx.x; t < kBlockBodies + l; t += kBlockBodies) {
        const uint32_t last = b0 + t;
        window[t] =
            last >= l && last < n ? static_cast<uint8_t>(tree::window_level(keys, last - l, leaf)) : 0;
    }
    __syncthreads();
    const uint32_t i = b0 + threadIdx.x;
    if (i >= n) return {1, 0};
    const int split =
        tree::split_level([&](uint32_t j) { return static_cast<int>(window[j + l - b0]); }, i, n, leaf);
    return tree::body_levels(tree::first_level(keys, i), split);
}

// kWrite false: counts[L * blocks + block] = the cells of level L starting in this block (0 in row kLevels).
// kWrite true: writes those cells, offsets being the scanned counts. Both passes compute the same levels.
template <bool kWrite>
__global__ void __launch_bounds__(kBlockBodies)
    tree_level_cells_kernel(const uint64_t* keys, uint32_t n, int leaf, uint32_t* counts,
                            const uint32_t* offsets, tree::TreeCell* cells) {
    __shared__ uint8_t window[kBlockBodies + kMaxLeaf];
    // Per warp and level: the lanes whose body starts a cell there, and the first of those cells.
    __shared__ uint32_t mask[kWarps][kLevels], base[kWarps][kLevels];
    const tree::BodyLevels lv = block_body_levels(keys, n, leaf, window);
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    // Ballots only over the levels where this warp's bodies start cells (a few of the 22); lane l keeps
    // level l's.
    const bool some = lv.count() > 0;
    const int first = kernels::warp_min(some ? lv.lo : kLevels);
    const int last = kernels::warp_max(some ? lv.hi : -1);
    uint32_t lanes = 0;
    for (int l = first; l <= last; ++l) {
        const uint32_t m = __ballot_sync(0xffffffffu, lv.lo <= l && l <= lv.hi);
        if (lane == l) lanes = m;
    }
    if (lane < kLevels) mask[warp][lane] = lanes;
    __syncthreads();
    const std::size_t blocks = gridDim.x;
    if (threadIdx.x < kRows) {
        const int l = threadIdx.x;
        uint32_t at = kWrite && l < kLevels ? offsets[std::size_t(l) * blocks + blockIdx.x] : 0;
        for (int w = 0; l < kLevels && w < kWarps; ++w) {
            base[w][l] = at;
            at += __popc(mask[w][l]);
        }
        if (!kWrite) counts[std::size_t(l) * blocks + blockIdx.x] = at;
    }
    if (!kWrite) return;
    __syncthreads();
    const uint32_t i = blockIdx.x * kBlockBodies + threadIdx.x, below = (1u << lane) - 1;
    uint32_t child = 0;
    for (int l = lv.hi; l >= lv.lo; --l) {  // deepest first: a split cell's first child is the one before
        const uint32_t at = base[warp][l] + __popc(mask[warp][l] & below);
        cells[at] = tree::start_cell(keys[i], i, l, l < lv.hi ? child : 0);
        child = at;
    }
}

// Links each cell, names it its children's parent and clears its arrival count (the multipoles climb by both).
__global__ void tree_link_kernel(tree::TreeCell* cells, uint32_t total, const uint64_t* keys, uint32_t n,
                                 uint32_t* parent, uint32_t* arrived) {
    const std::size_t c = std::size_t(blockIdx.x) * kLinkThreads + threadIdx.x;  // total may near 2^32
    if (c >= total) return;
    tree::link_cell(cells, static_cast<uint32_t>(c), total, keys, n);
    arrived[c] = 0;
    const tree::TreeCell cell = cells[c];
    for (uint32_t k = 0; k < cell.n_children; ++k) parent[cell.first_child + k] = static_cast<uint32_t>(c);
}

}  // namespace

void GpuTree::Impl::build_levels(int leaf) {
    cells = 0;
    level_start.assign(2, 0);  // no bodies: an empty level 0
    if (n == 0) return;
    if (leaf < 1 || leaf > kMaxLeaf)
        throw BackendError("tree build: leaf " + std::to_string(leaf) + " outside 1.." +
                           std::to_string(kMaxLeaf));
    const uint32_t bodies = static_cast<uint32_t>(n),
                   blocks = static_cast<uint32_t>(grid_for(n, kBlockBodies));
    const std::size_t table = std::size_t(kRows) * blocks;  // about 0.1 entries a body
    if (level_counts.bytes() < table * sizeof(uint32_t))
        for (auto* v : {&level_counts, &level_offsets})
            *v = kernels::DeviceBuffer::alloc(device, table * sizeof(uint32_t), "tree level counts");
    const uint64_t* k = sorted.keys();
    tree_level_cells_kernel<false>
        <<<blocks, kBlockBodies, 0, stream>>>(k, bodies, leaf, level_counts.as<uint32_t>(), nullptr, nullptr);
    NBODY_CUDA_CHECK_LAUNCH("tree_level_cells_kernel<count>");
    exclusive_sum(level_counts.as<const uint32_t>(), level_offsets.as<uint32_t>(), table);
    static_assert(kRows <= int(kHostWords), "the level starts fit the read-back words");
    uint32_t* starts = host_words.get();  // the first entry of each row: each level's first cell, then the total
    NBODY_CUDA_CHECK(cudaMemcpy2DAsync(starts, sizeof(uint32_t), level_offsets.get(),
                                       blocks * sizeof(uint32_t), sizeof(uint32_t), kRows,
                                       cudaMemcpyDeviceToHost, stream));
    NBODY_CUDA_CHECK(cudaStreamSynchronize(stream));  // the build's one synchronisation
    // A level holds at most n cells, so each difference is exact even where the 32-bit scan wrapped.
    uint64_t total = 0;
    for (int l = 0; l < kLevels; ++l) total += uint32_t(starts[l + 1] - starts[l]);
    if (total > UINT32_MAX)
        throw BackendError("tree build: " + std::to_string(total) + " cells for " + std::to_string(n) +
                           " bodies exceed 32-bit cell indices");
    // At least n / 4 cells, as before (a Plummer sphere makes 0.23 a body at leaf 16, 0.13 at 32), and 1/16 above the
    // count, so a count that creeps up from step to step does not double the arrays (reserve_cells doubles).
    reserve_cells(std::max<std::size_t>({64, n / 4, std::size_t(total + total / 16)}));
    tree_level_cells_kernel<true><<<blocks, kBlockBodies, 0, stream>>>(
        k, bodies, leaf, nullptr, level_offsets.as<const uint32_t>(), tree_cells.as<tree::TreeCell>());
    NBODY_CUDA_CHECK_LAUNCH("tree_level_cells_kernel<write>");
    const uint32_t count = static_cast<uint32_t>(total);
    tree_link_kernel<<<grid_for(count, kLinkThreads), kLinkThreads, 0, stream>>>(
        tree_cells.as<tree::TreeCell>(), count, k, bodies, cell_parent.as<uint32_t>(),
        cell_arrivals.as<uint32_t>());
    NBODY_CUDA_CHECK_LAUNCH("tree_link_kernel");
    cells = count;
    level_start.assign(starts, starts + tree::tree_depth(starts) + 1);
    level_start.push_back(count);
}

}  // namespace nbody
