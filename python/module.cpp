// The Python module `nbody` over libnbody's public API (include/nbody/nbody.hpp): the engine's errors become
// Python exceptions carrying its messages (a bad parameter, array or scene file: ValueError; a backend or
// run-time failure: RuntimeError).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <nbody/nbody.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "py_simulation.hpp"
#include "scene/scene_names.hpp"

namespace py = pybind11;

namespace {

void translate_errors(std::exception_ptr p) {
    try {
        if (p) std::rethrow_exception(p);
    } catch (const nbody::ParamError& e) {
        PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const nbody::SceneError& e) {
        PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const nbody::Error& e) {  // BackendError, a NaN state, an unreadable or unwritable file
        PyErr_SetString(PyExc_RuntimeError, e.what());
    }
}

// The shipped scenes' names (without .toml), sorted.
std::vector<std::string> scenes() {
    return nbody::scene_names(nbody::api::scenes_dir());
}

// Every numeric parameter (the engine's registry, through the public API), as dicts.
py::list parameter_list() {
    py::list out;
    for (const nbody::api::ParameterInfo& p : nbody::api::parameters()) {
        py::dict d;
        d["name"] = p.name, d["whole"] = p.whole, d["lo"] = p.lo, d["hi"] = p.hi, d["zero"] = p.zero;
        d["unit"] = p.unit, d["applies_to"] = p.applies_to, d["help"] = p.help, d["default"] = p.default_value;
        out.append(d);
    }
    return out;
}
}  // namespace

PYBIND11_MODULE(nbody, m) {
    m.doc() = R"(nbody: the nbody-sandbox engine (libnbody) from Python.

Direct-summation gravity on CUDA or a vectorised CPU backend, leap-frog and 4th-order Hermite integrators,
the sandbox's scene files and snapshots. N-body units (G = 1 by default) throughout.

    import nbody
    sim = nbody.Simulation("plummer", bodies=1024, backend="cpu")
    sim.evolve(1.0)
    print(sim.diagnostics()["energy_error"])
)";
    // numpy at import, not at the first call that hands back an array: without it the module says so now.
    try {
        py::module_::import("numpy");
    } catch (py::error_already_set& e) {
        throw py::import_error("nbody needs numpy, which this python3 cannot import (" +
                               std::string(e.what()) +
                               "); install it: apt-get install python3-numpy (Debian's python3) or python3 "
                               "-m pip install numpy");
    }
    m.attr("__version__") = nbody::api::version();
    py::register_exception_translator(&translate_errors);
    m.def("version", &nbody::api::version, "The version of libnbody in use, e.g. '0.1.0'.");
    m.def("cuda_built", &nbody::api::cuda_built,
          "Whether libnbody was built with the CUDA backend (a device may still be missing).");
    m.def("cuda_device_count", &nbody::api::cuda_device_count,
          "CUDA devices libnbody can use: 0 without the CUDA backend, a driver or a device.");
    m.def("scenes_dir", &nbody::api::scenes_dir,
          "The folder of the shipped scenes (the environment variable NBODY_SCENE_DIR overrides it).");
    m.def("scenes", &scenes, "The shipped scenes' names, which Simulation(scene) accepts.");
    m.def("parameters", &parameter_list,
          "Every numeric parameter: a list of dicts with name, whole (an int), lo and hi (the allowed range), "
          "zero (what 0 means where it is allowed too), unit, applies_to ('method tree', or '' for every run), "
          "help and default.");
    nbody::python::bind_simulation(m);
    nbody::python::bind_bench(m);
}
