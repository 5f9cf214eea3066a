#include "bench/race_output.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/rows/force_method.hpp"
#include "core/session/perf_history.hpp"  // format_si

namespace nbody {

namespace {

constexpr int kBarWidth = 40;

// RFC 4180: every text field quoted, quotes doubled (kernel labels hold commas).
std::string quoted(const std::string& s) {
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

double fastest(const RaceReport& r) {
    double best = 0;
    for (const RaceResult& e : r.results)
        if (e.skipped.empty()) best = std::max(best, e.row.rate.steps_per_s);
    return best;
}

// The rule of every rate the programs print: three significant digits and an SI prefix ("3.74 G").
std::string si(double v) {
    return format_si(v);
}

std::string sci(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

void write_text(const std::string& path, const std::string& text) {
    std::ofstream out(path);
    if (!out) throw Error(path + ": cannot open for writing");
    out << text;
    if (!out) throw Error(path + ": write failed");
}

}  // namespace

std::string text_bar(double value, double max, int width) {
    const double f = max > 0 && std::isfinite(value) ? std::clamp(value / max, 0.0, 1.0) : 0.0;
    const int filled = static_cast<int>(std::lround(f * width));
    return std::string(static_cast<std::size_t>(filled), '#') +
           std::string(static_cast<std::size_t>(width - filled), '.');
}

std::vector<const RaceResult*> by_steps_per_s(const RaceReport& r) {
    std::vector<const RaceResult*> out;
    for (const RaceResult& e : r.results) out.push_back(&e);
    std::stable_sort(out.begin(), out.end(), [](const RaceResult* a, const RaceResult* b) {
        if (a->skipped.empty() != b->skipped.empty()) return a->skipped.empty();
        return a->row.rate.steps_per_s > b->row.rate.steps_per_s;
    });
    return out;
}

void print_race(std::FILE* out, const RaceReport& r) {
    std::fprintf(out, "# race: %s, N = %zu, %.2g s per entry, %s\n# %s\n", r.device.c_str(), r.n, r.seconds,
                 r.date.c_str(), r.note.c_str());
    int name_w = 5;  // "entry": the column as wide as the longest name, so no row pushes the others
    for (const RaceResult& e : r.results) name_w = std::max(name_w, int(e.entry.name.size()));
    std::fprintf(out, "%-*s %9s %14s %9s %9s %9s %9s  %s\n", name_w, "entry", "steps/s", "interactions/s",
                 "flop/s 20", "flop/s 38", "max_err", "med_err", "kernel");
    const std::vector<const RaceResult*> order = by_steps_per_s(r);
    for (const RaceResult* e : order) {
        if (!e->skipped.empty()) {
            std::fprintf(out, "%-*s skipped: %s\n", name_w, e->entry.name.c_str(), e->skipped.c_str());
            continue;
        }
        const BenchRow& b = e->row;
        std::fprintf(out, "%-*s %9s %14s %9s %9s %9.2e %9.2e  %s\n", name_w, e->entry.name.c_str(),
                     si(b.rate.steps_per_s).c_str(), si(b.rate.interactions_per_s).c_str(),
                     si(b.rate.gflops20 * 1e9).c_str(), si(b.rate.gflops38 * 1e9).c_str(), b.error.max_rel,
                     b.error.median_rel, b.kernel.c_str());
    }
    std::fprintf(out, "\nsteps/s (longest bar: the fastest)\n");
    const double best = fastest(r);
    for (const RaceResult* e : order) {
        if (!e->skipped.empty()) continue;
        std::fprintf(out, "%-*s |%s| %s steps/s", name_w, e->entry.name.c_str(),
                     text_bar(e->row.rate.steps_per_s, best, kBarWidth).c_str(),
                     si(e->row.rate.steps_per_s).c_str());
        // A tree evaluates fewer pairs than N^2: its accuracy and its direct-summation equivalent beside it.
        if (method_info(e->entry.method).approximate)
            std::fprintf(
                out, "  (tree: median force error %.1e, as fast as direct summation at %s interactions/s)",
                e->row.error.median_rel, si(e->row.rate.equivalent_direct_per_s).c_str());
        std::fprintf(out, "\n");
    }
}

std::string race_csv(const RaceReport& r) {
    std::ostringstream s;
    s << "entry,variant,precision,kernel,n,interactions_per_s,gflops_20,gflops_38,steps_per_s,ms_per_step,"
         "max_rel_force_error,median_rel_force_error,equivalent_direct_per_s,method,skipped\n";
    for (const RaceResult& e : r.results) {
        const BenchRow& b = e.row;
        const std::string method(method_name(e.entry.method));
        s << quoted(e.entry.name) << ',' << quoted(b.variant) << ','
          << quoted(std::string(precision_name(e.entry.precision))) << ',' << quoted(b.kernel) << ',' << r.n;
        if (e.skipped.empty())
            s << ',' << sci(b.rate.interactions_per_s) << ',' << sci(b.rate.gflops20) << ','
              << sci(b.rate.gflops38) << ',' << sci(b.rate.steps_per_s) << ',' << sci(b.ms_per_step) << ','
              << sci(b.error.max_rel) << ',' << sci(b.error.median_rel) << ','
              << sci(b.rate.equivalent_direct_per_s) << ',' << quoted(method) << ",\n";
        else
            s << ",,,,,,,,," << quoted(method) << ',' << quoted(e.skipped) << '\n';
    }
    return s.str();
}

std::string race_json(const RaceReport& r) {
    nlohmann::json j = {{"device", r.device},
                        {"date", r.date},
                        {"command", r.command},
                        {"note", r.note},
                        {"n", r.n},
                        {"seconds_per_entry", r.seconds},
                        {"flops_per_interaction", {{"gflops_20", 20}, {"gflops_38", 38}}}};
    j["rows"] = nlohmann::json::array();
    for (const RaceResult& e : r.results) {
        const BenchRow& b = e.row;
        nlohmann::json o = {{"entry", e.entry.name},
                            {"variant", b.variant},
                            {"precision", std::string(precision_name(e.entry.precision))},
                            {"method", std::string(method_name(e.entry.method))}};
        if (!e.skipped.empty()) {
            o["skipped"] = e.skipped;
        } else {
            o.update({{"interactions_per_s", b.rate.interactions_per_s},
                      {"gflops_20", b.rate.gflops20},
                      {"gflops_38", b.rate.gflops38},
                      {"steps_per_s", b.rate.steps_per_s},
                      {"ms_per_step", b.ms_per_step},
                      {"kernel", b.kernel},
                      {"max_rel_force_error", b.error.max_rel},
                      {"median_rel_force_error", b.error.median_rel},
                      {"equivalent_direct_per_s", b.rate.equivalent_direct_per_s}});
        }
        j["rows"].push_back(o);
    }
    return j.dump(2) + "\n";
}

void write_race_csv(const std::string& path, const RaceReport& r) {
    write_text(path, race_csv(r));
}
void write_race_json(const std::string& path, const RaceReport& r) {
    write_text(path, race_json(r));
}

}  // namespace nbody
