// The pairs family's instances (pairs_kernel.cuh), each launched with its finish kernel.
#include <algorithm>
#include <array>

#include "cuda_check.cuh"
#include "kernel_table.cuh"
#include "pairs_kernel.cuh"

namespace nbody::kernels {

// kPairsFinishLanes threads a body, each adding every kPairsFinishLanes-th of its partial sums, then a butterfly
// of shuffles: a fixed order. One thread a body left most SMs idle below N = 20,000 (40 blocks of 256 at 10,000)
// and each thread with T dependent trips to L2: on the H200 the finish took 8.7 us of a 64 us step at N = 10,000
// (docs/performance.md).
__global__ void pairs_finish_kernel(StepArgs a) {
    const long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    const int i = static_cast<int>(t / kPairsFinishLanes), lane = static_cast<int>(t % kPairsFinishLanes);
    const bool live = i < a.n;  // the lanes of a body past N still join the shuffles (full-warp masks)
    const PairsView p(a);
    const long long slot = static_cast<long long>(p.strips) * p.strip;
    float4* running = p.partial + static_cast<long long>(p.slots) * slot;
    const int x = live ? i / p.strip : 0, d1 = min(p.strips, p.band_begin + p.band);
    // As the row's strip (tiles (x, x + d), d < T - x: slots 0, 1, ... counting up), then as the column's ((x - d,
    // x), 1 <= d <= x: slots counting down from cols_top). Bounds are the same for a warp's bodies (one strip).
    const int rows = live ? max(0, min(d1, p.strips - x) - p.band_begin) : 0;
    const int cols_begin = max(p.band_begin, 1), cols = live ? max(0, min(d1, x + 1) - cols_begin) : 0;
    const int cols_top = p.slots - 1 - (cols_begin - p.band_begin);
    float sx = 0.f, sy = 0.f, sz = 0.f;
#pragma unroll 4
    for (int k = lane; k < rows + cols; k += kPairsFinishLanes) {
        const int s = k < rows ? k : cols_top - (k - rows);
        const float4 v = p.partial[static_cast<long long>(s) * slot + i];
        sx += v.x, sy += v.y, sz += v.z;
    }
#pragma unroll
    for (int off = 1; off < kPairsFinishLanes; off <<= 1) {
        sx += __shfl_xor_sync(0xffffffffu, sx, off);
        sy += __shfl_xor_sync(0xffffffffu, sy, off);
        sz += __shfl_xor_sync(0xffffffffu, sz, off);
    }
    if (!live || lane != 0) return;
    if (p.band_begin > 0) {  // the bands before this one
        const float4 v = running[i];
        sx = v.x + sx, sy = v.y + sy, sz = v.z + sz;
    }
    if (d1 < p.strips) {
        running[i] = make_float4(sx, sy, sz, 0.f);
        return;
    }
    leapfrog_update<Fp32>(a, i, sx, sy, sz);
}

namespace {
// One step: band by band, the band's tiles, then each body's slots into its running sum (the last band: the
// leap-frog update). `a` comes from the plan (tile = the strip, chunk = the strips, band, partial = its scratch,
// q), `smem` is LaunchPlan::shared_bytes; the grid is each band's tile count (the plan's is all of them).
template <int K, int U, bool SPLIT>
void launch_pairs(dim3, dim3 block, size_t smem, cudaStream_t stream, const StepArgs& a, const FamilyScratch*) {
    constexpr int kFinishBlock = 256;
    const long long t = a.chunk, band = a.band > 0 ? a.band : t;
    for (long long d0 = 0; d0 < t; d0 += band) {
        StepArgs b = a;
        b.band_begin = static_cast<int>(d0);
        const long long d1 = std::min(t, d0 + band), tiles = (d1 - d0) * t - (d0 + d1 - 1) * (d1 - d0) / 2;
        pairs_kernel<K, U, SPLIT><<<static_cast<unsigned>(tiles), block, smem, stream>>>(b);
        NBODY_CUDA_CHECK_LAUNCH("pairs_kernel");
        pairs_finish_kernel<<<static_cast<unsigned>((a.n * kPairsFinishLanes + kFinishBlock - 1) / kFinishBlock),
                              kFinishBlock, 0, stream>>>(b);
        NBODY_CUDA_CHECK_LAUNCH("pairs_finish_kernel");
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

long long scratch_cap(int device) {
    cudaDeviceProp prop{};
    NBODY_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    return static_cast<long long>(prop.totalGlobalMem) / kPairsScratchShare;
}

}  // namespace nbody::kernels
