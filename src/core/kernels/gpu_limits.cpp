#include "core/kernels/gpu_limits.hpp"

#include "core/kernels/kernel_family.hpp"

namespace nbody {

const std::vector<GpuLimits>& gpu_classes() {
    // name, cc, SMs, threads an SM, registers an SM, shared memory an SM and a block (opt-in), boost GHz,
    // fp32 : fp64, memory. From NVIDIA's data sheets and the CUDA programming guide's per-generation table.
    constexpr std::size_t GiB = std::size_t(1) << 30;
    static const std::vector<GpuLimits> classes = {
        {"NVIDIA GeForce RTX 2080", 7, 5, 46, 1024, 65536, 64 << 10, 64 << 10, 1.71, 32, 8 * GiB},
        {"NVIDIA GeForce RTX 3060", 8, 6, 28, 1536, 65536, 100 << 10, 99 << 10, 1.78, 64, 12 * GiB},
        {"NVIDIA GeForce RTX 3090", 8, 6, 82, 1536, 65536, 100 << 10, 99 << 10, 1.70, 64, 24 * GiB},
        {"NVIDIA GeForce RTX 4070", 8, 9, 46, 1536, 65536, 100 << 10, 99 << 10, 2.48, 64, 12 * GiB},
        {"NVIDIA GeForce RTX 4090", 8, 9, 128, 1536, 65536, 100 << 10, 99 << 10, 2.52, 64, 24 * GiB},
        {"NVIDIA A100-SXM4-80GB", 8, 0, 108, 2048, 65536, 164 << 10, 163 << 10, 1.41, 2, 80 * GiB},
        {"NVIDIA L4", 8, 9, 58, 1536, 65536, 100 << 10, 99 << 10, 2.04, 64, 24 * GiB},
        {"NVIDIA H100 80GB HBM3", 9, 0, 132, 2048, 65536, 228 << 10, 227 << 10, 1.98, 2, 80 * GiB},
        {"NVIDIA H200", 9, 0, 132, 2048, 65536, 228 << 10, 227 << 10, 1.98, 2, 141 * GiB},
        {"NVIDIA B200", 10, 0, 148, 2048, 65536, 228 << 10, 227 << 10, 1.97, 2, 180 * GiB},
        {"NVIDIA GeForce RTX 5090", 12, 0, 170, 1536, 65536, 128 << 10, 99 << 10, 2.41, 64, 32 * GiB},
    };
    return classes;
}

std::string gpu_refusal(const FamilyInfo& f, const KernelShape& s, const GpuLimits& g) {
    const std::string family = "the " + std::string(f.name) + " kernel";
    if (g.cc() < f.min_cc)
        return family + " needs compute capability " + std::to_string(f.min_cc / 10) + "." +
               std::to_string(f.min_cc % 10) + " or newer (" + std::string(f.min_cc_needs) + "); " + g.name +
               " has " + g.cc_text();
    if (f.shared_bytes) {
        const long long need = f.shared_bytes(s);
        if (need > g.shared_per_block_optin)
            return family + " with this shape (" + kernel_label(f.variant, s) + ") needs " + std::to_string(need) +
                   " bytes of shared memory a block; " + g.name + " offers " +
                   std::to_string(g.shared_per_block_optin) + ": choose a smaller block or k";
    }
    if (s.block > g.max_threads_per_sm)
        return family + " with a block of " + std::to_string(s.block) + " threads does not fit " + g.name + "'s " +
               std::to_string(g.max_threads_per_sm) + " threads an SM";
    return {};
}

}  // namespace nbody
