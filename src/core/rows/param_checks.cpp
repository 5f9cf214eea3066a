#include "core/rows/param_checks.hpp"

#include <string>

#include "core/errors.hpp"
#include "core/rows/force_method.hpp"
#include "core/rows/integrator.hpp"
#include "core/kernels/kernel_family.hpp"
#include "core/rows/param_registry.hpp"

namespace nbody {

namespace {
// The integrator and method rows must run together, and in the precision asked: the method's row names what
// it takes ("the tree runs with leapfrog and leapfrog-block only (got hermite)"), then the integrator's.
void validate_combination(const SimParams& p) {
    const MethodInfo& m = method_info(p.method);
    const IntegratorInfo& in = integrator_info(p.integrator);
    if (!(m.integrators & bit(p.integrator)))
        throw ParamError("integrator", "the " + std::string(m.name) + " runs with " +
                                           names_in(integrator_table(), m.integrators) + " only (got " +
                                           std::string(in.name) + "); choose " +
                                           names_in(integrator_table(), m.integrators, " or ") +
                                           ", or method " + names_in(method_table(), in.methods));
    if (!(m.precisions & bit(p.precision)))
        throw ParamError("precision", "the " + std::string(m.name) + " evaluates forces in " +
                                          names_in(precision_table(), m.precisions) + " only (got " +
                                          std::string(precision_name(p.precision)) + "); choose " +
                                          names_in(precision_table(), m.precisions) + ", or another method");
    if (!(in.methods & bit(p.method)))
        throw ParamError("method", "the " + std::string(in.name) + " integrator runs method " +
                                       names_in(method_table(), in.methods) + " only (got " +
                                       std::string(m.name) + ")");
    if (!(in.precisions & bit(p.precision)))
        throw ParamError("precision", "the " + std::string(in.name) + " integrator runs in " +
                                          names_in(precision_table(), in.precisions) + " only (got " +
                                          std::string(precision_name(p.precision)) + ")");
}
}  // namespace

void fit_to_method(SimParams& p) {
    const MethodInfo& m = method_info(p.method);
    if (!(m.integrators & bit(p.integrator)))
        for (const IntegratorInfo& row : integrator_rows())
            if (m.integrators & bit(row.id)) {
                p.integrator = row.id;
                break;
            }
    if (!(m.precisions & bit(p.precision)))
        for (const auto& row : precision_table())
            if (m.precisions & bit(row.value)) {
                p.precision = row.value;
                break;
            }
}

std::string method_reach_words(std::string_view backend, unsigned methods, ForceMethod m, bool advise) {
    // The CPU backend is the reference: every method's recipe gives it an evaluator (cpu/cpu_force_evaluator.hpp).
    return std::string(backend) + " runs method " + names_in(method_table(), methods) + " only (got " +
           std::string(method_name(m)) + ")" + (advise ? "; choose backend cpu, which runs every method" : "");
}

void check_reach(const BackendReach& r, const SimParams& p) {
    const IntegratorInfo& in = integrator_info(p.integrator);
    if (!(r.methods & bit(p.method))) throw ParamError("method", method_reach_words(r.backend, r.methods, p.method));
    if (!(r.schemes & bit(in.scheme))) {
        std::string takes;  // the integrators whose scheme it has
        for (const IntegratorInfo& row : integrator_rows())
            if (r.schemes & bit(row.scheme)) takes += (takes.empty() ? "" : " and ") + std::string(row.name);
        throw ParamError("integrator", std::string(r.backend) + " runs " + takes + " only (got " +
                                           std::string(in.name) + ")");
    }
    if (!(r.precisions & bit(p.precision)))
        throw ParamError("precision", std::string(r.backend) + " runs " + names_in(precision_table(), r.precisions) +
                                          " only (got " + std::string(precision_name(p.precision)) + ")");
}

void validate(const SimParams& p) {
    // The ranges of every numeric field (core/rows/param_registry.cpp), whatever method reads them, so a switch of
    // method or integrator later finds them valid; then the rows' combinations and the method's own rules.
    for (const ParamSpec& spec : param_registry()) check_param(spec, spec.get(p));
    validate_combination(p);
    if (const MethodInfo& m = method_info(p.method); m.validate) m.validate(p);
}

// TreeParams' own check (core/tree/tree_params.hpp) is the registry's tree rows, so it lives beside the
// registry's other checks rather than under the parameter block the registry describes.
void TreeParams::validate() const {
    SimParams p;
    p.tree = *this;
    for (const ParamSpec& spec : param_registry())
        if (spec.methods & bit(ForceMethod::Tree)) check_param(spec, spec.get(p));
}

}  // namespace nbody
