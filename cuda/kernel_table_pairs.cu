// The pairs family's instances (pairs_kernel.cuh), each launched with its finish kernel.
#include <algorithm>
#include <array>

#include "cuda_check.cuh"
#include "kernel_table.cuh"
#include "pairs_kernel.cuh"

namespace nbody::kernels {

// kPairsFinishLanes threads a body, each adding every kPairsFinishLanes-th of its partial sums of a group in the
// band, then a butterfly of shuffles: a fixed order that depends on the group and the band only, not on which part
// computes it or which other groups share the launch. One thread a body left most SMs idle below N = 20,000 (40 blocks
// of 256 at 10,000) and each thread with T dependent trips to L2: on the H200 the finish took 8.7 us of a 64 us step
// at N = 10,000 (docs/performance.md). Each group is a pass over memory (a loop, then its butterfly), which is why
// the groups hold kPairsGroupDiagonals diagonals or more (core/kernel_config.hpp). Lane 0 then adds the group onto
// its bands before, onto the groups before (one part; in registers through the launch) or sends it out (several
// parts), and after the last group does the update.
__global__ void pairs_finish_kernel(StepArgs a) {
    const long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    const int i = static_cast<int>(t / kPairsFinishLanes), lane = static_cast<int>(t % kPairsFinishLanes);
    const bool live = i < a.n;  // the lanes of a body past N still join the shuffles (full-warp masks)
    const PairsView p(a);
    const long long slot = p.slot_elems();
    float4* group_run = p.group_running();
    float4* total_run = p.total_running();
    const int x = live ? i / p.strip : 0, d0 = p.band_begin, d1 = p.band_end;
    // The body's diagonals: as the row's strip d < T - x (tile (x, x + d), slot d - d0), as the column's 1 <= d <= x
    // (tile (x - d, x), slot S - 1 - (d - d0)). Bounds are the same for a warp's bodies (one strip).
    const int row_end = live ? p.strips - x : 0, col_end = live ? x + 1 : 0;
    bool have_total = false, updated = false;
    float tx = 0.f, ty = 0.f, tz = 0.f;
    for (int g = a.group_first; g < a.group_last; ++g) {
        const int e0 = a.group_ends[g], e1 = a.group_ends[g + 1], s0 = max(d0, e0), s1 = min(d1, e1);
        if (s0 >= s1) continue;  // the band does not meet this group
        const int rows = max(0, min(s1, row_end) - s0), c0 = max(s0, 1), cols = max(0, min(s1, col_end) - c0);
        float sx = 0.f, sy = 0.f, sz = 0.f;
#pragma unroll 4
        for (int k = lane; k < rows + cols; k += kPairsFinishLanes) {
            const int s = k < rows ? s0 + k - d0 : p.slots - 1 - (c0 + (k - rows) - d0);
            const float4 v = p.partial[static_cast<long long>(s) * slot + i];
            sx += v.x, sy += v.y, sz += v.z;
        }
#pragma unroll
        for (int off = 1; off < kPairsFinishLanes; off <<= 1) {
            sx += __shfl_xor_sync(0xffffffffu, sx, off);
            sy += __shfl_xor_sync(0xffffffffu, sy, off);
            sz += __shfl_xor_sync(0xffffffffu, sz, off);
        }
        if (!live || lane != 0) continue;
        if (s0 > e0) {  // the group's bands before this one
            const float4 v = group_run[i];
            sx = v.x + sx, sy = v.y + sy, sz = v.z + sz;
        }
        if (s1 < e1) {  // the group goes on in the next band
            group_run[i] = make_float4(sx, sy, sz, 0.f);
            continue;
        }
        if (a.group_out) {  // several parts: the group's sum goes to the body's owner (pairs_combine_kernel)
            a.group_out[static_cast<long long>(g - a.group_first) * slot + i] = make_float4(sx, sy, sz, 0.f);
            continue;
        }
        if (g > 0) {  // one part: onto the groups before, in group order
            if (!have_total) {
                const float4 v = total_run[i];
                tx = v.x, ty = v.y, tz = v.z;
            }
            sx = tx + sx, sy = ty + sy, sz = tz + sz;
        }
        tx = sx, ty = sy, tz = sz, have_total = true;
        if (e1 == p.strips) leapfrog_update<Fp32>(a, i, tx, ty, tz), updated = true;
    }
    if (live && lane == 0 && have_total && !updated) total_run[i] = make_float4(tx, ty, tz, 0.f);
}

__global__ void pairs_combine_kernel(StepArgs a, const float4* received) {
    const int i = a.i_begin + static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= a.i_end) return;
    const long long own = a.i_end - a.i_begin, slot = static_cast<long long>(a.chunk) * a.tile;
    float sx = 0.f, sy = 0.f, sz = 0.f;
    for (int g = 0; g < a.groups; ++g) {
        const float4 v = g >= a.group_first && g < a.group_last
                             ? a.group_out[static_cast<long long>(g - a.group_first) * slot + i]
                             : received[static_cast<long long>(g) * own + (i - a.i_begin)];
        if (g == 0)
            sx = v.x, sy = v.y, sz = v.z;
        else
            sx = sx + v.x, sy = sy + v.y, sz = sz + v.z;
    }
    leapfrog_update<Fp32>(a, i, sx, sy, sz);
}

