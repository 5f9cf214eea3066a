#pragma once
// The public Params (include/nbody/nbody.hpp: names as strings, stable across versions) to and from the
// engine's SimParams, with the engine's own validation and messages.
#include <string>

#include "core/rows/sim_params.hpp"
#include "nbody/nbody.hpp"

namespace nbody::api {

// Throws ParamError naming the field: the names a string field allows, or SimParams' range (validate).
SimParams to_sim_params(const Params& p);

// The public names of `s` (a scene's or a snapshot's parameters).
Params from_sim_params(const SimParams& s);

}  // namespace nbody::api
