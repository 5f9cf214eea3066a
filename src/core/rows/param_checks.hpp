#pragma once
// The checks of a SimParams: the registry's ranges, the rows' combinations (integrator, method, precision), what
// a backend has code for. Above the parameter block, the registry and the rows, which all three read.
#include <string>
#include <string_view>

#include "core/rows/sim_params.hpp"

namespace nbody {

// Throws ParamError naming the first field out of range and its allowed range, or the integrator, method and
// precision rows that do not run together.
void validate(const SimParams& p);

// After a change of method: the integrator and precision moved to the first ones the method runs with where
// it does not run the current ones (the panels pick for the user rather than refuse).
void fit_to_method(SimParams& p);

// What a backend (or engine) has code for: the schemes, methods and precisions it runs. Empty, or the
// ParamError words for the first field of `p` it cannot run, naming the backend and both values.
struct BackendReach {
    std::string_view backend;  // "the gl backend"
    unsigned schemes;          // bit 1 << Scheme
    unsigned methods;          // bit 1 << ForceMethod
    unsigned precisions;       // bit 1 << Precision
};
void check_reach(const BackendReach& r, const SimParams& p);  // throws ParamError
// A backend's words for a method it has no code for, naming what runs it: "the gl backend runs method direct
// only (got tree); choose backend cpu, which runs every method". check_reach's, and the backend rows' where the
// factory passes over a backend for the method (engine/backend_chooser.hpp): there without the advice
// (advise false), since `auto` goes on to a backend that runs it.
std::string method_reach_words(std::string_view backend, unsigned methods, ForceMethod m, bool advise = true);

}  // namespace nbody
