#pragma once
// One descriptor per kernel family: the one place that answers what a family runs with (method, precisions,
// integrators, GPU parts, MPI ranks), whether --tune measures it and the automatic choice or paper mode takes it,
// its parameter block with allowed values, limits and defaults, its label, validation, launch planning, scratch
// and its work a step. Callers read the row (variant_info) instead of testing for particular variants.
#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/counters.hpp"  // StepWork
#include "core/enums/force_method_id.hpp"
#include "core/enums/integrator_id.hpp"
#include "core/kernels/kernel_config.hpp"
#include "core/enums/precision.hpp"

namespace nbody {


// The parameter block of a direct family (KernelShape: k, u, block, q, s). A tree method's families will carry
// their own block beside it (opening angle theta, leaf size, group size), with its rules in the same row.
struct DirectRules {
    std::array<int, 3> allowed_k;  // 0 entries unused
    std::array<int, 3> allowed_u;
    int max_block;                 // 64 to this, a multiple of 32
    int max_q;                     // 1: no j-split in a warp
    std::array<int, 3> q_choices;  // q offered as a choice (0 entries unused); none: 0 (auto) or powers of two
    int max_s;                     // 1: no j-split over blocks
    std::string_view q_meaning;    // what q counts, for the UI
};

struct FamilyInfo {
    KernelVariant variant;
    std::string_view name;  // as typed on the command line and shown in the UI
    std::string_view alias; // the short name also accepted ("" for none)
    std::string_view description;
    ForceMethod method;
    unsigned precisions;   // bit 1 << Precision the family's kernels are compiled for
    unsigned integrators;  // bit 1 << Integrator whose engine runs them (the Hermite engines plan their own kernel)
    bool several_parts;    // spread over several GPU parts of one process
    bool over_ranks;       // run as one rank of several (MPI)
    bool tuned;            // nbody-bench --tune measures it
    bool auto_choice;      // the tuning table may hold it, so the automatic choice can take it
    bool paper;            // one of the paper's three loops (paper mode, src/bench/paper_mode.cpp)
    DirectRules rules;
    KernelShape default_shape;
    std::string_view partial_name;  // its scratch of partial sums, as allocation errors name it
    std::string_view alt_instance;  // what LaunchPlan::alt selects: "tile-free", "j-split"
    // The family's own rules after the common ones (throws ParamError naming the field); null: none.
    void (*validate)(const KernelShape& s);
    std::string (*label)(const FamilyInfo& f, const KernelShape& s);
    LaunchPlan (*plan)(const KernelShape& s, const PlanInput& in);
    // Scratch that grows past the GPU's memory with N (pairs: T^2 strips), bytes; null where none does. Where it
    // exceeds the cap the backend passes the family over (automatic) or refuses it with `scratch_refusal`.
    long long (*capped_scratch)(std::size_t n, const KernelShape& s);
    std::string_view scratch_refusal;
    // The shapes --tune measures in precision p (the given k, u and block lists where not empty); null: none.
    std::vector<KernelShape> (*tune_shapes)(Precision p, const std::vector<int>& ks, const std::vector<int>& us,
                                            const std::vector<int>& blocks);
    StepWork (*work)(std::size_t n);  // interactions a force evaluation of n bodies takes
    // The oldest GPU generation its kernels run on (compute capability x 10: 75 = Turing) and, above 75, the
    // instructions that need it, for the refusal (core/kernels/gpu_limits.hpp).
    int min_cc;
    std::string_view min_cc_needs;
    // Dynamic shared memory one block of shape s asks for past the 48 KiB every GPU gives, bytes; null: none.
    long long (*shared_bytes)(const KernelShape& s);
};
using VariantInfo = FamilyInfo;

// The table every front end lists families from.
const std::array<FamilyInfo, 5>& variant_table();
const FamilyInfo& variant_info(KernelVariant v);
bool runs_in(const FamilyInfo& f, Precision p);
bool runs_with(const FamilyInfo& f, Integrator i);
// "none, i-unrolled, ij-unrolled, pairs": the families the automatic choice may take.
std::string auto_choice_names();
// Every name and alias parse_variant accepts, in table order (for the command lines' checks).
std::vector<std::string> family_names();
// "none, i-unrolled (i), ..., tensor (tc; fp32, one GPU), pairs (fp32, one GPU)": for --help.
std::string families_help();

// By the rows: names, labels and shape rules.
std::optional<KernelVariant> parse_variant(std::string_view name);  // long names and the aliases "i", "ij", "tc"
std::string_view variant_name(KernelVariant v);

// "ij-unrolled k 4 u 4 block 256 q auto": how the UI, the performance markers and run summaries name a kernel.
std::string kernel_label(KernelVariant v, const KernelShape& s);

// Throws ParamError naming k, u, block, q or s with the allowed values for this variant.
void validate_shape(KernelVariant v, const KernelShape& s);

// Resolves the j-split q for n bodies on a GPU with `sm_count` multiprocessors. Automatic (shape.q == 0):
// the smallest q whose grid fills every SM with at least `threads_per_sm` threads (the backend passes what
// one SM can hold of this kernel: one full wave), since small N leaves most of the GPU idle otherwise
// (N = 7,500 at one thread per body is 30 blocks of 256 on 132 SMs); the largest allowed when none does. q must divide the block (the tile is cut to a whole number of q x u bodies).
// Throws ParamError for a fixed q that does not fit the block.
// `n` is the number of i-bodies the launch updates, `n_j` the number of bodies exerting force (all N; 0 means n,
// as on one GPU; a part of a multi-GPU run updates n = its share). `body_bytes`: shared memory per j-body (16
// for float4, 32 for double or double-single bodies), which caps the tile at 16 KiB per buffer; it is also the
// size of one partial sum of the j-split over blocks (float4 or Dbl4).
// Automatic s (shape.s == 0): q = 1 (or as given) and the s (up to kMaxSplits) whose blocks fill whole waves
// best, every split keeping at least kMinSplitChunk bodies: the j-split over blocks keeps the i-group of a block
// large, so each j-tile loaded from L2 serves block x k i-bodies instead of block x k / q.
LaunchPlan plan_launch(KernelVariant v, const KernelShape& shape, std::size_t n, int sm_count,
                       int threads_per_sm = 1024, std::size_t n_j = 0, int body_bytes = 16);

// ParamError "precision" for a kernel family that does not run in that precision (tensor: fp32 only), from
// the family's descriptor row.
void validate_variant_precision(KernelVariant v, Precision p);

// The work of one force evaluation of n bodies with family v.
inline StepWork step_work(KernelVariant v, std::size_t n) { return variant_info(v).work(n); }

}  // namespace nbody
