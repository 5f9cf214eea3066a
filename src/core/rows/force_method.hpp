#pragma once
// The force method: how the accelerations are found, an axis above the kernel family. One descriptor row per
// method answers what the rest of the code asks of it (integrators and precisions it runs with, several GPUs,
// MPI ranks, whether its forces are approximate, whether it has cells to draw, how its work grows with N).
// Direct summation runs through the kernel families of core/kernels/kernel_family.hpp; the tree code (src/cpu/tree,
// cuda/tree) has one implementation per backend and its own parameter block (SimParams::tree).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/counters.hpp"  // StepWork
#include "core/enums/force_method_id.hpp"
#include "core/named_enum.hpp"

namespace nbody {

struct SimParams;  // core/rows/sim_params.hpp


struct MethodInfo {
    ForceMethod id;
    std::string_view name;  // as typed on the command line and in scene files, and shown in the UI
    std::string_view description;
    unsigned integrators;  // bit 1 << Integrator it runs with: those whose rows list this method
    unsigned precisions;   // bit 1 << Precision its forces are evaluated in
    bool several_parts;    // spread over several GPUs of one process
    bool over_ranks;       // run as one rank of several (MPI): needs only its own bodies' forces
    bool kernel_families;  // its kernels are the direct families (variant, shape, auto choice, tuning)
    bool approximate;      // its forces are approximations: the panels sample and show the force error
    bool has_cells;        // it builds cells a backend can hand out for drawing (Readouts::tree_cells)
    // Work a step of n bodies up to a constant factor, for estimates (load plans, cost of a diagnostic):
    // n^2 for direct summation, n log^2 n for the tree.
    double (*relative_work)(double n);
    // Its own rules beyond the registry's ranges (throws ParamError naming the field; null: none) and its label for the panels and
    // summaries ("auto", "ij-unrolled k 4 u 4 block 256 q auto", "tree theta 1 alpha 0.001 leaf 32 group 32").
    void (*validate)(const SimParams& p);
    std::string (*label)(const SimParams& p);
};

// Every method, in the order the UI lists them: the built-in rows, then any added (add_method_row).
// `integrators` follows the integrator rows, those added included.
const std::vector<MethodInfo>& method_rows();
const MethodInfo& method_info(ForceMethod m);
// Appends a row whose id is the next value past the built-in ones (what a new enumerator in
// core/enums/force_method_id.hpp would be) and returns it: how a test proves that a method row, with a CPU
// evaluator registered beside it (cpu/cpu_force_evaluator.hpp), runs with nothing else edited. The row's
// `integrators` names the integrators it runs with: their rows list it from then on, so both rows agree. Call
// it before anything reads the rows on another thread: the tables made from the rows are made again.
ForceMethod add_method_row(MethodInfo row);

// The bits (bit(ForceMethod)) of the methods for which runs(id) is true: a backend's reach from its test.
template <class Runs>
unsigned methods_where(const Runs& runs) {
    unsigned bits = 0;
    for (const MethodInfo& m : method_rows())
        if (runs(m.id)) bits |= bit(m.id);
    return bits;
}

const std::vector<NamedValue<ForceMethod>>& method_table();
std::optional<ForceMethod> parse_method(std::string_view s);  // "direct", "tree"
std::string_view method_name(ForceMethod m);

// The running method's label: "auto", "ij-unrolled k 4 u 4 block 256 q auto", "tree theta 1 leaf 32 group 32".
std::string kernel_label(const SimParams& p);

}  // namespace nbody
