#include "engine/backend_rows.hpp"

#include "cpu/cpu_backend.hpp"
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
        [] { return std::string(); },
        [](const SimParams& p, const BackendMakeOptions&, std::string*,
           std::string*) -> std::unique_ptr<Backend> { return std::make_unique<CpuBackend>(p.cpu_threads); }};
}

BackendRow cuda_row() {
    return {
        BackendKind::Cuda,
        "CUDA",
        "",
        "The CUDA kernels on NVIDIA GPUs: every kernel variant, precision and integrator, one GPU or several",
        [] { return cuda_built() ? std::string() : std::string("no CUDA in this build"); },
        [](const SimParams& p, const BackendMakeOptions& o, std::string* why,
           std::string* note) -> std::unique_ptr<Backend> {
#ifdef NBODY_HAVE_CUDA
            std::string fewer;
            auto b = try_make_cuda_backend(p, why, &fewer, o.parts_per_gpu);
            if (note) *note = fewer;
            return b;
#else
            (void)p, (void)o, (void)note;
            if (why) *why = "this build has no CUDA backend (configured without nvcc or with NBODY_CUDA=OFF)";
            return nullptr;
#endif
        }};
}

}  // namespace

const BackendRows& backend_rows() {
    static const BackendRows rows = {cpu_row(), cuda_row()};
    return rows;
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
    std::string w;
    auto b = row->make(p, o, &w, note);
    if (!b && why) *why = w;
    return b;
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

std::string backend_flag_help(const BackendRows& rows, const std::string& auto_help) {
    return backend_list_text(rows) + " or auto (" + auto_help + ")";
}

}  // namespace nbody
