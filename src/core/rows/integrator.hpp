#pragma once
// One descriptor row per integrator: the one place that answers what an integrator runs with (force methods,
// precisions, several GPUs, MPI ranks), what its steps are (shared or block), what a restart needs, what it
// carries beyond positions and velocities (so a checkpoint exports it), and what its work counters count.
// Callers read the row (integrator_info) instead of testing for particular integrators; a backend runs the
// schemes it has an engine for and refuses the others by name (core/backend_reach.hpp).
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/enums/force_method_id.hpp"
#include "core/enums/integrator_id.hpp"
#include "core/named_enum.hpp"

namespace nbody {

struct IntegratorInfo {
    Integrator id;
    std::string_view name;  // as typed on the command line and in scene files, and shown in the UI
    std::string_view description;
    Scheme scheme;
    int order;
    // Individual power-of-two steps: SimParams::dt is the largest, one step() is one block step (the bodies
    // whose steps end first), and the clock advances by a varying amount.
    bool block_steps;
    unsigned methods;     // bit 1 << ForceMethod it integrates
    unsigned precisions;  // bit 1 << Precision its force evaluations run in
    bool several_parts;   // spread over several GPUs of one process
    bool over_ranks;      // run as one rank of several (MPI)
    bool restarts_on_dt;  // a new dt restarts it (its steps are tied to dt), not only eps, G and eta
    // It carries state beyond positions, velocities and accelerations (jerks, each body's time and step): a
    // checkpoint exports it, and drawing or reading the state needs the bodies synchronised first.
    bool own_state;
    double flops_per_pair;         // what one body-body interaction is credited with (core/counters.hpp)
    std::string_view pair_terms;   // what one interaction evaluates, for the Performance panel
};

// Every integrator, in the order the UI lists them: the built-in rows, then any added (add_integrator_row).
const std::vector<IntegratorInfo>& integrator_rows();
const IntegratorInfo& integrator_info(Integrator i);
// Appends a row whose id is the next value past the built-in ones (what a new enumerator in
// core/enums/integrator_id.hpp would be) and returns it: how a test proves that a row alone runs (through
// validation, the registry, scene files and the driver) with nothing else edited. Call it before anything
// reads the rows on another thread: the tables made from the rows are made again when it has added one.
Integrator add_integrator_row(IntegratorInfo row);
// The integrators whose bits are set in `integrators` run method m from now on: their rows list it in
// `methods`. What add_method_row (core/rows/force_method.hpp) calls, so an added method's row and the
// integrator rows agree on the pairs that run.
void add_method_to_integrators(ForceMethod m, unsigned integrators);

// Name tables for parsing and for combo boxes, made from the rows.
const std::vector<NamedValue<Integrator>>& integrator_table();
std::optional<Integrator> parse_integrator(std::string_view s);  // "leapfrog", "leapfrog-block", ...
std::string_view integrator_name(Integrator i);
std::string_view scheme_name(Scheme s);
// Bits (bit(Integrator)) of the integrators whose rows have block steps, and their names in row order
// ("hermite-block, hermite6-block, leapfrog-block"): help texts and parameter scopes read these, not a list.
unsigned block_step_integrators();
std::string block_step_integrator_names();
// The integrator of i's scheme with shared (block false) or block steps, from the rows (hermite6 and true:
// hermite6-block); i itself where its scheme has no such row.
Integrator with_block_steps(Integrator i, bool block);


}  // namespace nbody
