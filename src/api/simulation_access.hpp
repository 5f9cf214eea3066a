#pragma once
// What the project's own front ends may do to an api::Simulation beyond the public API: the Python module
// makes its backends with the GL compute row (gl_backend/gl_backend_factory.hpp), which libnbody cannot link.
#include "core/session/simulation.hpp"
#include "nbody/nbody.hpp"

namespace nbody::api {

struct SimulationAccess {
    // How `s` makes its backends from now on (the first one, and those a change of backend needs).
    static void set_backend_factory(Simulation& s, BackendFactory f);
};

}  // namespace nbody::api
