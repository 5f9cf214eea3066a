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

#include "core/force_method.hpp"
#include "core/kernel_config.hpp"

namespace nbody {

enum class Precision;   // core/sim_params.hpp
enum class Integrator;  // core/sim_params.hpp

// What the planner knows of one launch: n i-bodies updated, nj bodies exerting force, `target` threads for one
// full wave (SMs x what one SM holds of this kernel), `body_bytes` of shared memory per j-body.
struct PlanInput {
    std::size_t n = 0;
    long long nj = 0;
    long long target = 0;
    int body_bytes = 16;
};

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
    // instructions that need it, for the refusal (core/gpu_limits.hpp).
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

// The work of one force evaluation of n bodies with family v.
inline StepWork step_work(KernelVariant v, std::size_t n) { return variant_info(v).work(n); }

}  // namespace nbody
