#include "core/kernels/kernel_config.hpp"

#include <algorithm>
#include <string>

#include "core/errors.hpp"

namespace nbody {


void validate_pairs_shape(const KernelShape& s) {
    if (s.u > s.k)
        throw ParamError("u", "variant pairs needs u <= k (each warp's j-groups of 32 u bodies tile its strip) (got k " +
                                  std::to_string(s.k) + ", u " + std::to_string(s.u) + ")");
    if (s.block > kPairsMaxBlock)
        throw ParamError("block", "variant pairs allows a block of 64 to " + std::to_string(kPairsMaxBlock) +
                                      " threads (got " + std::to_string(s.block) + ")");
    const int warps = s.block / 32;
    if (s.q > 4 || (s.q > 1 && warps % s.q != 0))
        throw ParamError("q", "variant pairs splits the j range over q warps of a block: q must be 0, 1, 2 or 4 and "
                              "divide the block's " + std::to_string(warps) + " warps (got " + std::to_string(s.q) + ")");
    const long long shared = pairs_shared_bytes(s);
    if (shared > kPairsMaxShared)
        throw ParamError("block", "variant pairs keeps 384 x k x v x (v + q - 1) bytes of sums in shared memory (v = "
                                  "warps / q), at most " + std::to_string(kPairsMaxShared) + ": block " +
                                      std::to_string(s.block) + " with k " + std::to_string(s.k) + " and q " +
                                      std::to_string(std::max(1, s.q)) + " needs " + std::to_string(shared) +
                                      " (q 1: k 8 block <= 160, k 4 block <= 256)");
    if (s.s > 1)
        throw ParamError("s", "variant pairs has no j-split over blocks: s must be 0 or 1 (got " + std::to_string(s.s) +
                                  ")");
}

void validate_tensor_shape(const KernelShape& s) {
    if (s.block > kTensorMaxBlock)
        throw ParamError("block", "variant tensor allows a block of 64 to " +
                                      std::to_string(kTensorMaxBlock) +
                                      " threads (a multiple of 32; its i-bodies share one centre) (got " +
                                      std::to_string(s.block) + ")");
    if (s.q > 1)
        throw ParamError("q", "variant tensor has no j-split in a warp: q must be 0 (auto) or 1 (got " +
                                  std::to_string(s.q) + ")");
}


namespace {
long long blocks_for(std::size_t n, int block, int q, int k) {
    const long long per_block = static_cast<long long>(block / q) * k;
    return (static_cast<long long>(n) + per_block - 1) / per_block;
}

// Automatic s: the split count (1 to kMaxSplits) with the least predicted time, waves(s) x (nj / s + f): blocks x s
// work items dealt over `slots` resident blocks (whole waves), each summing nj / s j-bodies plus a fixed cost f
// per block (prologue, barriers, the partial sum and its reduction), taken as 1,024 j-bodies' worth (a guess
// the tune checks: it measures every shape with this s). More splits must promise 2% to be taken (each costs a
// partial sum per body, s x N x 16 bytes of scratch).
// The smallest power of two that merely reached one wave left the last wave half empty where the blocks are
// few and large: ij 8x8 at N = 100,000 (49 i-groups of 2,048 bodies, 2 blocks of 256 per SM) took s = 8, 392
// blocks on 264 slots (2 waves, the second half full); the model picks s = 5 (245 blocks, one wave 93% full).
// (Measured: docs/bench/performance-log.md, the automatic j-split.) A split keeps at least kMinSplitChunk j-bodies.
int wave_fill_splits(long long blocks, long long slots, long long nj) {
    int best_s = 1;
    double best = 0;
    for (int s = 1; s <= kMaxSplits; ++s) {
        if (s > 1 && nj / s < kMinSplitChunk) break;
        const long long waves = (blocks * s + slots - 1) / slots;
        const double t = static_cast<double>(waves) * (static_cast<double>(nj) / s + 4 * kMinSplitChunk);
        if (s == 1 || t < 0.98 * best) best = t, best_s = s;
    }
    return best_s;
}

// Automatic s of the tensor family: the split count (1 to 16) that fills whole waves best, fewer splits unless
// more fill 2% better. Not wave_fill_splits' time model: the tensor kernel gains from shorter j ranges beyond the
// wave fill (and its maximum force error falls with them), which that model does not describe
// (docs/bench/performance-log.md, the automatic j-split).
int tensor_splits(long long blocks, long long slots, long long nj) {
    int best_s = 1;
    double best = -1;
    for (int s = 1; s <= 16; ++s) {
        if (s > 1 && nj / s < kMinSplitChunk) break;
        const long long items = blocks * s;
        const double fill = static_cast<double>(items) / static_cast<double>((items + slots - 1) / slots * slots);
        if (fill > best + 0.02) best = fill, best_s = s;
    }
    return best_s;
}

}  // namespace

long long pairs_strip(const KernelShape& s) { return static_cast<long long>(s.block) / std::max(1, s.q) * s.k; }

long long pairs_strips(std::size_t n, const KernelShape& s) {
    const long long strip = pairs_strip(s);
    return (static_cast<long long>(n) + strip - 1) / strip;
}

PairsBands pairs_bands(long long strips, long long strip) {
    const long long t = std::max<long long>(1, strips), padded = std::max<long long>(1, t * strip);
    const long long fits = kPairsBandBytes / (32 * padded);  // diagonals one buffer of kPairsBandBytes holds
    if (fits >= t) return {t, 1};                              // one band
    if (fits >= 2 * kPairsOverlapMinBand) return {fits / 2, 2};  // two buffers in the same bytes
    return {std::max<long long>(1, fits), 1};
}

long long pairs_band(std::size_t n, const KernelShape& s) { return pairs_bands(pairs_strips(n, s), pairs_strip(s)).band; }

long long pairs_band_slots(long long band, long long strips) { return std::min(2 * band, strips + 1); }

long long pairs_scratch_bytes(std::size_t n, const KernelShape& s) {
    const long long t = pairs_strips(n, s);
    const PairsBands b = pairs_bands(t, pairs_strip(s));
    return (b.buffers * pairs_band_slots(b.band, t) + 2) * t * pairs_strip(s) * 16;  // + the two running sums
}

int pairs_groups(long long strips) {
    return static_cast<int>(std::clamp<long long>(strips / kPairsGroupDiagonals, 1, kPairsMaxGroups));
}

std::vector<long long> pairs_group_ends(long long strips) {
    const long long t = std::max<long long>(1, strips), total = t * (t + 1) / 2;
    const int groups = pairs_groups(t);
    std::vector<long long> ends(static_cast<std::size_t>(groups) + 1);
    long long d = 0, before = 0;  // tiles of diagonals 0 .. d - 1
    for (int g = 1; g < groups; ++g) {
        const long long target = (static_cast<long long>(g) * total + groups - 1) / groups;
        while (d < t && before < target) before += t - d, ++d;  // at most T steps over all groups
        ends[static_cast<std::size_t>(g)] = d;
    }
    ends[static_cast<std::size_t>(groups)] = t;
    return ends;
}

void pairs_part_groups(int part, int parts, int groups, int& first, int& last) {
    first = static_cast<int>(static_cast<long long>(groups) * part / parts);
    last = static_cast<int>(static_cast<long long>(groups) * (part + 1) / parts);
}

long long pairs_shared_bytes(const KernelShape& s) {
    const long long q = std::max(1, s.q), sets = s.block / 32 / q;
    return 12 * pairs_strip(s) * (sets + q - 1);
}


// The tensor family: block / 2 i-bodies per block (16 per warp), one j-body built into shared memory per
// thread and tile, and a chunk per split that is a whole number of 8-body j-groups.
LaunchPlan plan_tensor(const KernelShape& shape, const PlanInput& in) {
    const std::size_t n = in.n;
    const long long target = in.target, nj = in.nj;
    LaunchPlan p;
    p.k = 1, p.u = 1, p.q = 1, p.block = shape.block;
    p.blocks = blocks_for(n, shape.block / 32 * kTensorIPerWarp, 1, 1);
    p.splits = shape.s == 0 ? tensor_splits(p.blocks, std::max<long long>(1, target / p.block), nj) : shape.s;
    p.splits = static_cast<int>(std::clamp<long long>(p.splits, 1, std::max<long long>(1, (nj + 7) / 8)));
    p.chunk = ((nj + p.splits - 1) / p.splits + 7) / 8 * 8;
    p.tile = p.block;
    if (p.splits > 1) p.partial_bytes = static_cast<long long>(p.splits) * static_cast<long long>(n) * 16;
    return p;
}

// The upper triangle of strips x strips tiles of all n_j bodies (on several parts each takes its groups of it,
// whatever its own n).
LaunchPlan plan_pairs(const KernelShape& shape, const PlanInput& in) {
    LaunchPlan p;
    p.k = shape.k, p.u = shape.u, p.block = shape.block;
    const std::size_t all = static_cast<std::size_t>(in.nj);
    const long long t = pairs_strips(all, shape);
    p.q = std::max(1, shape.q), p.splits = 1, p.tile = static_cast<int>(pairs_strip(shape));
    p.chunk = t;
    p.blocks = t * (t + 1) / 2;  // all the bands' tiles; the launcher sizes each band's grid
    p.alt = p.q > 1;
    p.shared_bytes = pairs_shared_bytes(shape);
    p.band = static_cast<int>(pairs_band(all, shape));
    p.partial_bytes = pairs_scratch_bytes(all, shape);
    return p;
}

// The CUDA-core step kernels (none, i-unrolled, ij-unrolled), in every precision.
LaunchPlan plan_cuda_cores(const KernelShape& shape, const PlanInput& in) {
    const std::size_t n = in.n;
    const long long target = in.target, nj = in.nj;
    const int body_bytes = in.body_bytes;
    LaunchPlan p;
    p.k = shape.k, p.u = shape.u, p.block = shape.block, p.q = shape.q, p.splits = shape.s;
    // A given q is used as given: validate_shape keeps it a power of two up to 32 and the block a multiple of 32,
    // so it divides the block.
    if (shape.q == 0 && shape.s == 0) {
        p.q = 1;  // the split goes over blocks instead (below)
    } else if (shape.q == 0) {
        p.q = 1;
        for (int q = 1; q <= 32; q *= 2) {
            p.q = q;
            if (blocks_for(n, shape.block, q, shape.k) * shape.s * shape.block >= target) break;
        }
    }
    p.blocks = blocks_for(n, p.block, p.q, p.k);
    if (shape.s == 0) p.splits = wave_fill_splits(p.blocks, std::max<long long>(1, target / p.block), nj);
    p.splits = static_cast<int>(std::clamp<long long>(p.splits, 1, std::max<long long>(1, nj)));
    p.chunk = (nj + p.splits - 1) / p.splits;
    // Each slice reads tile / q bodies between two barriers: aim for 128, within 16 KiB of bodies per tile
    // buffer (2 x 16 KiB double-buffered, under the 48 KiB a block gets without opting in).
    // The tile is cut to a whole number of q x u bodies, so every slice's share unrolls evenly (blocks that are
    // not a power of two, such as 480, give tiles that are not a multiple of the block: the fetch loop allows it).
    const int max_tile = std::max(p.block, 16384 / std::max(body_bytes, 1));
    const int unit = p.q * p.u;
    p.tile = p.block * std::clamp(128 * p.q / p.block, 1, std::max(1, max_tile / p.block));
    p.tile = std::max(unit, p.tile / unit * unit);
    if (body_bytes == 16 && p.q >= kStreamFromQ && nj >= static_cast<long long>(kStreamMinPerSlice) * p.q)
        p.tile = 0;  // fp32 (16 bytes a body): no tiles
    p.alt = p.tile == 0;
    p.shared_bytes = 2LL * p.tile * body_bytes;  // two tile buffers
    if (p.splits > 1) p.partial_bytes = static_cast<long long>(p.splits) * static_cast<long long>(n) * body_bytes;
    return p;
}

}  // namespace nbody
