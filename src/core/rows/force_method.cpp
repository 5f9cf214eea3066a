#include "core/rows/force_method.hpp"

#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "core/rows/integrator.hpp"
#include "core/kernels/kernel_family.hpp"
#include "core/rows/sim_params.hpp"

namespace nbody {

namespace {
double quadratic(double n) { return n * n; }
// Each body's walk opens more cells as the tree deepens (the acceleration criterion): N log^2 N follows the
// CPU tree from 4,096 to 2,097,152 bodies within 1.2x, where N log N falls up to 1.6x short.
double n_log2_squared(double n) {
    const double depth = std::log2(std::max(n, 2.0));
    return n * depth * depth;
}
void validate_direct(const SimParams& p) {
    if (p.kernel_auto) return;
    const FamilyInfo& f = variant_info(p.variant);
    if (f.method != p.method)
        throw ParamError("method", "the " + std::string(f.name) + " kernel is a " + std::string(method_name(f.method)) +
                                       " family (got method " + std::string(method_name(p.method)) + ")");
    validate_shape(p.variant, p.shape);
    validate_variant_precision(p.variant, p.precision);
}
std::string direct_label(const SimParams& p) { return p.kernel_auto ? "auto" : kernel_label(p.variant, p.shape); }
std::string tree_params_label(const SimParams& p) { return tree_label(p.tree); }

void with_integrators(std::vector<MethodInfo>& rows) {
    for (MethodInfo& m : rows) {
        m.integrators = 0;
        for (const IntegratorInfo& in : integrator_rows())
            if (in.methods & bit(m.id)) m.integrators |= bit(in.id);
    }
}

std::vector<MethodInfo>& rows_held() {
    // clang-format off
    // `integrators` (0 here) is filled in from the integrator rows' `methods`: one place says which pairs run.
    static std::vector<MethodInfo> rows = {
        {ForceMethod::Direct, "direct", "direct summation: every pair of bodies, N^2 interactions a step", 0,
         kAllPrecisions,
         /*several_parts*/ true, /*over_ranks*/ true, /*kernel_families*/ true, /*approximate*/ false,
         /*has_cells*/ false, quadratic, validate_direct, direct_label},
        // Leap-frog in fp32 only: the walk evaluates float32 interactions. Several GPUs each hold every body
        // and the same tree and walk a share of its groups (cuda/tree/tree_engine.cuh). Not over_ranks: its
        // forces on a range of bodies need every body's cells; the CUDA tree engine runs over MPI ranks by
        // holding every body on every rank, as it does over GPUs (RangePartition::gather_runs).
        {ForceMethod::Tree, "tree",
         "Barnes-Hut tree: near bodies one by one, far groups as one cell (opening angle theta); about N log N "
         "interactions a step, leap-frog in fp32",
         0, bit(Precision::Fp32), /*several_parts*/ true, /*over_ranks*/ false, false, true, true, n_log2_squared,
         nullptr, tree_params_label},  // its parameters' ranges are all it checks (core/rows/param_registry.cpp)
    };
    // clang-format on
    return rows;
}

}  // namespace

const std::vector<MethodInfo>& method_rows() {
    std::vector<MethodInfo>& rows = rows_held();
    // The integrator rows the masks were made from (rows are only added); made at the first call, a static's
    // thread-safe initialisation, so only adding a row afterwards writes here.
    static std::size_t made_for = (with_integrators(rows), integrator_rows().size());
    if (made_for != integrator_rows().size()) with_integrators(rows), made_for = integrator_rows().size();
    return rows;
}

ForceMethod add_method_row(MethodInfo row) {
    std::vector<MethodInfo>& rows = rows_held();
    row.id = static_cast<ForceMethod>(rows.size());  // the built-in ids are 0 .. count - 1, in order
    add_method_to_integrators(row.id, row.integrators);
    rows.push_back(row);
    with_integrators(rows);  // the integrator rows now list it: every mask made again from them
    return row.id;
}

const MethodInfo& method_info(ForceMethod m) { return row_of(method_rows(), m); }

const std::vector<NamedValue<ForceMethod>>& method_table() {
    static std::vector<NamedValue<ForceMethod>> table = names_of_rows<ForceMethod>(method_rows());
    if (table.size() != method_rows().size()) table = names_of_rows<ForceMethod>(method_rows());  // one was added
    return table;
}
std::optional<ForceMethod> parse_method(std::string_view s) { return parse_named(method_table(), s); }
std::string_view method_name(ForceMethod m) { return method_info(m).name; }
std::string kernel_label(const SimParams& p) { return method_info(p.method).label(p); }

}  // namespace nbody
