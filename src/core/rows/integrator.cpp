#include "core/rows/integrator.hpp"

#include "core/counters.hpp"
#include "core/enums/force_method_id.hpp"
#include "core/enums/precision.hpp"

namespace nbody {

namespace {
std::vector<IntegratorInfo>& rows_held() {
    // clang-format off
    static std::vector<IntegratorInfo> rows = {
        {Integrator::LeapFrog, "leapfrog", "kick-drift-kick leap-frog: 2nd order, symplectic, one force per step",
         Scheme::KickDriftKick, 2, /*block_steps*/ false,
         bit(ForceMethod::Direct) | bit(ForceMethod::Tree), kAllPrecisions,
         /*several_parts*/ true, /*over_ranks*/ true, /*restarts_on_dt*/ false,
         /*own_state*/ false, kFlopsPerInteractionNvidia, "acceleration"},
        {Integrator::Hermite, "hermite", "4th-order Hermite predictor-corrector, one shared time step",
         Scheme::Hermite4, 4, false, bit(ForceMethod::Direct), kAllPrecisions,
         true, false, true, true, kFlopsPerInteractionHermite, "acceleration, jerk and potential"},
        {Integrator::HermiteBlock, "hermite-block",
         "4th-order Hermite with individual block (power-of-two) time steps, Aarseth's criterion (eta)",
         Scheme::Hermite4, 4, true, bit(ForceMethod::Direct), kAllPrecisions,
         true, false, true, true, kFlopsPerInteractionHermite, "acceleration, jerk and potential"},
        // fp64 and double-single: the GPU engine runs both, over several GPUs as 4th order does; the CPU backend runs
        // fp64 (cpu/cpu_backend.cpp).
        {Integrator::Hermite6, "hermite6",
         "6th-order Hermite predictor-corrector (Nitadori & Makino 2008), one shared time step",
         Scheme::Hermite6, 6, false, bit(ForceMethod::Direct), bit(Precision::Fp64) | bit(Precision::DS),
         true, false, true, true, kFlopsPerInteractionHermite6, "acceleration, jerk, snap and potential"},
        {Integrator::Hermite6Block, "hermite6-block",
         "6th-order Hermite with individual block (power-of-two) time steps, the generalised Aarseth criterion (eta)",
         Scheme::Hermite6, 6, true, bit(ForceMethod::Direct), bit(Precision::Fp64) | bit(Precision::DS),
         true, false, true, true, kFlopsPerInteractionHermite6, "acceleration, jerk, snap and potential"},
        // The CPU runs it (the reference) with either method; the CUDA tree engine runs it with the tree, on one
        // GPU or several (each holds every body); direct summation on the GPU backends hands it to the CPU. One
        // rank: its active sets differ from step to step, which no partition of the bodies over ranks follows.
        {Integrator::LeapFrogBlock, "leapfrog-block",
         "kick-drift-kick leap-frog with individual block (power-of-two) time steps: dt_i = eta sqrt(eps / |a_i|) "
         "(eps 0: eta |v_i| / |a_i|), every body drifts, only the bodies whose steps end are evaluated and kicked",
         Scheme::KickDriftKickBlock, 2, true, bit(ForceMethod::Direct) | bit(ForceMethod::Tree), kAllPrecisions,
         /*several_parts*/ true, false, false, true, kFlopsPerInteractionNvidia, "acceleration"},
    };
    // clang-format on
    return rows;
}
}  // namespace

const std::vector<IntegratorInfo>& integrator_rows() { return rows_held(); }

Integrator add_integrator_row(IntegratorInfo row) {
    std::vector<IntegratorInfo>& rows = rows_held();
    row.id = static_cast<Integrator>(rows.size());  // the built-in ids are 0 .. count - 1, in order
    rows.push_back(row);
    return row.id;
}

void add_method_to_integrators(ForceMethod m, unsigned integrators) {
    for (IntegratorInfo& row : rows_held())
        if (integrators & bit(row.id)) row.methods |= bit(m);
}

const IntegratorInfo& integrator_info(Integrator i) { return row_of(integrator_rows(), i); }

const std::vector<NamedValue<Integrator>>& integrator_table() {
    static std::vector<NamedValue<Integrator>> table;
    if (table.size() != integrator_rows().size()) table = names_of_rows<Integrator>(integrator_rows());
    return table;
}

std::optional<Integrator> parse_integrator(std::string_view s) { return parse_named(integrator_table(), s); }
std::string_view integrator_name(Integrator i) { return integrator_info(i).name; }

unsigned block_step_integrators() {
    unsigned bits = 0;
    for (const IntegratorInfo& row : integrator_rows())
        if (row.block_steps) bits |= bit(row.id);
    return bits;
}

std::string block_step_integrator_names() {
    std::string names;
    for (const IntegratorInfo& row : integrator_rows())
        if (row.block_steps) names += (names.empty() ? "" : ", ") + std::string(row.name);
    return names;
}

Integrator with_block_steps(Integrator i, bool block) {
    const Scheme scheme = integrator_info(i).scheme;
    for (const IntegratorInfo& row : integrator_rows())
        if (row.scheme == scheme && row.block_steps == block) return row.id;
    return i;
}

std::string_view scheme_name(Scheme s) {
    switch (s) {
        case Scheme::KickDriftKick: return "kick-drift-kick";
        case Scheme::Hermite4: return "4th-order Hermite";
        case Scheme::Hermite6: return "6th-order Hermite";
        case Scheme::KickDriftKickBlock: return "hierarchical kick-drift-kick";
    }
    return "?";
}

}  // namespace nbody
