#pragma once
// The CUDA kernel's variant and shape, kept in core so SimParams, the command line, the UI and the
// benchmark all edit the same thing without seeing CUDA.
#include <array>
#include <cstddef>
#include <vector>
#include <optional>
#include <string>
#include <string_view>

namespace nbody {

// The RV770 paper's Figures 2-4, in CUDA.
enum class KernelVariant {
    None,        // one i-body per thread, j loop not unrolled
    IUnrolled,   // k i-bodies per thread: one shared-memory load serves k interactions
    IJUnrolled,  // k i-bodies x u j-bodies per inner iteration
    Tensor,      // tensor cores (mma.sync m16n8k8 TF32, split operands) on Morton-sorted bodies; fp32 only
    Pairs,       // Newton's third law: each pair once, its force added to both bodies; fp32 only
};

struct KernelShape {
    int k = 4;       // i-bodies per thread (1 for None; 2, 4, 8 otherwise)
    int u = 4;       // j-bodies per inner iteration (IJUnrolled: 2, 4, 8; 1 otherwise)
    int block = 256; // threads per block, 64 to 1024, a multiple of 32
    int q = 0;       // threads sharing one i-group's j range (j-split in a warp); 0 = chosen from N and the SMs
    int s = 1;       // blocks sharing one i-group's j range (j-split over blocks, partial sums reduced by the last
                     // block to finish); 1 = none, 0 = chosen from N and the SMs (then q is 1 unless given)
};

// Field by field (written out: the CUDA files compile as C++17, without defaulted comparisons).
inline bool operator==(const KernelShape& a, const KernelShape& b) {
    return a.k == b.k && a.u == b.u && a.block == b.block && a.q == b.q && a.s == b.s;
}
inline bool operator!=(const KernelShape& a, const KernelShape& b) { return !(a == b); }

// Names, labels, shape checks and launch plans by family are core/kernels/kernel_family.hpp: they read the rows.
// The families' own shape rules (the descriptor rows point at them).
void validate_tensor_shape(const KernelShape& s);
void validate_pairs_shape(const KernelShape& s);

// The tensor family: each warp takes 16 i-bodies, so a block of `block` threads takes block / 2 (the i-bodies
// that share one centre, which bounds the kernel's rounding: at most kTensorMaxBlock threads).
inline constexpr int kTensorIPerWarp = 16;
inline constexpr int kTensorMaxBlock = 256;

// The pairs family (cuda/pairs/pairs_kernel.cuh): a block of w warps takes a square tile of the pair matrix. q (1, 2 or
// 4, dividing w; 0 = 1) warps share each set of 32 k i-bodies and split the tile's j-groups between them (more warps
// a tile at small N), so a strip is w / q x 32 k bodies on each side. The block keeps each i-set's sums on the tile's
// j-bodies in shared memory, and the i-sums of the q - 1 other warps of a set until they are added: pairs_shared_bytes,
// 384 k v (v + q - 1) bytes with v = w / q i-sets. At most kPairsMaxShared of it, so two blocks fit an SM.
// The triangle's tiles run in bands of D diagonals (tiles (r, r + d), d0 <= d < d0 + D), one launch a band: in a
// band every body gets at most S = min(2 D, T + 1) partial sums (float4: two a diagonal, as the row's strip and as
// the column's; T in all), and a finish kernel adds them in diagonal order to the running sum of their group
// (pairs_groups below) and finished groups to the running total, so the sum's order is fixed whatever order the
// blocks ran in. One band holds all T diagonals up to N = 131,072 with strips of 1,024 (131 arrays of 2 MB). Past
// kPairsBandBytes of slots the bands alternate between two buffers of S slots in those bytes where each still holds
// kPairsOverlapMinBand diagonals: band b + 1's tiles (on a second stream) fill the SMs that band b's last, partly
// empty wave and its finish leave idle, the finishes still in band order. Narrower bands stay in one buffer: every
// finish passes over all N bodies whatever the band's width, so more, narrower bands cost more than the overlap
// gains (docs/bench/performance-log.md, pairs' bands over two buffers). The scratch is
// (buffers x S + 2) x T x strip x 16 bytes, O(N): at 1,048,576 D = 8 in two buffers, 128 bands (2 x 16 + 2
// arrays of 16.8 MB: 570 MB); at 4,194,304 D = 4 in one (8 + 2 of 67 MB: 671 MB). The CUDA backend still caps it
// at a kPairsScratchShare-th of the GPU's memory.
inline constexpr int kPairsMaxBlock = 256;
inline constexpr int kPairsMaxShared = 99 * 1024;
inline constexpr int kPairsMaxStrip = kPairsMaxBlock * 8;  // the padding every position buffer carries
inline constexpr long long kPairsScratchShare = 4;
inline constexpr long long kPairsBandBytes = 512LL << 20;
inline constexpr long long kPairsOverlapMinBand = 8;
struct PairsBands {
    long long band;     // D: diagonals a launch takes, 1 to T
    // of S slots each, band b in buffer b mod buffers (launch_pairs, cuda/pairs/kernel_table_pairs.cu)
    long long buffers;
};
PairsBands pairs_bands(long long strips, long long strip);  // T strips of `strip` bodies
long long pairs_band(std::size_t n, const KernelShape& s);  // pairs_bands(...).band for n bodies
// Partial sums a body may get in one band: two a diagonal, and never more than T + 1 (each body has T in all).
long long pairs_band_slots(long long band, long long strips);
long long pairs_strip(const KernelShape& s);  // bodies per strip: block / q x k
long long pairs_strips(std::size_t n, const KernelShape& s);
long long pairs_shared_bytes(const KernelShape& s);
long long pairs_scratch_bytes(std::size_t n, const KernelShape& s);
// On several GPU parts each part takes whole groups of diagonals: pairs_groups(T) groups with equal tile counts
// (diagonal d holds T - d tiles), a function of T only, not of the part count, so each group's partial sum on a body
// is the same whoever computes it. A body's force adds its groups' sums in group order, on one part as on several
// (which makes any part count bit-identical to one part); a group longer than a band is summed over its bands first.
// Each group costs one part's finish a pass over memory, which a step of 30 us at N = 7,500 feels (12 groups there
// cost 12%): a group holds kPairsGroupDiagonals diagonals or more on average, up to kPairsMaxGroups groups (12: two,
// three, four and six parts take equal shares).
inline constexpr int kPairsMaxGroups = 12;
inline constexpr long long kPairsGroupDiagonals = 16;
int pairs_groups(long long strips);  // 1 up to T = 31, 12 from T = 192
// The groups' first diagonals and T: pairs_groups(T) + 1 values from 0 up to T, increasing. Group g ends where the
// tiles before it first reach ceil(g x T (T + 1) / 2 / G).
std::vector<long long> pairs_group_ends(long long strips);
// Which of `groups` groups part `part` of `parts` takes: [first, last), groups x part / parts rounded down on both
// sides (a part may take none where parts > groups).
void pairs_part_groups(int part, int parts, int groups, int& first, int& last);

// How one step launches: the shape with q and s resolved and the grid size.
struct LaunchPlan {
    int k = 1, u = 1, block = 256, q = 1;
    int splits = 1;        // s: blocks per i-group, each summing a contiguous chunk of the j range
    long long chunk = 0;   // j-bodies per split (the last split takes what is left)
    int tile = 256;        // j-bodies per shared-memory tile: block x a factor giving each slice ~128; 0: no
                           // tiles, the j-bodies read from global memory (fp32 with q >= kStreamFromQ)
    long long blocks = 0;  // i-groups: ceil(n_i / (block / q * k)); the grid is blocks x splits
                           // (pairs: the tiles T (T + 1) / 2 of the upper triangle, tile = the strip, chunk = T)
    bool alt = false;      // the kernel entry's other instance: tile-free (fp32 step kernels, tile 0) or the pairs
                           // family's j-split over warps (q > 1)
    long long shared_bytes = 0;   // dynamic shared memory a block takes (0 for tensor: its launcher sizes its own)
    long long partial_bytes = 0;  // scratch for partial sums: the j-split over blocks, or the pairs family's slots
    int band = 0;                 // pairs: diagonals of the triangle a launch takes (pairs_band)
};

// From this q on, fp32 kernels read their j-bodies straight from global memory (through L1) instead of from
// shared-memory tiles (LaunchPlan::tile = 0; step_kernel.cuh, stream_sweep): at many slices a lane the tiles'
// barrier every 32 bodies a slice costs more than an L1 broadcast; at few, a shared-memory broadcast is cheaper.
// And only where each slice reads at least kStreamMinPerSlice bodies (n_j >= 128 q): below that the first
// loads of each slice have nothing to hide behind (docs/bench/performance-log.md, the tile-free fp32 loop).
inline constexpr int kStreamFromQ = 16;
inline constexpr int kStreamMinPerSlice = 128;

// The largest j-split over blocks the planner chooses or accepts, and the fewest j-bodies a split may get.
inline constexpr int kMaxSplits = 64;
inline constexpr long long kMinSplitChunk = 256;


// What the planner knows of one launch: n i-bodies updated, nj bodies exerting force, `target` threads for one
// full wave (SMs x what one SM holds of this kernel), `body_bytes` of shared memory per j-body.
struct PlanInput {
    std::size_t n = 0;
    long long nj = 0;
    long long target = 0;
    int body_bytes = 16;
};

// The families' planners (the descriptor rows point at them; plan_launch validates and calls the row's):
// the CUDA-core step kernels, the tensor family and the pairs family. `n`, `nj`, `target` and `body_bytes` as
// plan_launch's, nj resolved.
LaunchPlan plan_cuda_cores(const KernelShape& shape, const PlanInput& in);
LaunchPlan plan_tensor(const KernelShape& shape, const PlanInput& in);
LaunchPlan plan_pairs(const KernelShape& shape, const PlanInput& in);

}  // namespace nbody
