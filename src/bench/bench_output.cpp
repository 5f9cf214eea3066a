#include "bench/bench_output.hpp"

#include <cstdio>
#include <fstream>
#include <variant>

#include <nlohmann/json.hpp>

#include "bench/bench_table.hpp"
#include "core/errors.hpp"

namespace nbody {

void print_table_header() {
    std::printf("%9s %-4s %-13s %-16s %4s %2s %2s %5s %3s %3s %4s %12s %9s %9s %11s %10s %9s %9s %9s\n", "N", "prec",
                "integrator", "variant", "gpus", "k", "u", "block", "q", "s", "regs", "interact/s", "Gflop20", "Gflop38", "steps/s", "ms/step",
                "max_err", "p99_err", "med_err");
}

void print_row(const BenchRow& r) {
    char err[3][16] = {"-", "-", "-"};
    if (r.error.max_rel >= 0) {
        std::snprintf(err[0], sizeof err[0], "%.2e", r.error.max_rel);
        std::snprintf(err[1], sizeof err[1], "%.2e", r.error.p99_rel);
        std::snprintf(err[2], sizeof err[2], "%.2e", r.error.median_rel);
    }
    // The GL compute rows say so beside the CUDA rows of the same variant.
    const std::string variant = r.backend == "gl" ? "gl " + r.variant : r.variant;
    std::printf(
        "%9zu %-4s %-13s %-16s %4d %2d %2d %5d %3d %3d %4d %12.4e %9.1f %9.1f %11.1f %10.4f %9s %9s %9s\n",
        r.n, r.precision.c_str(), r.integrator.c_str(), variant.c_str(), r.gpus, r.k, r.u, r.block, r.q, r.s,
        r.registers, r.rate.interactions_per_s, r.rate.gflops20, r.rate.gflops38, r.rate.steps_per_s,
        r.ms_per_step, err[0], err[1], err[2]);
    std::fflush(stdout);
}

void write_bench_json(const std::string& path, const BenchMeta& meta, const std::vector<BenchRow>& rows) {
    nlohmann::json j;
    j["device"] = meta.device;
    j["date"] = meta.date;
    j["command"] = meta.command;
    j["flops_per_interaction"] = {{"gflops_20", 20}, {"gflops_38", 38}};
    j["interactions_per_step"] = "N^2";  // of the direct method; a row's method says which it ran
    j["interactions_per_step_by_method"] = {{"direct", "N^2 body-body, 0 body-cell"}};
    for (const BenchRow& r : rows) {
        nlohmann::json o = nlohmann::json::object();
        for (const auto& [name, value] : bench_row_fields(r))
            std::visit([&o, &name](const auto& v) { o[name] = v; }, value);
        j["rows"].push_back(o);
    }
    std::ofstream out(path);
    if (!out) throw Error("--json " + path + ": cannot open for writing");
    out << j.dump(2) << "\n";
}

}  // namespace nbody
