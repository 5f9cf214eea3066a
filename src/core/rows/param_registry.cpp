#include "core/rows/param_registry.hpp"

#include <cmath>

#include "core/errors.hpp"
#include "core/limits.hpp"
#include "core/rows/force_method.hpp"
#include "core/rows/integrator.hpp"
#include "core/rows/sim_params.hpp"

namespace nbody {

namespace {
using namespace limits;
constexpr unsigned kTree = bit(ForceMethod::Tree);

// One accessor pair a field: the table holds plain function pointers (no captures), so the rows stay constant.
#define NBODY_FIELD(expr, type)                                               \
    [](const SimParams& p) { return double(p.expr); },                        \
        [](SimParams& p, double v) { p.expr = static_cast<type>(v); }

// Which integrators take block steps, and so read eta, is the integrator rows' answer.
std::array<ParamSpec, 11> make_registry() {
    static std::string dt_help;  // the rows hold a view of it: made again with them
    dt_help = "Time step; block steps (" + block_step_integrator_names() + "): the largest block step";
    const unsigned block_steps = block_step_integrators();
    // clang-format off
    return {{
    {"dt", false, kMinDt, kMaxDt, "", "time units", dt_help, 0, 0, NBODY_FIELD(dt, double)},
    {"eps", false, kMinEps, kMaxLength, "no softening", "length units",
     "Plummer softening length: forces go as 1 / (r^2 + eps^2)", 0, 0, NBODY_FIELD(eps, double)},
    {"G", false, kMinG, kMaxG, "", "",
     "Gravitational constant (1 in N-body units)", 0, 0, NBODY_FIELD(G, double)},
    {"steps_per_frame", true, 1, 10000, "", "steps",
     "Steps between drawn frames (block steps under block-step integrators)", 0, 0, NBODY_FIELD(steps_per_frame, int)},
    {"eta", false, 1e-6, 1, "", "",
     "Block-step accuracy parameter: smaller is more accurate and slower (Aarseth's criterion: typically 0.01 "
     "to 0.02; hermite6-block 0.04 to 0.64, where its energy error matches 4th order's at about eta / 32; "
     "leapfrog-block dt_i = eta sqrt(eps / |a_i|), typically 0.1 to 0.6: GADGET-2's 0.025 is 0.22 here; its "
     "energy error also grows with the bodies that change levels, so it is not monotonic in eta: on Milky "
     "Way-Andromeda 0.6 beats 0.5, which puts an eighth of the bodies on the level below)", 0,
     block_steps,
     NBODY_FIELD(eta, double)},
    {"theta", false, 1e-6, 1.5, "", "",
     "Barnes opening angle: a cell farther than its size / theta acts as one body; smaller is more accurate "
     "and slower", kTree, 0, NBODY_FIELD(tree.theta, float)},
    {"alpha", false, 0, 1, "off", "",
     "Acceleration criterion: a cell is accepted where its left-out quadrupole term is below alpha times the "
     "group's smallest acceleration; smaller is more accurate and slower", kTree, 0, NBODY_FIELD(tree.alpha, float)},
    {"leaf", true, 1, 64, "", "bodies",
     "A tree cell with more bodies than this is split", kTree, 0, NBODY_FIELD(tree.leaf, int)},
    {"group", true, 8, 128, "", "bodies",
     "Consecutive bodies sharing one interaction list in the tree walk", kTree, 0, NBODY_FIELD(tree.group, int)},
    {"gpus", true, 1, kMaxGpus, "all", "GPUs",
     "GPUs the CUDA backend spreads the work over (direct: the bodies; the tree: its walk)", 0, 0,
     NBODY_FIELD(gpus, int)},
    {"cpu_threads", true, 1, 1024, "all", "threads",
     "Threads of the CPU backend", 0, 0, NBODY_FIELD(cpu_threads, int)},
    }};
    // clang-format on
}
#undef NBODY_FIELD

// Whole-number parameters read as counts ("10000", not "1e4").
std::string number_text(const ParamSpec& s, double v) {
    return s.whole && std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15 ? std::to_string((long long)v)
                                                                                    : format_number(v);
}
}  // namespace

const std::array<ParamSpec, 11>& param_registry() {
    // Made again when an integrator row was added (add_integrator_row), so its scopes and help follow.
    static std::array<ParamSpec, 11> registry = make_registry();
    static std::size_t made_for = integrator_rows().size();
    if (made_for != integrator_rows().size()) registry = make_registry(), made_for = integrator_rows().size();
    return registry;
}

const ParamSpec* find_param(std::string_view name) {
    for (const ParamSpec& s : param_registry())
        if (s.name == name) return &s;
    return nullptr;
}

std::string range_text(const ParamSpec& s) {
    std::string out = s.zero.empty() || s.lo == 0 ? "" : "0 or ";
    out += "from " + number_text(s, s.lo) + " to " + number_text(s, s.hi);
    if (!s.zero.empty()) out += " (0: " + std::string(s.zero) + ")";
    return out;
}

std::string param_problem(const ParamSpec& s, double v) {
    const bool in_range = (v >= s.lo && v <= s.hi) || (v == 0 && !s.zero.empty());
    const bool whole_ok = !s.whole || v == std::floor(v);
    if (in_range && whole_ok && !is_subnormal(v)) return {};
    std::string got = "(got " + number_text(s, v) + (is_subnormal(v) ? ", a subnormal number)" : ")");
    if (!whole_ok && in_range) return "must be a whole number " + got;
    return "must be " + range_text(s) + " " + got;
}

void check_param(const ParamSpec& s, double v) {
    if (std::string why = param_problem(s, v); !why.empty()) throw ParamError(std::string(s.name), why);
}

bool param_applies(const ParamSpec& s, const SimParams& p) {
    return (s.methods == 0 || (s.methods & bit(p.method))) && (s.integrators == 0 || (s.integrators & bit(p.integrator)));
}

std::string param_scope(const ParamSpec& s) {
    std::string scope;
    for (const MethodInfo& m : method_rows())
        if (s.methods & bit(m.id)) scope += (scope.empty() ? "method " : ", ") + std::string(m.name);
    for (const IntegratorInfo& in : integrator_rows())
        if (s.integrators & bit(in.id)) scope += (scope.empty() ? "integrator " : ", ") + std::string(in.name);
    return scope;
}

std::string param_help_text(const ParamSpec& s) {
    const std::string scope = param_scope(s);
    std::string out(s.help);
    out += " (";
    if (!scope.empty()) out += scope + "; ";
    out += range_text(s);
    if (!s.unit.empty()) out.append(" ").append(s.unit);
    return out + ")";
}

}  // namespace nbody
