#include "api/api_params.hpp"

#include <string_view>

#include "core/errors.hpp"
#include "core/kernels/kernel_family.hpp"
#include "core/rows/force_method.hpp"
#include "core/rows/integrator.hpp"
#include "core/rows/param_checks.hpp"
#include "core/rows/param_registry.hpp"

namespace nbody::api {

namespace {
std::string quoted(const std::string& s) {
    return "(got '" + s + "')";
}

std::string method_param_names() {  // "theta, alpha, leaf, group"
    std::string out;
    for (const ParamSpec& s : param_registry())
        if (s.methods != 0) out += (out.empty() ? "" : ", ") + std::string(s.name);
    return out;
}

std::string variant_names() {
    std::string out;
    for (const VariantInfo& v : variant_table()) out += ", " + std::string(v.name);
    return out;
}
}  // namespace

SimParams to_sim_params(const Params& p) {
    SimParams s;
    s.dt = p.dt, s.eps = p.eps, s.G = p.G, s.eta = p.eta;
    s.gpus = p.gpus, s.cpu_threads = p.cpu_threads;
    const auto backend = parse_backend_kind(p.backend);
    if (!backend)
        throw ParamError("backend", "must be one of " + joined_names(backend_kind_table()) + " " + quoted(p.backend));
    s.backend = *backend;
    const auto precision = parse_precision(p.precision);
    if (!precision)
        throw ParamError("precision",
                         "must be one of " + joined_names(precision_table()) + " " + quoted(p.precision));
    s.precision = *precision;
    const auto integrator = parse_integrator(p.integrator);
    if (!integrator)
        throw ParamError("integrator",
                         "must be one of " + joined_names(integrator_table()) + " " + quoted(p.integrator));
    s.integrator = *integrator;
    const auto method = parse_method(p.method);
    if (!method)
        throw ParamError("method", "must be one of " + joined_names(method_table()) + " " + quoted(p.method));
    s.method = *method;
    s.kernel_auto = p.variant == "auto";
    if (!s.kernel_auto) {
        const auto variant = parse_variant(p.variant);
        if (!variant) throw ParamError("variant", "must be auto" + variant_names() + " " + quoted(p.variant));
        s.variant = *variant;
        s.shape = variant_info(*variant).default_shape;
    }
    for (const auto& [name, value] : p.method_params) {
        const ParamSpec* spec = find_param(name);
        if (!spec || spec->methods == 0) throw ParamError(name, "not a method parameter (known: " + method_param_names() + ")");
        check_param(*spec, value);
        spec->set(s, value);
    }
    validate(s);
    return s;
}

Params from_sim_params(const SimParams& s) {
    Params p;
    p.dt = s.dt, p.eps = s.eps, p.G = s.G, p.eta = s.eta;
    p.gpus = s.gpus, p.cpu_threads = s.cpu_threads;
    p.backend = std::string(backend_kind_name(s.backend));
    p.precision = std::string(precision_name(s.precision));
    p.integrator = std::string(integrator_name(s.integrator));
    p.variant = s.kernel_auto ? "auto" : std::string(variant_name(s.variant));
    p.method = std::string(method_name(s.method));
    for (const ParamSpec& spec : param_registry())
        if (spec.methods != 0) p.method_params[std::string(spec.name)] = spec.get(s);
    return p;
}

std::vector<std::string> choices(const std::string& field) {
    if (field == "backend") return names_of(backend_kind_table());
    if (field == "precision") return names_of(precision_table());
    if (field == "integrator") return names_of(integrator_table());
    if (field == "method") return names_of(method_table());
    if (field == "variant") {
        std::vector<std::string> out{"auto"};
        for (const VariantInfo& v : variant_table()) out.emplace_back(v.name);
        return out;
    }
    return {};
}

std::vector<ParameterInfo> parameters() {
    std::vector<ParameterInfo> out;
    const SimParams defaults;
    for (const ParamSpec& s : param_registry())
        out.push_back({std::string(s.name), s.whole, s.lo, s.hi, std::string(s.zero), std::string(s.unit),
                       param_scope(s), std::string(s.help), s.get(defaults)});
    return out;
}

void validate(const Params& p) {
    to_sim_params(p);
}

}  // namespace nbody::api
