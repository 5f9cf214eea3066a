// The pairs family's instances (pairs_kernel.cuh), each launched with its finish kernel.
#include <array>

#include "cuda_check.cuh"
#include "kernel_table.cuh"
#include "pairs_kernel.cuh"

namespace nbody::kernels {

__global__ void pairs_finish_kernel(StepArgs a) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= a.n) return;
    const PairsView p(a);
    const long long slot = static_cast<long long>(p.strips) * p.strip;
    float sx = 0.f, sy = 0.f, sz = 0.f;
#pragma unroll 4
    for (int s = 0; s < p.strips; ++s) {
        const float4 v = p.partial[s * slot + i];
        sx += v.x, sy += v.y, sz += v.z;
    }
    leapfrog_update<Fp32>(a, i, sx, sy, sz);
}

namespace {
// The tiles, then each body's slots and the leap-frog update: one step. `a` comes from the plan (tile = the strip,
// chunk = the strips, partial = its scratch, q), `smem` is LaunchPlan::shared_bytes.
template <int K, int U, bool SPLIT>
void launch_pairs(dim3 grid, dim3 block, size_t smem, cudaStream_t stream, const StepArgs& a, const FamilyScratch*) {
    pairs_kernel<K, U, SPLIT><<<grid, block, smem, stream>>>(a);
    NBODY_CUDA_CHECK_LAUNCH("pairs_kernel");
    constexpr int kFinishBlock = 256;
    pairs_finish_kernel<<<static_cast<unsigned>((a.n + kFinishBlock - 1) / kFinishBlock), kFinishBlock, 0, stream>>>(a);
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