namespace {
// One step (or, on several parts, this part's groups of it): band by band, the band's tiles, then each body's slots
// into its group's and the total's running sums (pairs_finish_kernel; after the last group the leap-frog update).
// `a` comes from the plan (tile = the strip, chunk = the strips, band, partial = its scratch, q, the groups),
// `smem` is LaunchPlan::shared_bytes; the grid is each band's tile count (the plan's is all of them). Bands start
// on multiples of the plan's band whatever the part, so a group is cut into the same bands on one part as on several.
template <int K, int U, bool SPLIT>
void launch_pairs(dim3, dim3 block, size_t smem, cudaStream_t stream, const StepArgs& a, const FamilyScratch*) {
    const long long t = a.chunk, band = a.band > 0 ? a.band : t;
    const long long first = a.group_ends[a.group_first], last = a.group_ends[a.group_last];
    for (long long d0 = first; d0 < last;) {
        const long long d1 = std::min(last, (d0 / band + 1) * band);
        const long long tiles = (d1 - d0) * t - (d0 + d1 - 1) * (d1 - d0) / 2;
        StepArgs b = a;
        b.band_begin = static_cast<int>(d0);
        b.band_end = static_cast<int>(d1);
        pairs_kernel<K, U, SPLIT><<<static_cast<unsigned>(tiles), block, smem, stream>>>(b);
        NBODY_CUDA_CHECK_LAUNCH("pairs_kernel");
        pairs_finish_kernel<<<static_cast<unsigned>((a.n * kPairsFinishLanes + kPairsFinishBlock - 1) / kPairsFinishBlock),
                              kPairsFinishBlock, 0, stream>>>(b);
        NBODY_CUDA_CHECK_LAUNCH("pairs_finish_kernel");
        d0 = d1;
    }
}

template <int K, int U>
KernelEntry pairs_entry() {
    KernelEntry e{Precision::Fp32, KernelVariant::Pairs, K, U, reinterpret_cast<const void*>(&pairs_kernel<K, U, false>),
                  &launch_pairs<K, U, false>, 16};
    e.alt_function = reinterpret_cast<const void*>(&pairs_kernel<K, U, true>);  // q > 1
    e.alt_launch = &launch_pairs<K, U, true>;
    return e;
}
}  // namespace

void prepare_pairs(const KernelEntry& e) {
    // Shapes past 48 KiB of sums (k 8 in blocks of 160, k 4 in 256) need the opt-in, for both instances.
    for (const void* f : {e.function, e.alt_function})
        NBODY_CUDA_CHECK(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, kPairsMaxShared));
}

KernelList pairs_kernels(Precision p) {
    if (p != Precision::Fp32) return {nullptr, nullptr};
    static const std::array<KernelEntry, 8> table = {{pairs_entry<2, 1>(), pairs_entry<2, 2>(), pairs_entry<4, 1>(),
                                                      pairs_entry<4, 2>(), pairs_entry<4, 4>(), pairs_entry<8, 1>(),
                                                      pairs_entry<8, 2>(), pairs_entry<8, 4>()}};
    return {table.data(), table.data() + table.size()};
}

void launch_pairs_combine(const StepArgs& a, const float4* received, cudaStream_t stream) {
    constexpr int kBlock = 256;
    const int own = a.i_end - a.i_begin;
    if (own <= 0) return;
    pairs_combine_kernel<<<static_cast<unsigned>((own + kBlock - 1) / kBlock), kBlock, 0, stream>>>(a, received);
    NBODY_CUDA_CHECK_LAUNCH("pairs_combine_kernel");
}

long long scratch_cap(int device) {
    cudaDeviceProp prop{};
    NBODY_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    return static_cast<long long>(prop.totalGlobalMem) / kPairsScratchShare;
}

}  // namespace nbody::kernels
