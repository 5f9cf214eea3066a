#include "params.hpp"

namespace nbody::python {

namespace {

template <typename T>
T cast_field(const py::handle& value, const char* name, const char* type_name) {
    // bool is an int to Python; refuse it so that dt=True is an error, not 1.0.
    if (PyBool_Check(value.ptr()))
        throw py::type_error(std::string(name) + ": must be " + type_name + " (got bool)");
    try {
        return value.cast<T>();
    } catch (const py::cast_error&) {
        throw py::type_error(std::string(name) + ": must be " + type_name + " (got " +
                             Py_TYPE(value.ptr())->tp_name + ")");
    }
}

// Rows of the table: a field read and written through its member pointer.
template <double api::Params::*M>
ParamField number(const char* name, const char* doc) {
    return {name, doc, [](const api::Params& p) -> py::object { return py::float_(p.*M); },
            [](api::Params& p, const py::handle& v, const char* n) {
                p.*M = cast_field<double>(v, n, "a number");
            }};
}
template <int api::Params::*M>
ParamField integer(const char* name, const char* doc) {
    return {
        name, doc, [](const api::Params& p) -> py::object { return py::int_(p.*M); },
        [](api::Params& p, const py::handle& v, const char* n) { p.*M = cast_field<int>(v, n, "an int"); }};
}
template <std::string api::Params::*M>
ParamField text(const char* name, const char* doc) {
    return {name, doc, [](const api::Params& p) -> py::object { return py::str(p.*M); },
            [](api::Params& p, const py::handle& v, const char* n) {
                if (!PyUnicode_Check(v.ptr()))
                    throw py::type_error(std::string(n) + ": must be a str (got " +
                                         Py_TYPE(v.ptr())->tp_name + ")");
                p.*M = v.cast<std::string>();
            }};
}

}  // namespace

const std::vector<ParamField>& param_fields() {
    static const std::vector<ParamField> fields = {
        number<&api::Params::dt>(
            "dt", "Time step in N-body units, from 1e-12 to 1e6 (hermite-block: the largest block step)."),
        number<&api::Params::eps>(
            "eps",
            "Plummer softening length: 0, or from 1e-9 to 1e4. Changing it restarts the energy baseline."),
        number<&api::Params::G>("G",
                                "Gravitational constant, from 1e-12 to 1e12 (1 in N-body units). Changing it "
                                "restarts the energy baseline."),
        number<&api::Params::eta>("eta", "Aarseth's accuracy parameter of hermite-block, in (0, 1]."),
        text<&api::Params::backend>(
            "backend", "'auto' (CUDA where a usable device exists, else the CPU), 'cpu' or 'cuda'."),
        text<&api::Params::precision>("precision", "'fp32', 'ds' (double-single) or 'fp64'."),
        text<&api::Params::integrator>("integrator",
                                       "'leapfrog', 'hermite' or 'hermite-block' (individual block steps)."),
        text<&api::Params::variant>("variant",
                                    "The CUDA kernel: 'auto' or a variant name (none, i-unrolled, "
                                    "ij-unrolled, tensor, pairs); the CPU backend ignores it."),
        text<&api::Params::method>("method", "How forces are found: 'direct' summation."),
        integer<&api::Params::gpus>("gpus",
                                    "GPUs the CUDA backend spreads the bodies over: 1 to 64, 0 = all."),
        integer<&api::Params::cpu_threads>("cpu_threads", "CPU backend threads: 1 to 1024, 0 = all."),
    };
    return fields;
}

api::Params with_kwargs(api::Params p, const py::kwargs& kwargs) {
    for (const auto& [key, value] : kwargs) {
        const std::string name = py::str(key);
        bool known = false;
        for (const ParamField& f : param_fields()) {
            if (name != f.name) continue;
            f.set(p, value, f.name);
            known = true;
        }
        if (!known) {
            std::string names;
            for (const ParamField& f : param_fields())
                names += std::string(names.empty() ? "" : ", ") + f.name;
            throw py::type_error("unknown parameter '" + name + "' (known: " + names + ")");
        }
    }
    return p;
}

py::dict params_dict(const api::Params& p) {
    py::dict d;
    for (const ParamField& f : param_fields()) d[f.name] = f.get(p);
    return d;
}

}  // namespace nbody::python
