#include "core/session/auto_step.hpp"

#include <cmath>
#include <cstdio>

#include "core/backend/backend.hpp"
#include "core/errors.hpp"
#include "core/physics/hermite.hpp"  // kBlockDtMin
#include "core/limits.hpp"  // with_commas
#include "core/physics/leapfrog.hpp"
#include "core/rows/integrator.hpp"

namespace nbody {

using limits::with_commas;

// The hardest pull the softened force allows next to the heaviest body: G m / eps^2 times the peak of
// x / (1 + x^2)^1.5, 2 / 3^1.5 = 0.385 at x = 1 / sqrt 2.
constexpr double kPeakSoftenedPull = 0.3849001794597505;

AutoStep auto_step(const State& s, const std::vector<Double4>& acc, double eps, double G, double eta) {
    if (acc.size() != s.size())
        throw Error("auto_step: " + std::to_string(acc.size()) + " accelerations for " +
                    std::to_string(s.size()) + " bodies");
    AutoStep out;
    out.eta = eta > 0 ? eta : eps > 0 ? kAutoStepEta : kAutoStepEtaUnsoftened;
    out.eps = eps, out.want = HUGE_VAL;
    std::size_t heaviest = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const Double4& a = acc[i];
        const Double4& v = s.vel[i];
        const double a2 = a.x * a.x + a.y * a.y + a.z * a.z, v2 = v.x * v.x + v.y * v.y + v.z * v.z;
        const double want = block_leapfrog_step(out.eta, eps, a2, v2);
        if (!(want >= out.want))
            out.want = want, out.body = i, out.accel = std::sqrt(a2);  // NaN wins: refused
        if (s.pos_mass[i].w > s.pos_mass[heaviest].w) heaviest = i;
    }
    if (eps > 0 && s.size() > 1) {
        const double peak = kPeakSoftenedPull * G * s.pos_mass[heaviest].w / (eps * eps);
        const double want = block_leapfrog_step(out.eta, eps, peak * peak, 0.0);
        if (want < out.want) out.want = want, out.body = heaviest, out.accel = peak, out.by_heaviest = true;
    }
    if (std::isinf(out.want)) {
        out.dt = kAutoStepUnbounded;
        return out;
    }
    if (!(out.want >= hermite::kBlockDtMin)) {
        char why[200];
        std::snprintf(why, sizeof why,
                      "the automatic step would be below 2^-40 (body %zu, |a| %.3g, wants %.3g): give dt a "
                      "number, or raise eps",
                      out.body, out.accel, out.want);
        throw ParamError("dt", why);
    }
    out.dt = hermite::floor_pow2(out.want);
    return out;
}

AutoStep auto_step_of(Backend& b) {
    State s;
    b.read_state(s);
    std::vector<Double4> acc;
    b.read_accelerations(acc);
    return auto_step(s, acc, b.params().eps, b.params().G);
}

AutoStep settle_auto_step(Backend& b) {
    SimParams p = b.params();
    if (integrator_info(p.integrator).block_steps)
        throw ParamError(
            "dt", "block steps (" + std::string(integrator_name(p.integrator)) +
                      ") take dt as their largest step: give it a number; auto chooses one shared step");
    const AutoStep a = auto_step_of(b);
    if (p.dt != a.dt) {
        p.dt = a.dt;
        b.set_params(p);
    }
    return a;
}

std::string step_text(double dt) {
    char buf[48];
    const double inv = 1.0 / dt;
    if (dt > 0 && dt <= 1 && inv == std::exp2(std::round(std::log2(inv))) && inv < 1e15)
        std::snprintf(buf, sizeof buf, "1/%.0f", inv);
    else
        std::snprintf(buf, sizeof buf, "%g", dt);
    return buf;
}

std::string auto_step_words(const AutoStep& a) {
    char buf[320];
    if (std::isinf(a.want)) {
        std::snprintf(buf, sizeof buf, "dt %s (auto): no body is pulled, so nothing bounds the step",
                      step_text(a.dt).c_str());
        return buf;
    }
    const char* rule = a.eps > 0 ? "sqrt(eps / |a|)" : "|v| / |a|";
    const std::string who = a.by_heaviest
                                ? "next to the heaviest body (" + with_commas(a.body) + ") a pull of up to"
                                : "body " + with_commas(a.body) + " (|a|";
    std::snprintf(
        buf, sizeof buf, "dt %s (auto): %s %.3g%s wants %g %s = %.3g; the power of two at or below it",
        step_text(a.dt).c_str(), who.c_str(), a.accel, a.by_heaviest ? "" : ")", a.eta, rule, a.want);
    return buf;
}

}  // namespace nbody
