// The float32 step-kernel instances (kernel_table.cuh lists why these).
#include <array>

#include "direct/kernel_table.cuh"

namespace nbody::kernels {

namespace {
using V = KernelVariant;
constexpr Precision P = Precision::Fp32;
const std::array<KernelEntry, 13> kTable = {{
    entry<Fp32, 1, 1, true>(P, V::None),
    entry<Fp32, 2, 1, true>(P, V::IUnrolled),
    entry<Fp32, 4, 1, true>(P, V::IUnrolled),
    entry<Fp32, 8, 1, true>(P, V::IUnrolled),
    entry<Fp32, 2, 2, false>(P, V::IJUnrolled),
    entry<Fp32, 2, 4, false>(P, V::IJUnrolled),
    entry<Fp32, 2, 8, false>(P, V::IJUnrolled),
    entry<Fp32, 4, 2, false>(P, V::IJUnrolled),
    entry<Fp32, 4, 4, false>(P, V::IJUnrolled),
    entry<Fp32, 4, 8, false>(P, V::IJUnrolled),
    entry<Fp32, 8, 2, false>(P, V::IJUnrolled),
    entry<Fp32, 8, 4, false>(P, V::IJUnrolled),
    entry<Fp32, 8, 8, false>(P, V::IJUnrolled),
}};
}  // namespace

KernelList fp32_kernels() { return {kTable.data(), kTable.data() + kTable.size()}; }

}  // namespace nbody::kernels
