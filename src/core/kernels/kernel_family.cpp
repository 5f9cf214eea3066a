#include "core/kernels/kernel_family.hpp"

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

constexpr unsigned kLeapFrog = bit(Integrator::LeapFrog);

std::string auto_text(int v) { return v ? std::to_string(v) : std::string("auto"); }

// "ij-unrolled k 4 u 4 block 256 q auto" (s only where it is not 1).
std::string label_cuda_cores(const FamilyInfo& f, const KernelShape& s) {
    return std::string(f.name) + " k " + std::to_string(s.k) + " u " + std::to_string(s.u) + " block " +
           std::to_string(s.block) + " q " + auto_text(s.q) + (s.s == 1 ? std::string() : " s " + auto_text(s.s));
}
// k, u and q do not apply: one warp per 16 i-bodies.
std::string label_tensor(const FamilyInfo& f, const KernelShape& s) {
    return std::string(f.name) + " block " + std::to_string(s.block) +
           (s.s == 1 ? std::string() : " s " + auto_text(s.s));
}
// s does not apply (a block takes a tile of the pair matrix); q: warps an i-set.
std::string label_pairs(const FamilyInfo& f, const KernelShape& s) {
    return std::string(f.name) + " k " + std::to_string(s.k) + " u " + std::to_string(s.u) + " block " +
           std::to_string(s.block) + (s.q > 1 ? " q " + std::to_string(s.q) : std::string());
}

std::vector<int> or_default(const std::vector<int>& given, std::vector<int> d) { return given.empty() ? d : given; }

// ij-unrolled: k x u x block, each with q auto (s 1) and with the j-split over blocks (q 1, s auto).
std::vector<KernelShape> tune_ij(Precision p, const std::vector<int>& ks, const std::vector<int>& us,
                                 const std::vector<int>& blocks) {
    const bool fp32 = p == Precision::Fp32;
    std::vector<KernelShape> out;
    for (int k : or_default(ks, fp32 ? std::vector<int>{2, 4, 8} : std::vector<int>{2, 4}))
        for (int u : or_default(us, fp32 ? std::vector<int>{4, 8} : std::vector<int>{2, 4}))
            for (int b : or_default(blocks, fp32 ? std::vector<int>{256, 512} : std::vector<int>{128, 256}))
                for (const auto& [q, s] : {std::pair{0, 1}, std::pair{1, 0}}) out.push_back({k, u, b, q, s});
    return out;
}

// The pairs family's shapes (fp32): the ones given, else a few that keep two or more blocks an SM (shared memory
// 384 k w^2 bytes a block). The caller drops the ones its rules refuse.
std::vector<KernelShape> tune_pairs(Precision, const std::vector<int>& ks, const std::vector<int>& us,
                                    const std::vector<int>& blocks) {
    if (!ks.empty() || !us.empty() || !blocks.empty()) {
        const KernelShape d = variant_info(KernelVariant::Pairs).default_shape;
        std::vector<KernelShape> shapes;
        for (int k : or_default(ks, {d.k}))
            for (int u : or_default(us, {d.u}))
                for (int b : or_default(blocks, {d.block})) shapes.push_back({k, u, b, 0, 1});
        return shapes;
    }
    // The shapes that have led somewhere: k 8 at large N, small strips (blocks of 64, the most tiles) at small N,
    // and with q > 1 (a tile's j-groups split over q warps) the same strips with more warps, for small N.
    // Measured: docs/bench/performance-log.md, the pairs family.
    return {{8, 2, 128, 0, 1}, {8, 2, 64, 0, 1},  {4, 4, 64, 0, 1},  {4, 2, 64, 0, 1},
            {2, 2, 64, 0, 1},  {4, 2, 64, 2, 1},  {8, 2, 64, 2, 1},  {8, 2, 128, 4, 1},
            {4, 4, 128, 2, 1}, {8, 2, 256, 4, 1}, {2, 2, 128, 2, 1}, {4, 2, 128, 4, 1}};
}

