#include "bench/bench_output.hpp"

#include <cstdio>
#include <fstream>
#include <variant>

#include <nlohmann/json.hpp>

#include "bench/bench_table.hpp"
#include "core/errors.hpp"
#include "core/session/perf_history.hpp"  // format_si

namespace nbody {

// The table's numbers follow the rule of every rate the programs print: three significant digits and an SI
// prefix ("3.74 G interactions/s"). The GPU's launch shape (gpus, k, u, block, q, s, registers) means nothing
// on the CPU: its rows show "-" there rather than zeros.
void print_table_header() {
    std::printf("%9s %-4s %-13s %-16s %4s %2s %2s %5s %3s %3s %4s %14s %9s %9s %9s %9s %9s %9s %9s\n", "N",
                "prec", "integrator", "variant", "gpus", "k", "u", "block", "q", "s", "regs",
                "interactions/s", "flop/s 20", "flop/s 38", "steps/s", "ms/step", "max_err", "p99_err",
                "med_err");
}

namespace {
std::string si(double v) {
    return format_si(v);
}
// A launch-shape number, or "-" on the CPU.
std::string shape(int v, bool gpu) {
    return gpu ? std::to_string(v) : "-";
}
}  // namespace

void print_row(const BenchRow& r) {
    char err[3][16] = {"-", "-", "-"};
    if (r.error.max_rel >= 0) {
        std::snprintf(err[0], sizeof err[0], "%.2e", r.error.max_rel);
        std::snprintf(err[1], sizeof err[1], "%.2e", r.error.p99_rel);
        std::snprintf(err[2], sizeof err[2], "%.2e", r.error.median_rel);
    }
    // The GL compute rows say so beside the CUDA rows of the same variant.
    const std::string variant = r.backend == "gl" ? "gl " + r.variant : r.variant;
    const bool gpu = r.backend != "cpu";
    char ms[16];
    std::snprintf(ms, sizeof ms, "%.3g", r.ms_per_step);
    std::printf("%9zu %-4s %-13s %-16s %4s %2s %2s %5s %3s %3s %4s %14s %9s %9s %9s %9s %9s %9s %9s\n", r.n,
                r.precision.c_str(), r.integrator.c_str(), variant.c_str(), shape(r.gpus, gpu).c_str(),
                shape(r.k, gpu).c_str(), shape(r.u, gpu).c_str(), shape(r.block, gpu).c_str(),
                shape(r.q, gpu).c_str(), shape(r.s, gpu).c_str(), shape(r.registers, gpu).c_str(),
                si(r.rate.interactions_per_s).c_str(), si(r.rate.gflops20 * 1e9).c_str(),
                si(r.rate.gflops38 * 1e9).c_str(), si(r.rate.steps_per_s).c_str(), ms, err[0], err[1],
                err[2]);
    if (!r.stages.empty()) std::printf("%9s %s\n", "", r.stages.c_str());
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
