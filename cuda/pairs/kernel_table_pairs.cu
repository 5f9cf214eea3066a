// The pairs family's instances (pairs_kernel.cuh), each launched with its finish kernel.
#include <algorithm>
#include <array>
#include <memory>

#include "common/cuda_check.cuh"
#include "direct/kernel_table.cuh"
#include "pairs/pairs_kernel.cuh"

namespace nbody::kernels {

// kPairsFinishLanes threads a body, each adding every kPairsFinishLanes-th of its partial sums of a group in the
// band, then a butterfly of shuffles: a fixed order that depends on the group and the band only, not on which part
// computes it or which other groups share the launch. Several lanes a body, because one thread a body leaves most
// SMs idle at small N and waits on T dependent trips to L2. Each group is a pass over memory (a loop, then its
// butterfly), which is why the groups hold kPairsGroupDiagonals diagonals or more (core/kernels/kernel_config.hpp). Lane 0
// then adds the group onto its bands before, onto the groups before (one part; in registers through the launch) or
// sends it out (several parts), and after the last group does the update.
// At large N a finish is bound by latency, not bytes: so lane 0 loads the running sums it will need before the slots
// (the group carried in from the band before, and the total where a group ends in the band), the update comes after
// the loop, and the kernel keeps to 48 registers for 5 blocks an SM. Beside the next band's tiles (launch_pairs) a
// finish costs them the SM slots its threads hold, so narrow bands take one lane a body (LANES = 1: a quarter of the
// threads, each with its 2 D <= 32 loads in flight). Measured: docs/bench/performance-log.md, pairs' bands.
template <int LANES>
__global__ void __launch_bounds__(kPairsFinishBlock, 5) pairs_finish_kernel(StepArgs a) {
    const long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    const int i = static_cast<int>(t / LANES), lane = static_cast<int>(t % LANES);
    const bool live = i < a.n;  // the lanes of a body past N still join the shuffles (full-warp masks)
    const PairsView p(a);
    const long long slot = p.slot_elems();
    float4* group_run = p.group_running();
    float4* total_run = p.total_running();
    const int x = live ? i / p.strip : 0, d0 = p.band_begin, d1 = p.band_end;
    // The body's diagonals: as the row's strip d < T - x (tile (x, x + d), slot d - d0), as the column's 1 <= d <= x
    // (tile (x - d, x), slot S - 1 - (d - d0)). Bounds are the same for a warp's bodies (one strip).
    const int row_end = live ? p.strips - x : 0, col_end = live ? x + 1 : 0;
    // Only the band's first group can have bands before it (the others start inside the band); the total is read
    // where one of the band's groups ends, past group 0, on one part.
    int first = a.group_first;
    while (a.group_ends[first + 1] <= d0) ++first;
    const bool carried = d0 > a.group_ends[first];
    bool ends = false;
    for (int g = first; g < a.group_last && a.group_ends[g] < d1; ++g) ends |= a.group_ends[g + 1] <= d1 && g > 0;
    float4 carry = make_float4(0.f, 0.f, 0.f, 0.f), total = carry;
    if (live && lane == 0) {
        if (carried) carry = group_run[i];
        if (ends && !a.group_out) total = total_run[i];
    }
    bool have_total = false;
    float tx = 0.f, ty = 0.f, tz = 0.f;
    for (int g = first; g < a.group_last; ++g) {
        const int e0 = a.group_ends[g], e1 = a.group_ends[g + 1], s0 = max(d0, e0), s1 = min(d1, e1);
        if (s0 >= s1) break;  // past the band
        const int rows = max(0, min(s1, row_end) - s0), c0 = max(s0, 1), cols = max(0, min(s1, col_end) - c0);
        float sx = 0.f, sy = 0.f, sz = 0.f;
#pragma unroll 4
        for (int k = lane; k < rows + cols; k += LANES) {
            const int s = k < rows ? s0 + k - d0 : p.slots - 1 - (c0 + (k - rows) - d0);
            const float4 v = p.partial[static_cast<long long>(s) * slot + i];
            sx += v.x, sy += v.y, sz += v.z;
        }
#pragma unroll
        for (int off = 1; off < LANES; off <<= 1) {
            sx += __shfl_xor_sync(0xffffffffu, sx, off);
            sy += __shfl_xor_sync(0xffffffffu, sy, off);
            sz += __shfl_xor_sync(0xffffffffu, sz, off);
        }
        if (!live || lane != 0) continue;
        if (s0 > e0) sx = carry.x + sx, sy = carry.y + sy, sz = carry.z + sz;  // the group's bands before this one
        if (s1 < e1) {  // the group goes on in the next band
            group_run[i] = make_float4(sx, sy, sz, 0.f);
            continue;
        }
        if (a.group_out) {  // several parts: the group's sum goes to the body's owner (pairs_combine_kernel)
            a.group_out[static_cast<long long>(g - a.group_first) * slot + i] = make_float4(sx, sy, sz, 0.f);
            continue;
        }
        if (g > 0) {  // one part: onto the groups before, in group order
            if (!have_total) tx = total.x, ty = total.y, tz = total.z;
            sx = tx + sx, sy = ty + sy, sz = tz + sz;
        }
        tx = sx, ty = sy, tz = sz, have_total = true;
    }
    if (!live || lane != 0 || !have_total) return;
    if (d1 == p.strips && a.group_ends[a.group_last] == p.strips)  // the last group ended: the force is whole
        leapfrog_update<Fp32>(a, i, tx, ty, tz);
    else
        total_run[i] = make_float4(tx, ty, tz, 0.f);
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
// What a part's pairs launches need beside the plan's scratch (core/kernels/kernel_config.hpp, pairs_bands): a
// second stream for the tiles of the bands in buffer 1, a stream of high priority for the finishes (so that a
// finish, once its tiles are done, takes the SMs ahead of the next band's waiting tiles and frees its buffer
// early), and the events between them.
struct PairsStreams final : FamilyScratch {
    explicit PairsStreams(int device) {
        NBODY_CUDA_CHECK(cudaSetDevice(device));
        int least = 0, greatest = 0;
        NBODY_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
        NBODY_CUDA_CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
        NBODY_CUDA_CHECK(cudaStreamCreateWithPriority(&finishes, cudaStreamNonBlocking, greatest));
        priority = greatest;
        for (cudaEvent_t* e : events()) NBODY_CUDA_CHECK(cudaEventCreateWithFlags(e, cudaEventDisableTiming));
    }
    ~PairsStreams() override {
        for (cudaEvent_t* e : events()) cudaEventDestroy(*e);
        cudaStreamDestroy(side);
        cudaStreamDestroy(finishes);
    }
    PairsStreams(const PairsStreams&) = delete;
    PairsStreams& operator=(const PairsStreams&) = delete;
    std::array<cudaEvent_t*, 6> events() {
        return {&forked, &tiles_done, &finish_done[0], &finish_done[1], &side_joined, &finishes_joined};
    }
    cudaStream_t side = nullptr, finishes = nullptr;
    int priority = 0;  // the finishes' (graph capture keeps it per kernel node through the launch attribute)
    // tiles_done is waited for as soon as it is recorded; finish_done is one a buffer, as band b + 2's tiles wait
    // for band b's finish and not for b + 1's.
    cudaEvent_t forked = nullptr, tiles_done = nullptr, finish_done[2] = {}, side_joined = nullptr,
                finishes_joined = nullptr;
};

// The finish of band [b.band_begin, b.band_end) on `stream`, LANES threads a body, at `priority` where given (0: the
// stream's).
template <int LANES>
void launch_finish(const StepArgs& b, cudaStream_t stream, int priority) {
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3(static_cast<unsigned>((static_cast<long long>(b.n) * LANES + kPairsFinishBlock - 1) / kPairsFinishBlock));
    cfg.blockDim = dim3(kPairsFinishBlock);
    cfg.stream = stream;
    cudaLaunchAttribute attr{};
    attr.id = cudaLaunchAttributePriority;
    attr.val.priority = priority;
    cfg.attrs = &attr;
    cfg.numAttrs = priority != 0 ? 1 : 0;
    NBODY_CUDA_CHECK(cudaLaunchKernelEx(&cfg, pairs_finish_kernel<LANES>, b));
}

// One step (or, on several parts, this part's groups of it): band by band, the band's tiles, then each body's slots
// into its group's and the total's running sums (pairs_finish_kernel; after the last group the leap-frog update).
// `a` comes from the plan (tile = the strip, chunk = the strips, band, partial = its scratch, q, the groups),
// `smem` is LaunchPlan::shared_bytes; the grid is each band's tile count (the plan's is all of them). Bands start
// on multiples of the plan's band whatever the part, so a group is cut into the same bands on one part as on several.
// Where the bands alternate over two buffers, band b's tiles run on `stream` (buffer 0) or the side stream
// (buffer 1), after the finish that last read their buffer (two bands back), and its finish on the finishes' stream
// after its tiles: the finishes keep band order, and one band's tiles fill the SMs the last one's tail leaves. Fork
// and join by events, which a graph capture records as edges.
template <int K, int U, bool SPLIT>
void launch_pairs(dim3, dim3 block, size_t smem, cudaStream_t stream, const StepArgs& a, const FamilyScratch* scratch) {
    const long long t = a.chunk, band = a.band > 0 ? a.band : t;
    const long long first = a.group_ends[a.group_first], last = a.group_ends[a.group_last];
    const long long buffers = pairs_bands(t, a.tile).buffers, buffer_elems = pairs_band_slots(band, t) * t * a.tile;
    float4* const base = static_cast<float4*>(a.partial);  // [buffers][slots], then the two running sums
    const auto* two = buffers > 1 ? static_cast<const PairsStreams*>(scratch) : nullptr;
    // Narrow bands (2 D <= 32 slots a body) are finished by one thread a body: a finish beside the next band's tiles
    // costs them the SM slots it holds, and four lanes held four times the threads for the same loads.
    const bool one_lane = band < t && band <= kPairsOneLaneBand;
    const cudaStream_t finish_on = two ? two->finishes : stream;
    const int priority = two ? two->priority : 0;
    if (two) {
        NBODY_CUDA_CHECK(cudaEventRecord(two->forked, stream));
        for (cudaStream_t s : {two->side, two->finishes}) NBODY_CUDA_CHECK(cudaStreamWaitEvent(s, two->forked, 0));
    }
    for (long long d0 = first, launched = 0; d0 < last; ++launched) {
        const long long d1 = std::min(last, (d0 / band + 1) * band);
        const long long tiles = (d1 - d0) * t - (d0 + d1 - 1) * (d1 - d0) / 2;
        StepArgs b = a;
        b.band_begin = static_cast<int>(d0);
        b.band_end = static_cast<int>(d1);
        const int buffer = static_cast<int>((d0 / band) % buffers);
        b.partial = base + buffer * buffer_elems;
        b.running = base + buffers * buffer_elems;
        const cudaStream_t on = two && buffer == 1 ? two->side : stream;
        if (two && launched >= 2) NBODY_CUDA_CHECK(cudaStreamWaitEvent(on, two->finish_done[buffer], 0));
        pairs_kernel<K, U, SPLIT><<<static_cast<unsigned>(tiles), block, smem, on>>>(b);
        NBODY_CUDA_CHECK_LAUNCH("pairs_kernel");
        if (two) {
            NBODY_CUDA_CHECK(cudaEventRecord(two->tiles_done, on));
            NBODY_CUDA_CHECK(cudaStreamWaitEvent(finish_on, two->tiles_done, 0));
        }
        if (one_lane)
            launch_finish<1>(b, finish_on, priority);
        else
            launch_finish<kPairsFinishLanes>(b, finish_on, priority);
        if (two) NBODY_CUDA_CHECK(cudaEventRecord(two->finish_done[buffer], two->finishes));
        d0 = d1;
    }
    if (two) {
        NBODY_CUDA_CHECK(cudaEventRecord(two->side_joined, two->side));
        NBODY_CUDA_CHECK(cudaEventRecord(two->finishes_joined, two->finishes));
        for (cudaEvent_t e : {two->side_joined, two->finishes_joined}) NBODY_CUDA_CHECK(cudaStreamWaitEvent(stream, e, 0));
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

std::unique_ptr<FamilyScratch> make_pairs_scratch(int device, std::size_t) { return std::make_unique<PairsStreams>(device); }

void prepare_pairs(const KernelEntry& e) {
    // Shapes past 48 KiB of sums (k 8 in blocks of 160, k 4 in 256) need the opt-in, for both instances, up to what
    // this GPU allows a block (64 KiB on Turing; core/kernels/gpu_limits.cpp refuses the shapes that need more).
    int device = 0, optin = 0;
    NBODY_CUDA_CHECK(cudaGetDevice(&device));
    NBODY_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    for (const void* f : {e.function, e.alt_function})
        NBODY_CUDA_CHECK(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                              std::min(kPairsMaxShared, optin)));
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