// The CUDA-core families share every rule but k and u.
constexpr DirectRules cuda_core_rules(std::array<int, 3> k, std::array<int, 3> u) {
    return {k, u, 1024, 32, {0, 0, 0}, kMaxSplits, "threads per body"};
}
}  // namespace

const std::array<FamilyInfo, 5>& variant_table() {
    // Indexed by KernelVariant. Direct families only; the pairs family's default shape is its measured best at
    // small N (docs/bench/performance-log.md), the others' the paper's.
    static const std::array<FamilyInfo, 5> table = {{
        {KernelVariant::None, "none", "", "no unrolling: one i-body per thread, j loop rolled", ForceMethod::Direct,
         kAllPrecisions, kLeapFrog, true, true, false, true, true, cuda_core_rules({1, 0, 0}, {1, 0, 0}),
         {1, 1, 256, 0}, "j-split partial sums", "tile-free", nullptr, label_cuda_cores, plan_cuda_cores, nullptr,
         "", nullptr, direct_work, 75, "", nullptr},
        {KernelVariant::IUnrolled, "i-unrolled", "i", "k i-bodies per thread share each j load", ForceMethod::Direct,
         kAllPrecisions, kLeapFrog, true, true, false, true, true, cuda_core_rules({2, 4, 8}, {1, 0, 0}),
         {4, 1, 256, 0}, "j-split partial sums", "tile-free", nullptr, label_cuda_cores, plan_cuda_cores, nullptr,
         "", nullptr, direct_work, 75, "", nullptr},
        {KernelVariant::IJUnrolled, "ij-unrolled", "ij", "k i-bodies x u j-bodies per inner iteration",
         ForceMethod::Direct, kAllPrecisions, kLeapFrog, true, true, true, true, true,
         cuda_core_rules({2, 4, 8}, {2, 4, 8}), {4, 4, 256, 0}, "j-split partial sums", "tile-free", nullptr,
         label_cuda_cores, plan_cuda_cores, nullptr, "", tune_ij, direct_work, 75, "", nullptr},
        // Not measured by --tune yet, so the automatic choice stays with the CUDA cores.
        {KernelVariant::Tensor, "tensor", "tc", "tensor cores: split-TF32 products on Morton-sorted bodies (fp32)",
         ForceMethod::Direct, bit(Precision::Fp32), kLeapFrog, false, false, false, false, false,
         {{1, 0, 0}, {1, 0, 0}, kTensorMaxBlock, 1, {0, 0, 0}, kMaxSplits, ""}, {1, 1, 128, 0, 0},
         "j-split partial sums", "", validate_tensor_shape, label_tensor, plan_tensor, nullptr, "", nullptr,
         direct_work, 80, "TF32 tensor-core products (mma.sync m16n8k8)", nullptr},
        {KernelVariant::Pairs, "pairs", "",
         "Newton's third law: each pair once, its force on both bodies (9 instructions per interaction, fp32)",
         ForceMethod::Direct, bit(Precision::Fp32), kLeapFrog, true, false, true, true, false,
         {{2, 4, 8}, {1, 2, 4}, kPairsMaxBlock, 4, {1, 2, 4}, 1, "warps per i-set"}, {4, 2, 64, 0, 1},
         "pairs partial sums", "j-split", validate_pairs_shape, label_pairs, plan_pairs, pairs_scratch_bytes,
         "keeps one partial sum per body and strip of block x k bodies", tune_pairs, direct_work, 75, "",
         pairs_shared_bytes},
    }};
    return table;
}

const FamilyInfo& variant_info(KernelVariant v) { return variant_table()[static_cast<int>(v)]; }

std::string_view variant_name(KernelVariant v) { return variant_info(v).name; }

std::optional<KernelVariant> parse_variant(std::string_view name) {
    for (const auto& info : variant_table())
        if (info.name == name || (!info.alias.empty() && info.alias == name)) return info.variant;
    return std::nullopt;
}

std::string kernel_label(KernelVariant v, const KernelShape& s) {
    const FamilyInfo& f = variant_info(v);
    return f.label(f, s);
}

