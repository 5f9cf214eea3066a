#include "kernel_table.cuh"

#include <array>

namespace nbody::kernels {

namespace {
template <int K, int U, bool ROLLED>
void launch(dim3 grid, dim3 block, size_t smem, cudaStream_t stream, const StepArgs& args) {
    step_kernel<K, U, ROLLED><<<grid, block, smem, stream>>>(args);
}

template <int K, int U, bool ROLLED>
KernelEntry entry(KernelVariant v) {
    return {v, K, U, reinterpret_cast<const void*>(&step_kernel<K, U, ROLLED>), &launch<K, U, ROLLED>};
}

using V = KernelVariant;
const std::array<KernelEntry, 13> kTable = {{
    entry<1, 1, true>(V::None),
    entry<2, 1, true>(V::IUnrolled),
    entry<4, 1, true>(V::IUnrolled),
    entry<8, 1, true>(V::IUnrolled),
    entry<2, 2, false>(V::IJUnrolled),
    entry<2, 4, false>(V::IJUnrolled),
    entry<2, 8, false>(V::IJUnrolled),
    entry<4, 2, false>(V::IJUnrolled),
    entry<4, 4, false>(V::IJUnrolled),
    entry<4, 8, false>(V::IJUnrolled),
    entry<8, 2, false>(V::IJUnrolled),
    entry<8, 4, false>(V::IJUnrolled),
    entry<8, 8, false>(V::IJUnrolled),
}};
}  // namespace

const KernelEntry* find_kernel(KernelVariant v, int k, int u) {
    for (const auto& e : kTable)
        if (e.variant == v && e.k == k && e.u == u) return &e;
    return nullptr;
}

}  // namespace nbody::kernels
