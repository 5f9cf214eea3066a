#pragma once
// The simulation's parameters (nbody::api::Params) by name: one table gives the Python properties, the
// keyword arguments of the constructors and set_params, and the params dict, so a new field is one row.
#include <pybind11/pybind11.h>

#include <nbody/nbody.hpp>

#include <string>
#include <vector>

namespace nbody::python {

namespace py = pybind11;

struct ParamField {
    const char* name;
    const char* doc;  // the property's docstring: meaning, units, allowed values
    py::object (*get)(const api::Params&, const char* name);
    void (*set)(api::Params&, const py::handle&, const char* name);  // throws py::type_error naming it
};

const std::vector<ParamField>& param_fields();

// `p` with the keyword arguments applied; an unknown name is a TypeError listing the known ones. The caller
// validates the result (libnbody's set_params or from_arrays), so range errors come from the engine.
api::Params with_kwargs(api::Params p, const py::kwargs& kwargs);

// {"dt": 0.01, "backend": "auto", ...}
py::dict params_dict(const api::Params& p);

}  // namespace nbody::python