bool runs_in(const FamilyInfo& f, Precision p) { return (f.precisions & bit(p)) != 0; }
bool runs_with(const FamilyInfo& f, Integrator i) { return (f.integrators & bit(i)) != 0; }

std::vector<std::string> family_names() {
    std::vector<std::string> out;
    for (const auto& f : variant_table()) {
        out.emplace_back(f.name);
        if (!f.alias.empty()) out.emplace_back(f.alias);
    }
    return out;
}

// Built with append throughout: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string temporaries, and
// the warning would fill a user's first build.
std::string families_help() {
    std::string out;
    for (const auto& f : variant_table()) {
        std::string notes(f.alias), only;
        std::size_t count = 0;
        for (const auto& pr : precision_table())
            if (runs_in(f, pr.value)) only.append(only.empty() ? "" : "/").append(pr.name), ++count;
        if (count < precision_table().size()) notes.append(notes.empty() ? "" : "; ").append(only);
        if (!f.several_parts) notes.append(notes.empty() ? "" : ", ").append("one GPU");
        else if (!f.over_ranks) notes.append(notes.empty() ? "" : ", ").append("one process");
        out.append(out.empty() ? "" : ", ").append(f.name);
        if (!notes.empty()) out.append(" (").append(notes).append(")");
    }
    return out;
}

std::string auto_choice_names() {
    std::string out;
    for (const auto& f : variant_table())
        if (f.auto_choice) out += (out.empty() ? "" : ", ") + std::string(f.name);
    return out;
}

void validate_shape(KernelVariant v, const KernelShape& s) {
    const FamilyInfo& info = variant_info(v);
    const std::string vn(info.name);
    if (!contains(info.rules.allowed_k, s.k))
        throw ParamError("k", "variant " + vn + " allows k in {" + list(info.rules.allowed_k) + "} (got " +
                                  std::to_string(s.k) + ")");
    if (!contains(info.rules.allowed_u, s.u))
        throw ParamError("u", "variant " + vn + " allows u in {" + list(info.rules.allowed_u) + "} (got " +
                                  std::to_string(s.u) + ")");
    if (s.block < 64 || s.block > 1024 || s.block % 32 != 0)
        throw ParamError("block", "must be a multiple of 32 from 64 to 1024 (got " + std::to_string(s.block) + ")");
    if (s.q < 0 || s.q > 32 || (s.q & (s.q - 1)) != 0)
        throw ParamError("q", "threads per body must be 0 (auto) or a power of two up to 32 (got " +
                                  std::to_string(s.q) + ")");
    if (info.validate) info.validate(s);  // the family's own rules (tensor, pairs)
    if (s.s < 0 || s.s > kMaxSplits)
        throw ParamError("s", "blocks per body (j-split over blocks) must be 0 (auto) or 1 to " +
                                  std::to_string(kMaxSplits) + " (got " + std::to_string(s.s) + ")");
}

LaunchPlan plan_launch(KernelVariant v, const KernelShape& shape, std::size_t n, int sm_count, int threads_per_sm,
                       std::size_t n_j, int body_bytes) {
    validate_shape(v, shape);
    PlanInput in;
    in.n = n;
    in.nj = static_cast<long long>(n_j == 0 ? n : n_j);
    in.target = static_cast<long long>(sm_count) * threads_per_sm;
    in.body_bytes = body_bytes;
    return variant_info(v).plan(shape, in);
}

void validate_variant_precision(KernelVariant v, Precision p) {
    const FamilyInfo& f = variant_info(v);
    if (runs_in(f, p)) return;
    const std::string ok = names_in(precision_table(), f.precisions);                       // "fp32"
    const std::string others = names_in(precision_table(), kAllPrecisions & ~f.precisions);  // "ds and fp64"
    throw ParamError("precision", "the " + std::string(f.name) + " kernel runs in " + ok + " only (got " +
                                      std::string(precision_name(p)) + "); choose " + ok + ", or another variant for " +
                                      others);
}

}  // namespace nbody
