#pragma once
// The instance list shared by the two 32-byte-body precisions (ds, fp64): each of kernel_table_ds.cu and
// kernel_table_fp64.cu instantiates it for its policy, so the two compile in parallel.
#include <array>

#include "direct/kernel_table.cuh"

namespace nbody::kernels {

template <class Pol>
KernelList wide_kernels(Precision p) {
    using V = KernelVariant;
    static const std::array<KernelEntry, 7> table = {{
        entry<Pol, 1, 1, true>(p, V::None),
        entry<Pol, 2, 1, true>(p, V::IUnrolled),
        entry<Pol, 4, 1, true>(p, V::IUnrolled),
        entry<Pol, 2, 2, false>(p, V::IJUnrolled),
        entry<Pol, 2, 4, false>(p, V::IJUnrolled),
        entry<Pol, 4, 2, false>(p, V::IJUnrolled),
        entry<Pol, 4, 4, false>(p, V::IJUnrolled),
    }};
    return {table.data(), table.data() + table.size()};
}

}  // namespace nbody::kernels
