#include "core/sim_params.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/errors.hpp"
#include "core/limits.hpp"

namespace nbody {

namespace {
std::string got(double v) {
    std::ostringstream os;
    os.precision(17);
    os << " (got " << v << ")";
    return os.str();
}

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

const std::array<NamedValue<Integrator>, 3>& integrator_table() {
    static const std::array<NamedValue<Integrator>, 3> table = {{
        {Integrator::LeapFrog, "leapfrog",
         "kick-drift-kick leap-frog: 2nd order, symplectic, one force per step"},
        {Integrator::Hermite, "hermite", "4th-order Hermite predictor-corrector, one shared time step"},
        {Integrator::HermiteBlock, "hermite-block",
         "4th-order Hermite with individual block (power-of-two) time steps, Aarseth's criterion (eta)"},
    }};
    return table;
}
std::optional<Integrator> parse_integrator(std::string_view s) {
    return parse_named(integrator_table(), s);
}
std::string_view integrator_name(Integrator i) {
    return name_of(integrator_table(), i);
}

namespace {
// What the tree runs with: leap-frog in fp32 (its walk evaluates float32 interactions and the engines integrate
// with a shared step); several GPUs and MPI ranks are refused by the backends that would spread it.
void validate_tree(const SimParams& p) {
    p.tree.validate();
    if (p.integrator != Integrator::LeapFrog)
        throw ParamError("integrator", "the tree runs with leapfrog only (got " +
                                           std::string(integrator_name(p.integrator)) + "); choose leapfrog, or method direct");
    if (p.precision != Precision::Fp32)
        throw ParamError("precision", "the tree evaluates forces in fp32 only (got " +
                                          std::string(precision_name(p.precision)) + "); choose fp32, or method direct");
}
}  // namespace

void validate(const SimParams& p) {
    using namespace limits;  // the ranges and why: core/limits.hpp
    if (!(p.dt >= kMinDt && p.dt <= kMaxDt)) throw ParamError("dt", "must be from 1e-12 to 1e6" + got(p.dt));
    if (!(p.eps == 0 || (p.eps >= kMinEps && p.eps <= kMaxLength)))
        throw ParamError("eps", "must be 0 or from 1e-9 to 1e4" + got(p.eps));
    if (!(p.G >= kMinG && p.G <= kMaxG)) throw ParamError("G", "must be from 1e-12 to 1e12" + got(p.G));
    if (p.steps_per_frame < 1 || p.steps_per_frame > 10000)
        throw ParamError("steps_per_frame", "must be from 1 to 10000" + got(p.steps_per_frame));
    if (p.cpu_threads < 0 || p.cpu_threads > 1024)
        throw ParamError("cpu_threads", "must be 0 (all) or 1 to 1024" + got(p.cpu_threads));
    if (!(p.eta > 0 && p.eta <= 1))
        throw ParamError(
            "eta", "the Aarseth accuracy parameter must be in (0, 1], typically 0.01 to 0.02" + got(p.eta));
    if (p.gpus < 0 || p.gpus > kMaxGpus)
        throw ParamError("gpus", "must be 0 (all) or 1 to " + std::to_string(kMaxGpus) + got(p.gpus));
    if (p.method == ForceMethod::Tree) validate_tree(p);
    if (p.method != ForceMethod::Direct) return;  // the kernel families below are direct summation's
    if (!p.kernel_auto && variant_info(p.variant).method != p.method)
        throw ParamError("method", "the " + std::string(variant_name(p.variant)) + " kernel is a " +
                                       std::string(method_name(variant_info(p.variant).method)) +
                                       " family (got method " + std::string(method_name(p.method)) + ")");
    if (!p.kernel_auto) validate_shape(p.variant, p.shape);
    if (!p.kernel_auto) validate_variant_precision(p.variant, p.precision);
}

void validate_variant_precision(KernelVariant v, Precision p) {
    const FamilyInfo& f = variant_info(v);
    if (runs_in(f, p)) return;
    std::string ok, others;  // "fp32"; "ds and fp64"
    for (const auto& row : precision_table())
        (runs_in(f, row.value) ? ok : others) +=
            ((runs_in(f, row.value) ? ok : others).empty() ? "" : " and ") + std::string(row.name);
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
    if (p.method == ForceMethod::Tree) return tree_label(p.tree);
    return p.kernel_auto ? "auto" : kernel_label(p.variant, p.shape);
}

}  // namespace nbody
