#include "io/run_summary.hpp"

#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/session/perf_history.hpp"

namespace nbody {

std::string summary_text(const RunSummary& s) {
    char buf[1024];
    // Rates as everywhere else (core/session/perf_history.hpp: format_si); the integrator's own count only when it
    // is neither of the two conventions already printed.
    std::string integrator_flops;
    if (s.rate.flops_per_pair != 20 && s.rate.flops_per_pair != 38) {
        std::snprintf(buf, sizeof buf, ", %s at %g (%s)", format_si(s.rate.gflops * 1e9).c_str(),
                      s.rate.flops_per_pair, s.integrator.c_str());
        integrator_flops = buf;
    }
    // What a method that skips pairs (a tree) evaluated, beside what direct summation would have taken.
    std::string work_split;
    if (s.rate.body_cell_per_s > 0)
        work_split = " (body-body " + format_si(s.rate.body_body_per_s) + ", body-cell " +
                     format_si(s.rate.body_cell_per_s) + "; direct-equivalent " +
                     format_si(s.rate.equivalent_direct_per_s) + ")";
    std::snprintf(buf, sizeof buf,
                  "scene             %s\n"
                  "backend           %s\n"
                  "kernel            %s\n"
                  "method            %s\n"
                  "precision         %s, integrator %s\n"
                  "N                 %zu\n"
                  "steps             %lld (dt %g, eps %g, G %g; t = %.6g)\n"
                  "wall time         %.3g s\n"
                  "interactions/s    %s%s\n"
                  "flop/s            %s at 20 flops/interaction, %s at 38%s\n"
                  "steps/s           %s\n",
                  s.scene.c_str(), s.backend.c_str(), s.variant.c_str(), s.method.c_str(),
                  s.precision.c_str(), s.integrator.c_str(), s.n, s.steps, s.dt, s.eps, s.G, s.sim_time,
                  s.wall_seconds, format_si(s.rate.interactions_per_s).c_str(), work_split.c_str(),
                  format_si(s.rate.gflops20 * 1e9).c_str(), format_si(s.rate.gflops38 * 1e9).c_str(),
                  integrator_flops.c_str(), format_si(s.rate.steps_per_s).c_str());
    std::string out = buf;
    if (!s.step_note.empty()) out += "time step         " + s.step_note + "\n";
    if (s.diagnostics) {
        std::snprintf(buf, sizeof buf,
                      "energy            %.10g -> %.10g\n"
                      "rel. energy error %.3e\n"
                      "momentum drift    %.3e (|dP| / sum m|v|)\n"
                      "virial 2T/|W|     %.4f\n",
                      s.energy_start, s.energy_end, s.rel_energy_error, s.momentum_drift, s.virial_ratio_end);
        out += buf;
        // Leap-frog keeps the energy error bounded and small for a well-chosen step; past 1% the step is
        // too coarse for the closest encounters (or eps too small), and the run says so.
        if (s.rel_energy_error > 0.01) {
            std::snprintf(buf, sizeof buf,
                          "warning           energy not conserved: dt %g is too large for eps %g here; "
                          "try a smaller --dt or a larger --eps\n",
                          s.dt, s.eps);
            out += buf;
        }
    } else {
        out += "diagnostics       skipped (--no-diagnostics)\n";
    }
    return out;
}

std::string summary_json(const RunSummary& s) {
    nlohmann::json j = {
        {"scene", s.scene},
        {"backend", s.backend},
        {"variant", s.variant},
        {"method", s.method},
        {"precision", s.precision},
        {"integrator", s.integrator},
        {"n", s.n},
        {"steps", s.steps},
        {"dt", s.dt},
        {"dt_auto", !s.step_note.empty()},
        {"eps", s.eps},
        {"G", s.G},
        {"sim_time", s.sim_time},
        {"wall_seconds", s.wall_seconds},
        {"interactions_per_s", s.rate.interactions_per_s},  // evaluated: body-body + body-cell
        {"body_body_per_s", s.rate.body_body_per_s},
        {"body_cell_per_s", s.rate.body_cell_per_s},
        {"equivalent_direct_per_s", s.rate.equivalent_direct_per_s},
        {"gflops_20", s.rate.gflops20},
        {"gflops_38", s.rate.gflops38},
        {"gflops_integrator", s.rate.gflops},
        {"flops_per_interaction_integrator", s.rate.flops_per_pair},
        {"steps_per_s", s.rate.steps_per_s},
    };
    if (s.diagnostics) {
        j["energy_start"] = s.energy_start;
        j["energy_end"] = s.energy_end;
        j["rel_energy_error"] = s.rel_energy_error;
        j["momentum_drift"] = s.momentum_drift;
        j["virial_ratio_end"] = s.virial_ratio_end;
    }
    return j.dump(2);
}

void write_summary_json(const RunSummary& s, const std::string& path) {
    std::ofstream out(path);
    if (!out) throw Error("--json " + path + ": cannot open for writing");
    out << summary_json(s) << "\n";
    if (!out) throw Error("--json " + path + ": write failed");
}

}  // namespace nbody
