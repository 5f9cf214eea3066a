#include "engine/backend_rows.hpp"

#include <algorithm>

#include "core/rows/force_method.hpp"
#include "core/rows/param_checks.hpp"
#include "cpu/cpu_backend.hpp"
#include "cpu/cpu_force_evaluator.hpp"
#include "engine/backend_factory.hpp"
#ifdef NBODY_HAVE_CUDA
#include "cuda_backend.hpp"
#endif

namespace nbody {

namespace {

BackendRow cpu_row() {
    return {
        BackendKind::Cpu,
        "CPU",
        "",
        "Every core, vectorised: the numerical reference (every precision, integrator and method)",
        30,  // the last resort: it runs everywhere
        "the CPU",
        {},  // nothing takes over from the reference
        [] { return std::string(); },
        [](const SimParams& p, const BackendMakeOptions&, BackendPick pick) {
            BackendStart s;
            s.backend = std::make_unique<CpuBackend>(p.cpu_threads);
            s.note = pick == BackendPick::ByHand ? "CPU backend (asked for)" : "CPU backend";
            return s;
        },
        cpu_evaluates};
}

BackendStart start_cuda(const SimParams& p, const BackendMakeOptions& o) {
#ifdef NBODY_HAVE_CUDA
    BackendStart s;
    s.backend = try_make_cuda_backend(p, &s.why, &s.adjusted, o.parts_per_gpu);
    if (!s.backend) return refused_start(s.why, "no usable CUDA device (" + s.why + ")");
    s.note = "CUDA backend: " + s.backend->name() + (s.adjusted.empty() ? "" : " (" + s.adjusted + ")");
    return s;
#else
    (void)p, (void)o;
    return refused_start("this build has no CUDA backend (configured without nvcc or with NBODY_CUDA=OFF)",
                         "this build has no CUDA backend", kNoCudaWords);
#endif
}

BackendRow cuda_row() {
    return {
        BackendKind::Cuda,
        "CUDA",
        "",
        "The CUDA kernels on NVIDIA GPUs: every kernel variant, precision and integrator, one GPU or several",
        10,  // first: the fastest where a device works
        "CUDA when a device is usable",
        {BackendKind::Cpu, true},  // the sandbox goes on without an NVIDIA GPU, and says why in its banner
        [] { return cuda_built() ? std::string() : std::string("no CUDA in this build"); },
        [](const SimParams& p, const BackendMakeOptions& o, BackendPick) { return start_cuda(p, o); },
#ifdef NBODY_HAVE_CUDA
        cuda_runs_method};
#else
        {}};  // start says why: no CUDA in this build
#endif
}

}  // namespace

BackendStart refused_start(std::string why, std::string note, std::string banner) {
    BackendStart s;
    s.refused_note = note.empty() ? why : std::move(note);
    s.refused_banner = banner.empty() ? why : std::move(banner);
    s.why = std::move(why);
    return s;
}

BackendStart start_row(const BackendRow& row, const SimParams& p, const BackendMakeOptions& o, BackendPick pick) {
    if (!row.runs_method || row.runs_method(p.method)) return row.start(p, o, pick);
    const std::string backend = "the " + std::string(backend_kind_name(row.kind)) + " backend";
    // Passed over by `auto`, the words say why without advice: the choice goes on to a backend that runs it.
    return refused_start(
        method_reach_words(backend, methods_where(row.runs_method), p.method, pick == BackendPick::ByHand));
}

const BackendRows& backend_rows() {
    static const BackendRows rows = {cpu_row(), cuda_row()};
    return rows;
}

std::vector<const BackendRow*> rows_by_auto_rank(const BackendRows& rows) {
    std::vector<const BackendRow*> out;
    for (const BackendRow& r : rows)
        if (r.auto_rank > 0) out.push_back(&r);
    std::stable_sort(out.begin(), out.end(),
                     [](const BackendRow* a, const BackendRow* b) { return a->auto_rank < b->auto_rank; });
    return out;
}

const BackendRow* find_backend_row(const BackendRows& rows, BackendKind k) {
    for (const BackendRow& r : rows)
        if (r.kind == k) return &r;
    return nullptr;
}

std::unique_ptr<Backend> try_make_backend(const BackendRows& rows, BackendKind k, const SimParams& p,
                                          std::string* why, std::string* note, const BackendMakeOptions& o) {
    const BackendRow* row = find_backend_row(rows, k);
    if (!row) {
        if (why) *why = "no " + std::string(backend_kind_name(k)) + " backend here";
        return nullptr;
    }
    BackendStart s = start_row(*row, p, o, BackendPick::ByHand);
    if (!s.backend && why) *why = s.why;
    if (note) *note = s.adjusted;
    return std::move(s.backend);
}

std::vector<BackendOffer> backend_offers(const BackendRows& rows) {
    std::vector<BackendOffer> out;
    for (const BackendRow& r : rows) out.push_back({r.kind, r.label, r.help, r.unavailable()});
    return out;
}

std::vector<std::string> backend_names(const BackendRows& rows) {
    std::vector<std::string> out;
    for (const BackendRow& r : rows) out.emplace_back(backend_kind_name(r.kind));
    return out;
}

std::string backend_list_text(const BackendRows& rows) {
    std::string out;
    for (const BackendRow& r : rows) {
        out += (out.empty() ? "" : ", ") + std::string(backend_kind_name(r.kind));
        if (!r.flag_help.empty()) out += " (" + r.flag_help + ")";
    }
    return out;
}

std::vector<std::string> backend_flag_choices(const BackendRows& rows) {
    std::vector<std::string> out = backend_names(rows);
    out.insert(out.begin(), "auto");
    return out;
}

std::string backend_flag_help(const BackendRows& rows) {
    std::string auto_help;
    for (const BackendRow* r : rows_by_auto_rank(rows))
        auto_help += (auto_help.empty() ? "" : ", else ") + r->auto_words;
    return backend_list_text(rows) + " or auto (" + auto_help + ")";
}

}  // namespace nbody
