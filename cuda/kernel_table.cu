#include "kernel_table.cuh"

namespace nbody::kernels {

namespace {
KernelList list_for(Precision p, KernelVariant v) {
    if (v == KernelVariant::Pairs) return p == Precision::Fp32 ? pairs_kernels() : KernelList{nullptr, nullptr};
    switch (p) {
        case Precision::DS: return ds_kernels();
        case Precision::Fp64: return fp64_kernels();
        default: return fp32_kernels();
    }
}
}  // namespace

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
