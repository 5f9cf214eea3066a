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

// One row per field: its name, docstring and the member it reads and writes.
#define NBODY_DOUBLE_FIELD(field, doc)                                                              \
    ParamField {                                                                                    \
        #field, doc, [](const api::Params& p) -> py::object { return py::float_(p.field); },        \
            [](api::Params& p, const py::handle& v) { p.field = cast_field<double>(v, #field, "a number"); } \
    }
#define NBODY_STRING_FIELD(field, doc)                                                               \
    ParamField {                                                                                     \
        #field, doc, [](const api::Params& p) -> py::object { return py::str(p.field); },            \
            [](api::Params& p, const py::handle& v) {                                                \
                if (!PyUnicode_Check(v.ptr()))                                                       \
                    throw py::type_error(std::string(#field) + ": must be a str (got " +             \
                                         Py_TYPE(v.ptr())->tp_name + ")");                           \
                p.field = v.cast<std::string>();                                                     \
            }                                                                                        \
    }
#define NBODY_INT_FIELD(field, doc)                                                                  \
    ParamField {                                                                                     \
        #field, doc, [](const api::Params& p) -> py::object { return py::int_(p.field); },           \
            [](api::Params& p, const py::handle& v) { p.field = cast_field<int>(v, #field, "an int"); } \
    }

}  // namespace

const std::vector<ParamField>& param_fields() {
    static const std::vector<ParamField> fields = {
        NBODY_DOUBLE_FIELD(dt, "Time step in N-body units, from 1e-12 to 1e6 (hermite-block: the largest block "
                               "step)."),
        NBODY_DOUBLE_FIELD(eps, "Plummer softening length: 0, or from 1e-9 to 1e4. Changing it restarts the "
                                "energy baseline."),
        NBODY_DOUBLE_FIELD(G, "Gravitational constant, from 1e-12 to 1e12 (1 in N-body units). Changing it "
                              "restarts the energy baseline."),
        NBODY_DOUBLE_FIELD(eta, "Aarseth's accuracy parameter of hermite-block, in (0, 1]."),
        NBODY_STRING_FIELD(backend, "'auto' (CUDA where a usable device exists, else the CPU), 'cpu' or "
                                    "'cuda'."),
        NBODY_STRING_FIELD(precision, "'fp32', 'ds' (double-single) or 'fp64'."),
        NBODY_STRING_FIELD(integrator, "'leapfrog', 'hermite' or 'hermite-block' (individual block steps)."),
        NBODY_STRING_FIELD(variant, "The CUDA kernel: 'auto' or a variant name (none, i-unrolled, "
                                    "ij-unrolled, tensor, pairs); the CPU backend ignores it."),
        NBODY_STRING_FIELD(method, "How forces are found: 'direct' summation."),
        NBODY_INT_FIELD(gpus, "GPUs the CUDA backend spreads the bodies over: 1 to 64, 0 = all."),
        NBODY_INT_FIELD(cpu_threads, "CPU backend threads: 1 to 1024, 0 = all."),
    };
    return fields;
}

api::Params with_kwargs(api::Params p, const py::kwargs& kwargs) {
    for (const auto& [key, value] : kwargs) {
        const std::string name = py::str(key);
        bool known = false;
        for (const ParamField& f : param_fields()) {
            if (name != f.name) continue;
            f.set(p, value);
            known = true;
        }
        if (!known) {
            std::string names;
            for (const ParamField& f : param_fields()) names += std::string(names.empty() ? "" : ", ") + f.name;
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
