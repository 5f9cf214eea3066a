#include "params.hpp"

#include <deque>
#include <stdexcept>
#include <string>

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

// Docstrings outlive the table (ParamField keeps pointers): a deque never moves what it holds.
const char* kept(std::string text) {
    static std::deque<std::string> docs;
    return docs.emplace_back(std::move(text)).c_str();
}

std::string number_text(double v) { return py::str(py::float_(v)).cast<std::string>(); }

// A numeric field's docstring from libnbody's registry row (api::parameters()): its help, where it applies,
// its range and unit and what 0 means, then what Python alone adds (`extra`).
const char* registry_doc(const api::ParameterInfo& info, const std::string& extra = "") {
    std::string range = "from " + number_text(info.lo) + " to " + number_text(info.hi);
    if (!info.unit.empty()) range += " " + info.unit;
    if (!info.zero.empty()) range = "0 (" + info.zero + "), or " + range;
    return kept(info.help + " (" + (info.applies_to.empty() ? "" : info.applies_to + "; ") + range + ")." + extra);
}
const api::ParameterInfo& registry_row(const char* name) {
    static const std::vector<api::ParameterInfo> infos = api::parameters();
    for (const api::ParameterInfo& info : infos)
        if (info.name == name) return info;
    throw std::logic_error(std::string("no registry row named ") + name);  // a typo in the table below
}

// A text field's docstring: what it chooses, then the names libnbody takes (api::choices), in its order.
const char* choices_doc(const char* field, const std::string& what) {
    std::string names;
    for (const std::string& c : api::choices(field)) names += (names.empty() ? "'" : ", '") + c + "'";
    return kept(what + ": one of " + names + ".");
}

void add_method_params(std::vector<ParamField>& fields) {
    static const std::vector<api::ParameterInfo> infos = api::parameters();  // names outlive the table
    for (const api::ParameterInfo& info : infos) {
        if (info.applies_to.rfind("method ", 0) != 0) continue;
        if (info.whole)
            fields.push_back({info.name.c_str(), registry_doc(info),
                              [](const api::Params& p, const char* n) -> py::object {
                                  return py::int_(static_cast<long long>(method_param(p, n)));
                              },
                              [](api::Params& p, const py::handle& v, const char* n) {
                                  p.method_params[n] = cast_field<int>(v, n, "an int");
                              }});
        else
            fields.push_back({info.name.c_str(), registry_doc(info),
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
        number<&api::Params::dt>("dt", registry_doc(registry_row("dt"))),
        number<&api::Params::eps>("eps",
                                  registry_doc(registry_row("eps"), " Changing it restarts the energy baseline.")),
        number<&api::Params::G>("G", registry_doc(registry_row("G"), " Changing it restarts the energy baseline.")),
        number<&api::Params::eta>("eta", registry_doc(registry_row("eta"))),
        text<&api::Params::backend>(
            "backend", choices_doc("backend", "Where the steps run (auto: CUDA where a usable device exists, else "
                                              "GL compute, else the CPU)")),
        text<&api::Params::precision>("precision",
                                      choices_doc("precision", "The force's arithmetic (ds: double-single)")),
        text<&api::Params::integrator>(
            "integrator", choices_doc("integrator", "How the bodies are stepped (-block: individual block steps)")),
        text<&api::Params::variant>(
            "variant", choices_doc("variant", "The CUDA kernel (auto: tuned for N and the GPU; the CPU backend "
                                              "ignores it)")),
        text<&api::Params::method>("method", choices_doc("method", "How forces are found (tree: Barnes-Hut)")),
        integer<&api::Params::gpus>("gpus", registry_doc(registry_row("gpus"))),
        integer<&api::Params::cpu_threads>("cpu_threads", registry_doc(registry_row("cpu_threads"))),
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
