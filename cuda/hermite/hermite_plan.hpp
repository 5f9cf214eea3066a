#pragma once
// How the Hermite force kernel spreads an active list over its fixed grid: plain C++, shared by the kernel
// (which plans each block step on the device from the active count it just computed, without telling the
// host), the engine (labels, scratch sizes) and the tests.
#ifdef __CUDACC__
#define NBODY_PLAN_HD __host__ __device__
#else
#define NBODY_PLAN_HD
#endif

namespace nbody::kernels {

// ni active i-bodies against n j-bodies on `grid` blocks of `block` threads: q threads per i-body (a
// j-split in the warp, reduced with shuffles), lanes = block / q i-bodies per block, groups of lanes, and
// the j range cut into `splits` chunks of `chunk` bodies, one block per (group, split) item. A few active
// bodies get up to 32 threads each and many splits; all N bodies one thread each and no split.
// Many active bodies (q = 1) get k i-bodies per thread (k <= max_k, a power of two; lanes = k x block),
// so each j-body read from shared memory serves k interactions; k doubles only while the active bodies
// fill 128 groups of 2k x block lanes: fewer, longer groups need many j-splits and their reduction to fill the
// GPU, which costs more than k saves; 128 groups keeps k = 1 up to 32,767 active bodies
// (docs/bench/performance-log.md, Hermite with k i-bodies per thread).
inline constexpr int kMinGroupsForK = 128;
inline constexpr int kPlanCandidates = 16;
inline constexpr int kG6MinGroupsForK = 64;  // split counts force_plan compares, at most
struct ForcePlan {
    int q, k, lanes, groups, splits, chunk;
};

// min_groups: kMinGroupsForK for the engine; the GRAPE-6 library, whose batches (up to npipes) sweep every body,
// passes its own (kG6MinGroupsForK).
NBODY_PLAN_HD inline ForcePlan force_plan(int ni, int n, int block, int grid, int max_k = 1,
                                          int min_groups = kMinGroupsForK) {
    ForcePlan p{};
    p.q = 1;
    while (p.q < 32 && ni * p.q * 2 <= block) p.q *= 2;  // at most 32 threads per body, no lane left idle
    p.k = 1;
    while (p.q == 1 && p.k * 2 <= max_k && ni >= p.k * 2 * block * min_groups) p.k *= 2;
    p.lanes = block * p.k / p.q;
    p.groups = ni > 0 ? (ni + p.lanes - 1) / p.lanes : 0;
    // Enough splits to give every block of the grid an item, down to one tile of j-bodies per split (a
    // block step of 100 active bodies out of 65,536 is 512 splits of 128: 512 blocks where one split
    // would have one; the corrector then sums 512 partial records per body, 32 KiB, from L2).
    const int by_grid = p.groups > 0 ? grid / p.groups : 1;
    const int by_n = (n + block - 1) / block;
    const int least = by_grid > 1 ? by_grid : 1;
    // Then, up to 4x more, the count whose items fill their waves best: all 131,072 bodies at k = 4 are
    // 256 groups, which on a 660-block grid fill 78% of one wave with 2 splits and 97% of two with 5. A
    // gain under 2% is not worth the extra partial sums.
    // Whole tiles per split (a ragged last tile per split would cost a pair of barriers for a few bodies),
    // so s wanted splits become ceil(n / chunk) of them.
    // At most kPlanCandidates counts, evenly spaced: every thread of the force and corrector kernels runs this
    // loop, and with few groups (least in the hundreds) trying every count costs more than the forces
    // (docs/bench/performance-log.md, the Hermite force plan). There a wave is full anyway.
    p.chunk = ((n + least - 1) / least + block - 1) / block * block;
    const int most = 4 * least < by_n ? 4 * least : by_n;
    const int stride = most > least ? (most - least + kPlanCandidates - 2) / (kPlanCandidates - 1) : 1;
    double best = -1;
    for (int s = least; s <= most; s += stride) {
        const int chunk = ((n + s - 1) / s + block - 1) / block * block;
        const long long items = static_cast<long long>(p.groups) * ((n + chunk - 1) / chunk);
        const double fill =
            static_cast<double>(items) / static_cast<double>((items + grid - 1) / grid * grid);
        if (fill > best + 0.02) p.chunk = chunk, best = fill;
    }
    p.splits = (n + p.chunk - 1) / p.chunk;
    return p;
}

// The partial-sum records (splits x ni) the force kernel may write for any ni <= n: splits <= 4 x
// max(1, grid / groups), so splits x ni <= 4 ni <= 4 n, or splits x groups <= 4 grid and splits x ni <=
// 4 grid x lanes <= 4 grid x block x k.
inline long long force_partial_records(int n, int block, int grid, int max_k = 1) {
    const long long wave = static_cast<long long>(block) * grid * max_k;
    return 4 * (n > wave ? n : wave);
}

}  // namespace nbody::kernels
