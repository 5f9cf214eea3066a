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
    return {name, doc, [](const api::Params& p, const char*) -> py::object { return py::float_(p.*M); },
            [](api::Params& p, const py::handle& v, const char* n) {
                p.*M = cast_field<double>(v, n, "a number");
            }};
}
template <int api::Params::*M>
ParamField integer(const char* name, const char* doc) {
    return {
        name, doc, [](const api::Params& p, const char*) -> py::object { return py::int_(p.*M); },
        [](api::Params& p, const py::handle& v, const char* n) { p.*M = cast_field<int>(v, n, "an int"); }};
}
template <std::string api::Params::*M>
ParamField text(const char* name, const char* doc) {
    return {name, doc, [](const api::Params& p, const char*) -> py::object { return py::str(p.*M); },
            [](api::Params& p, const py::handle& v, const char* n) {
                if (!PyUnicode_Check(v.ptr()))
                    throw py::type_error(std::string(n) + ": must be a str (got " +
                                         Py_TYPE(v.ptr())->tp_name + ")");
                p.*M = v.cast<std::string>();
            }};
}

// The force method's own parameters (api::parameters() rows that apply to a method: theta, alpha, leaf, group),
// kept in Params::method_params by name; one not set reads as its default.
double method_param(const api::Params& p, const char* name) {
    if (auto it = p.method_params.find(name); it != p.method_params.end()) return it->second;
    for (const api::ParameterInfo& info : api::parameters())
        if (info.name == name) return info.default_value;
    return 0;
}

void add_method_params(std::vector<ParamField>& fields) {
    static const std::vector<api::ParameterInfo> infos = api::parameters();  // names and docs outlive the table
    static std::vector<std::string> docs;
    docs.reserve(infos.size());
    for (const api::ParameterInfo& info : infos) {
        if (info.applies_to.rfind("method ", 0) != 0) continue;
        docs.push_back(info.help + " (" + info.applies_to + "; from " + py::str(py::float_(info.lo)).cast<std::string>() +
                       " to " + py::str(py::float_(info.hi)).cast<std::string>() +
                       (info.unit.empty() ? "" : " " + info.unit) + ").");
        if (info.whole)
            fields.push_back({info.name.c_str(), docs.back().c_str(),
                              [](const api::Params& p, const char* n) -> py::object {
                                  return py::int_(static_cast<long long>(method_param(p, n)));
                              },
                              [](api::Params& p, const py::handle& v, const char* n) {
                                  p.method_params[n] = cast_field<int>(v, n, "an int");
                              }});
        else
            fields.push_back({info.name.c_str(), docs.back().c_str(),
                              [](const api::Params& p, const char* n) -> py::object {
                                  return py::float_(method_param(p, n));
                              },
                              [](api::Params& p, const py::handle& v, const char* n) {
                                  p.method_params[n] = cast_field<double>(v, n, "a number");
                              }});
    }
}

}  // namespace

const std::vector<ParamField>& param_fields() {
    static const std::vector<ParamField> fields = [] {
        std::vector<ParamField> f = {
        number<&api::Params::dt>(
            "dt", "Time step in N-body units, from 1e-12 to 1e6 (hermite-block: the largest block step)."),
        number<&api::Params::eps>(
            "eps",
            "Plummer softening length: 0, or from 1e-9 to 1e4. Changing it restarts the energy baseline."),
        number<&api::Params::G>("G",
                                "Gravitational constant, from 1e-12 to 1e12 (1 in N-body units). Changing it "
                                "restarts the energy baseline."),
        number<&api::Params::eta>("eta",
                                  "Block-step accuracy parameter of hermite-block, hermite6-block (Aarseth's "
                                  "criterion) and leapfrog-block (eta sqrt(eps / |a|)), from 1e-6 to 1."),
        text<&api::Params::backend>(
            "backend", "'auto' (CUDA where a usable device exists, else the CPU), 'cpu' or 'cuda'."),
        text<&api::Params::precision>("precision", "'fp32', 'ds' (double-single) or 'fp64'."),
        text<&api::Params::integrator>("integrator",
                                       "'leapfrog', 'leapfrog-block', 'hermite', 'hermite-block' (individual block "
                                       "steps), 'hermite6' or 'hermite6-block' (6th order)."),
        text<&api::Params::variant>("variant",
                                    "The CUDA kernel: 'auto' or a variant name (none, i-unrolled, "
                                    "ij-unrolled, tensor, pairs); the CPU backend ignores it."),
        text<&api::Params::method>("method", "How forces are found: 'direct' summation or 'tree' (Barnes-Hut)."),
        integer<&api::Params::gpus>("gpus",
                                    "GPUs the CUDA backend spreads the bodies over: 1 to 64, 0 = all."),
        integer<&api::Params::cpu_threads>("cpu_threads", "CPU backend threads: 1 to 1024, 0 = all."),
        };
        add_method_params(f);
        return f;
    }();
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
    for (const ParamField& f : param_fields()) d[f.name] = f.get(p, f.name);
    return d;
}

}  // namespace nbody::python
