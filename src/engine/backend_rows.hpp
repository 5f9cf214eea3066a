#pragma once
// The backends the factory can make, one row each: its key and name, the words the Kernel panel and --backend
// show, how it is probed (no device touched) and the words when this build cannot run it, and how it is made.
// A new backend is a new row (and its folder); the panel's buttons and the flags list what the rows offer.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/backend.hpp"
#include "core/backend_choice.hpp"

namespace nbody {

struct BackendMakeOptions {
    int parts_per_gpu = 1;  // each GPU as this many parts (nbody-bench --parts-per-gpu); CUDA only
};

struct BackendRow {
    BackendKind kind;       // the key (SimParams::backend); backend_kind_name(kind) is its name on --backend
    std::string label;      // the Kernel panel's button: "CUDA"
    std::string flag_help;  // after its name in --backend's help, "" for none: "OpenGL 4.3 compute"
    std::string help;       // the panel's tooltip
    // Empty where this build can run it, else why not in a few words ("no CUDA in this build"). Cheap: asks
    // no device, so the panel and --help may call it.
    std::function<std::string()> unavailable;
    // The backend for p, or null with why it cannot start here in *why (the words users read). *note, where
    // given, says what it took where that differs from what p asked (fewer GPUs).
    std::function<std::unique_ptr<Backend>(const SimParams& p, const BackendMakeOptions& o, std::string* why,
                                           std::string* note)>
        make;
};
using BackendRows = std::vector<BackendRow>;

// libnbody's rows, in the order the panel shows them: cpu, cuda. Front ends with GL add the GL compute row
// (gl_backend/gl_backend_factory.hpp's backend_rows_with_gl).
const BackendRows& backend_rows();

// The row of kind k, or null where the rows have none.
const BackendRow* find_backend_row(const BackendRows& rows, BackendKind k);

// The row's backend, or null with the words why not in *why (no such row, not in this build, no device).
std::unique_ptr<Backend> try_make_backend(const BackendRows& rows, BackendKind k, const SimParams& p,
                                          std::string* why, std::string* note = nullptr,
                                          const BackendMakeOptions& o = {});

// What the rows offer, for the Kernel panel.
std::vector<BackendOffer> backend_offers(const BackendRows& rows);

// The rows' names ("cpu", "cuda", "gl") and as a list for help texts: "cpu, cuda, gl (OpenGL 4.3 compute)".
std::vector<std::string> backend_names(const BackendRows& rows);
std::string backend_list_text(const BackendRows& rows);

// The sandbox's --backend: the rows' names plus "auto", and the help "cpu, cuda, gl (OpenGL 4.3 compute) or
// auto (<auto_help>)".
std::vector<std::string> backend_flag_choices(const BackendRows& rows);
std::string backend_flag_help(const BackendRows& rows, const std::string& auto_help);

}  // namespace nbody
