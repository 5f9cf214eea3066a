#include "core/sim_params.hpp"

#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "core/limits.hpp"
#include "core/param_registry.hpp"

namespace nbody {

namespace {
const std::array<NamedValue<BackendKind>, 4> kBackends = {{
    {BackendKind::Auto, "auto", "CUDA where a usable device exists, else GL compute on a GPU, else the CPU"},
    {BackendKind::Cpu, "cpu", "every core, vectorised; the numerical reference"},
    {BackendKind::Cuda, "cuda", "the GPU kernels"},
    {BackendKind::Gl, "gl", "OpenGL 4.3 compute shaders: any GPU's GL driver (fp32, leapfrog, direct)"},
}};
}  // namespace

std::optional<BackendKind> parse_backend_kind(std::string_view s) {
    return parse_named(kBackends, s);
}
std::string_view backend_kind_name(BackendKind k) {
    return name_of(kBackends, k);
}

const std::array<NamedValue<Precision>, 3>& precision_table() {
    static const std::array<NamedValue<Precision>, 3> table = {{
        {Precision::Fp32, "fp32", "float32 throughout: the fastest"},
        {Precision::DS, "ds",
         "double-single: positions kept in double, x_j - x_i formed in double-single, the rest in float32"},
        {Precision::Fp64, "fp64", "IEEE double throughout: the reference arithmetic, at the fp64 rate"},
    }};
    return table;
}
std::optional<Precision> parse_precision(std::string_view s) {
    return parse_named(precision_table(), s);
}
std::string_view precision_name(Precision p) {
    return name_of(precision_table(), p);
}

namespace {
template <class E, std::size_t N>
std::string names_in(const std::array<NamedValue<E>, N>& table, unsigned mask,
                     const char* join = " and ") {  // "fp32", "ds and fp64" ("ds or fp64" to choose from)
    std::string out;
    for (const auto& row : table)
        if (mask & bit(row.value)) out += (out.empty() ? "" : join) + std::string(row.name);
    return out;
}

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

void check_reach(const BackendReach& r, const SimParams& p) {
    const IntegratorInfo& in = integrator_info(p.integrator);
    if (!(r.methods & bit(p.method)))
        throw ParamError("method", std::string(r.backend) + " runs method " + names_in(method_table(), r.methods) +
                                       " only (got " + std::string(method_name(p.method)) + ")");
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
    // The ranges of every numeric field (core/param_registry.cpp), whatever method reads them, so a switch of
    // method or integrator later finds them valid; then the rows' combinations and the method's own rules.
    for (const ParamSpec& spec : param_registry()) check_param(spec, spec.get(p));
    validate_combination(p);
    if (const MethodInfo& m = method_info(p.method); m.validate) m.validate(p);
}

void validate_variant_precision(KernelVariant v, Precision p) {
    const FamilyInfo& f = variant_info(v);
    if (runs_in(f, p)) return;
    const std::string ok = names_in(precision_table(), f.precisions);                       // "fp32"
    const std::string others = names_in(precision_table(), kAllPrecisions & ~f.precisions);  // "ds and fp64"
    throw ParamError("precision", "the " + std::string(f.name) + " kernel runs in " + ok + " only (got " +
                                      std::string(precision_name(p)) + "); choose " + ok + ", or another variant for " +
                                      others);
}

std::vector<int> devices_for(int gpus, int available, std::string* note) {
    if (note) note->clear();
    const int want = gpus == 0 ? available : gpus;
    const int take = std::max(1, std::min(want, available));
    if (want > available && note)
        *note = "asked for " + std::to_string(want) + " GPUs; this machine has " + std::to_string(available) +
                ": running on " + std::to_string(take);
    std::vector<int> out;
    for (int d = 0; d < take; ++d) out.push_back(d);
    return out;
}

bool same_params(const SimParams& a, const SimParams& b) {
    return a.dt == b.dt && a.eps == b.eps && a.G == b.G && a.steps_per_frame == b.steps_per_frame &&
           a.backend == b.backend && a.method == b.method && a.kernel_auto == b.kernel_auto && a.variant == b.variant &&
           a.shape == b.shape && a.precision == b.precision && a.integrator == b.integrator &&
           a.eta == b.eta && a.gpus == b.gpus && a.cpu_threads == b.cpu_threads && a.tree == b.tree;
}

std::string kernel_label(const SimParams& p) {
    return method_info(p.method).label(p);
}

}  // namespace nbody
