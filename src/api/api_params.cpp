#include "api/api_params.hpp"

#include <string_view>

#include "core/errors.hpp"

namespace nbody::api {

namespace {
std::string quoted(const std::string& s) {
    return "(got '" + s + "')";
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
    if (!backend) throw ParamError("backend", "must be auto, cpu, cuda or gl " + quoted(p.backend));
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
    return p;
}

void validate(const Params& p) {
    to_sim_params(p);
}

}  // namespace nbody::api
