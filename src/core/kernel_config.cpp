#include "core/kernel_config.hpp"

#include <algorithm>
#include <string>

#include "core/errors.hpp"

namespace nbody {

namespace {
std::string list(const std::array<int, 3>& a) {
    std::string s;
    for (int v : a)
        if (v) s += (s.empty() ? "" : ", ") + std::to_string(v);
    return s;
}
bool contains(const std::array<int, 3>& a, int v) { return v != 0 && std::find(a.begin(), a.end(), v) != a.end(); }
}  // namespace

const std::array<VariantInfo, 3>& variant_table() {
    static const std::array<VariantInfo, 3> table = {{
        {KernelVariant::None, "none", "no unrolling: one i-body per thread, j loop rolled", {1, 0, 0},
         {1, 0, 0}, {1, 1, 256, 0}},
        {KernelVariant::IUnrolled, "i-unrolled", "k i-bodies per thread share each j load", {2, 4, 8},
         {1, 0, 0}, {4, 1, 256, 0}},
        {KernelVariant::IJUnrolled, "ij-unrolled", "k i-bodies x u j-bodies per inner iteration", {2, 4, 8},
         {2, 4, 8}, {4, 4, 256, 0}},
    }};
    return table;
}

const VariantInfo& variant_info(KernelVariant v) { return variant_table()[static_cast<int>(v)]; }

std::string_view variant_name(KernelVariant v) { return variant_info(v).name; }

std::optional<KernelVariant> parse_variant(std::string_view name) {
    if (name == "i") return KernelVariant::IUnrolled;
    if (name == "ij") return KernelVariant::IJUnrolled;
    for (const auto& info : variant_table())
        if (info.name == name) return info.variant;
    return std::nullopt;
}

void validate_shape(KernelVariant v, const KernelShape& s) {
    const VariantInfo& info = variant_info(v);
    const std::string vn(info.name);
    if (!contains(info.allowed_k, s.k))
        throw ParamError("k", "variant " + vn + " allows k in {" + list(info.allowed_k) + "} (got " +
                                  std::to_string(s.k) + ")");
    if (!contains(info.allowed_u, s.u))
        throw ParamError("u", "variant " + vn + " allows u in {" + list(info.allowed_u) + "} (got " +
                                  std::to_string(s.u) + ")");
    if (s.block < 64 || s.block > 1024 || s.block % 32 != 0)
        throw ParamError("block", "must be a multiple of 32 from 64 to 1024 (got " + std::to_string(s.block) + ")");
    if (s.q < 0 || s.q > 32 || (s.q & (s.q - 1)) != 0)
        throw ParamError("q", "threads per body must be 0 (auto) or a power of two up to 32 (got " +
                                  std::to_string(s.q) + ")");
}

}  // namespace nbody
