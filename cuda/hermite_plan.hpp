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
struct ForcePlan {
    int q, lanes, groups, splits, chunk;
};

NBODY_PLAN_HD inline ForcePlan force_plan(int ni, int n, int block, int grid) {
    ForcePlan p{};
    p.q = 1;
    while (p.q < 32 && ni * p.q * 2 <= block) p.q *= 2;  // at most 32 threads per body, no lane left idle
    p.lanes = block / p.q;
    p.groups = ni > 0 ? (ni + p.lanes - 1) / p.lanes : 0;
    // Enough splits to give every block of the grid an item, down to one tile of j-bodies per split (a
    // block step of 100 active bodies out of 65,536 is 512 splits of 128: 512 blocks where one split
    // would have one; the corrector then sums 512 partial records per body, 32 KiB, from L2).
    const int by_grid = p.groups > 0 ? grid / p.groups : 1;
    const int by_n = (n + block - 1) / block;
    p.splits = by_grid < by_n ? by_grid : by_n;
    if (p.splits < 1) p.splits = 1;
    // Whole tiles per split (a ragged last tile per split would cost a pair of barriers for a few bodies).
    p.chunk = ((n + p.splits - 1) / p.splits + block - 1) / block * block;
    p.splits = (n + p.chunk - 1) / p.chunk;
    return p;
}

// The partial-sum records (splits x ni) the force kernel may write for any ni <= n: with one split that
// is ni <= n; with several, splits x groups <= grid, so splits x ni <= grid x lanes <= grid x block.
inline long long force_partial_records(int n, int block, int grid) {
    const long long wave = static_cast<long long>(block) * grid;
    return n > wave ? n : wave;
}

}  // namespace nbody::kernels
