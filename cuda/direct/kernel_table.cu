#include "direct/kernel_table.cuh"

#include <array>
#include <type_traits>

namespace nbody::kernels {

namespace {
// The step kernels' tables hold none, i-unrolled and ij-unrolled in every precision.
KernelList step_kernels(Precision p) {
    switch (p) {
        case Precision::DS: return ds_kernels();
        case Precision::Fp64: return fp64_kernels();
        default: return fp32_kernels();
    }
}
KernelList list_for(Precision p, KernelVariant v) { return family_kernels(v).instances(p); }
}  // namespace

const FamilyKernels& family_kernels(KernelVariant v) {
    // Indexed by KernelVariant, as variant_table().
    static const std::array<FamilyKernels, 5> table = {{
        {step_kernels, nullptr, nullptr},
        {step_kernels, nullptr, nullptr},
        {step_kernels, nullptr, nullptr},
        {tensor_kernels, make_tensor_scratch, prepare_tensor},
        {pairs_kernels, make_pairs_scratch, prepare_pairs},
    }};
    static_assert(std::tuple_size_v<decltype(table)> == std::tuple_size_v<std::decay_t<decltype(variant_table())>>);
    return table[static_cast<int>(v)];
}

const KernelEntry* find_kernel(Precision p, KernelVariant v, int k, int u) {
    const KernelList l = list_for(p, v);
    for (const KernelEntry* e = l.begin; e != l.end; ++e)
        if (e->variant == v && e->k == k && e->u == u) return e;
    return nullptr;
}

std::string compiled_shapes(Precision p, KernelVariant v) {
    std::string out;
    const KernelList l = list_for(p, v);
    for (const KernelEntry* e = l.begin; e != l.end; ++e)
        if (e->variant == v) out += (out.empty() ? "" : ", ") + std::to_string(e->k) + "x" + std::to_string(e->u);
    return out.empty() ? "none" : out;
}

}  // namespace nbody::kernels
