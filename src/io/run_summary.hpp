#pragma once
// The summary a headless run ends with, as text for a terminal and as JSON for scripts.
#include <string>

#include "core/counters.hpp"

namespace nbody {

struct RunSummary {
    std::string scene;
    std::string backend;
    std::string variant;  // what evaluated the forces (Backend::kernel_label)
    std::string method = "direct";  // the force method (SimParams::method)
    std::string precision = "fp32";
    std::string integrator = "leapfrog";
    std::size_t n = 0;
    long long steps = 0;
    double dt = 0, eps = 0, G = 1;
    std::string step_note;  // dt "auto": the step chosen and why (core/session/auto_step.hpp), else empty
    double sim_time = 0;      // simulated time at the end
    double wall_seconds = 0;  // stepping only (diagnostics excluded)
    Throughput rate;
    bool diagnostics = false;  // false when skipped (--no-diagnostics)
    double energy_start = 0, energy_end = 0;
    double rel_energy_error = 0;
    double momentum_drift = 0;
    double virial_ratio_end = 0;
};

std::string summary_text(const RunSummary& s);
// Writes the JSON object to `path`; throws nbody::Error naming the path when it cannot be written.
void write_summary_json(const RunSummary& s, const std::string& path);
std::string summary_json(const RunSummary& s);

}  // namespace nbody
