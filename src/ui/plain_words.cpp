#include "ui/plain_words.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/physics/hermite.hpp"
#include "core/rows/force_method.hpp"
#include "core/rows/integrator.hpp"
#include "core/tree/tree_params.hpp"
#include "core/kernels/kernel_tuning.hpp"
#include "core/session/perf_history.hpp"

namespace nbody {

namespace {
bool starts_with(const std::string& s, const std::string& prefix) {
    return s.rfind(prefix, 0) == 0;
}
}  // namespace

std::string in_words(const std::string& message) {
    std::string m = message;
    const bool not_applied = starts_with(m, "not applied: ");
    if (not_applied) m = m.substr(13);
    const std::string keep = not_applied ? "; the simulation keeps running as it was." : ".";
    if (starts_with(m, "--backend cuda: ")) {
        std::string why = m.substr(16);
        if (why.find("no CUDA backend") != std::string::npos)
            return "This program was built without CUDA, so only the CPU backend can run" + keep;
        return "The CUDA backend could not start: " + why + keep;
    }
    if (starts_with(m, "--backend gl: "))
        return "The GL compute backend could not start: " + m.substr(14) + keep;
    if (starts_with(m, "--")) {  // "--dt 0: ..." from a shared check: the flag's name is the field
        const std::size_t colon = m.find(": ");
        const std::string field = m.substr(2, colon == std::string::npos ? std::string::npos : colon - 2);
        const std::string rest = colon == std::string::npos ? "" : m.substr(colon + 2);
        return "The value for " + field + " was not accepted: " + rest + keep;
    }
    return not_applied ? "Not applied: " + m : message;
}

std::string cpu_fallback_reason(const BackendChoice& choice) {
    std::string why = choice.fallback;
    if (const std::size_t code = why.find(" (cudaError"); code != std::string::npos) {
        const std::size_t end = why.find(')', code);
        why.erase(code, end == std::string::npos ? std::string::npos : end - code + 1);
    }
    return why;
}

std::string interactions_text(double per_s) {
    return format_si(per_s) + " interactions/s";  // "2.52 G interactions/s": the prefix reads as a number
}

std::string flops_text(double gflops) {
    return format_si(gflops * 1e9, "flop/s");
}

namespace {
// "1.5e-4": two significant digits, the exponent without C's padding ("1.5e-04").
std::string short_sci(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1e", v);
    std::string s = buf;
    const std::size_t e = s.find('e');
    if (e == std::string::npos || e + 2 >= s.size()) return s;  // inf, nan
    const std::size_t digits = s[e + 1] == '-' || s[e + 1] == '+' ? e + 2 : e + 1;
    std::string exp = s.substr(digits);
    while (exp.size() > 1 && exp[0] == '0') exp.erase(0, 1);
    return s.substr(0, e + 1) + (s[e + 1] == '-' ? "-" : "") + exp;
}
}  // namespace

std::string force_error_text(double median, double p99, std::size_t sample, double age_s) {
    char text[160];
    std::snprintf(text, sizeof text, "force error vs direct:\nmedian %s, 99%% %s\n(%s bodies, %.1f s ago)",
                  short_sci(median).c_str(), short_sci(p99).c_str(), with_commas(sample).c_str(),
                  std::max(0.0, age_s));
    return text;
}

std::string block_step_text(double step) {
    int e = 0;
    const bool pow2 = std::isfinite(step) && step > 0 && std::frexp(step, &e) == 0.5;
    char buf[32];
    if (pow2 && e <= 0 && e > -62)
        std::snprintf(buf, sizeof buf, "1/%llu", 1ull << (1 - e));  // step = 2^(e-1)
    else if (pow2 && e >= 1 && e < 60)
        std::snprintf(buf, sizeof buf, "%llu", 1ull << (e - 1));
    else
        std::snprintf(buf, sizeof buf, "%.3g", step);
    return buf;
}

std::string scene_runs_text(const SimParams& p) {
    const IntegratorInfo& in = integrator_info(p.integrator);
    std::string out = "Runs: ";
    if (p.method == ForceMethod::Tree)
        out += "the tree (" + opening_text(p.tree) + ")";
    else if (p.method == ForceMethod::Direct)
        out += "direct summation";
    else
        out += "method " + std::string(method_name(p.method));  // a method added as a row alone
    char eta[32];
    std::snprintf(eta, sizeof eta, "%g", p.eta);
    if (in.block_steps)
        out += ", " + std::string(in.name) + " (largest step " + block_step_text(hermite::floor_pow2(p.dt)) +
               ", eta " + eta + ")";
    else
        out += ", " + std::string(in.name) + " at dt " + block_step_text(p.dt);
    const std::string step = in.block_steps ? " block step" : " step";
    return out + ", " + std::to_string(p.steps_per_frame) + step + (p.steps_per_frame == 1 ? "" : "s") + " a frame.";
}

std::string method_fit_text(const SimParams& before, const SimParams& after) {
    std::string changed;
    if (after.integrator != before.integrator)
        changed += "the integrator is now " + std::string(integrator_name(after.integrator)) + " (was " +
                   std::string(integrator_name(before.integrator)) + ")";
    if (after.precision != before.precision)
        changed += (changed.empty() ? "" : ", ") + std::string("the precision is now ") +
                   std::string(precision_name(after.precision)) + " (was " +
                   std::string(precision_name(before.precision)) + ")";
    if (changed.empty()) return "";
    return "The " + std::string(method_info(after.method).name) + " does not run " +
           (after.integrator != before.integrator ? std::string(integrator_name(before.integrator))
                                                  : std::string(precision_name(before.precision))) +
           ": " + changed + ".";
}

std::string steps_here_text(int asked, double steps_per_s, double frames_per_s) {
    if (asked <= 0 || steps_per_s <= 0 || frames_per_s <= 0) return "";
    const double here = steps_per_s / frames_per_s;
    if (here >= 0.8 * asked) return "";  // within the noise of a frame rate
    char text[200];
    std::snprintf(text, sizeof text,
                  " Here about %.2g a frame (%s steps/s at %s frames/s): this backend does not keep up with %d a "
                  "frame at this N, and the frames do not wait for it.",
                  here, format_si(steps_per_s).c_str(), format_si(frames_per_s).c_str(), asked);
    return text;
}

}  // namespace nbody
