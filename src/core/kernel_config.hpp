#pragma once
// The CUDA kernel's variant and shape, kept in core so SimParams, the command line, the UI and the
// benchmark all edit the same thing without seeing CUDA.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace nbody {

// The RV770 paper's Figures 2-4, in CUDA.
enum class KernelVariant {
    None,        // one i-body per thread, j loop not unrolled
    IUnrolled,   // k i-bodies per thread: one shared-memory load serves k interactions
    IJUnrolled,  // k i-bodies x u j-bodies per inner iteration
};

struct KernelShape {
    int k = 4;       // i-bodies per thread (1 for None; 2, 4, 8 otherwise)
    int u = 4;       // j-bodies per inner iteration (IJUnrolled: 2, 4, 8; 1 otherwise)
    int block = 256; // threads per block, 64 to 1024, a multiple of 32
    int q = 0;       // threads sharing one i-group's j range (j-split); 0 = chosen from N and the SM count
};

// Field by field (written out: the CUDA files compile as C++17, without defaulted comparisons).
inline bool operator==(const KernelShape& a, const KernelShape& b) {
    return a.k == b.k && a.u == b.u && a.block == b.block && a.q == b.q;
}
inline bool operator!=(const KernelShape& a, const KernelShape& b) { return !(a == b); }

struct VariantInfo {
    KernelVariant variant;
    std::string_view name;         // as typed on the command line and shown in the UI
    std::string_view description;
    std::array<int, 3> allowed_k;  // 0 entries unused
    std::array<int, 3> allowed_u;
    KernelShape default_shape;
};

// The table every front end lists variants from.
const std::array<VariantInfo, 3>& variant_table();
const VariantInfo& variant_info(KernelVariant v);
std::optional<KernelVariant> parse_variant(std::string_view name);  // "none", "i", "ij" and long names
std::string_view variant_name(KernelVariant v);

// "ij-unrolled k 4 u 4 block 256 q auto": how the UI, the performance markers and run summaries name a kernel.
std::string kernel_label(KernelVariant v, const KernelShape& s);

// Throws ParamError naming k, u, block or q with the allowed values for this variant.
void validate_shape(KernelVariant v, const KernelShape& s);

// How one step launches: the shape with q resolved and the grid size.
struct LaunchPlan {
    int k = 1, u = 1, block = 256, q = 1;
    int tile = 256;        // j-bodies per shared-memory tile: block x a factor giving each slice ~128
    long long blocks = 0;  // ceil(n / (block / q * k))
};

// Resolves the j-split q for n bodies on a GPU with `sm_count` multiprocessors. Automatic (shape.q == 0):
// the smallest q whose grid fills every SM with at least `threads_per_sm` threads (the backend passes what
// one SM can hold of this kernel: one full wave), since small N leaves most of the GPU idle otherwise
// (N = 7,500 at one thread per body is 30 blocks of 256 on 132 SMs); the largest allowed when none does. q must divide block / u, so a slice's share of a tile unrolls evenly.
// Throws ParamError for a fixed q that does not fit the block.
LaunchPlan plan_launch(KernelVariant v, const KernelShape& shape, std::size_t n, int sm_count,
                       int threads_per_sm = 1024);

}  // namespace nbody
