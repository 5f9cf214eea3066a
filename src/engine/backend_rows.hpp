#pragma once
// The backends the factory can make, one row each: its key, the words the Kernel panel and --backend show,
// its rank for auto, how it starts (or why it cannot run here, in words) and what takes over where it cannot.
// A new backend is a new row (and its folder); the factory's one loop (engine/backend_chooser.hpp) chooses
// among the rows, and the panel's buttons and the flags list what the rows offer.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/backend/backend.hpp"
#include "core/backend/backend_choice.hpp"

namespace nbody {

struct BackendMakeOptions {
    int parts_per_gpu = 1;  // each GPU as this many parts (nbody-bench --parts-per-gpu); CUDA only
};

// How a row is being started: as auto's pick (which skips a backend that would run slowly here) or because
// it was asked for by name.
enum class BackendPick { Auto, ByHand };

// A row's answer to "start here": the backend, or the words why not.
struct BackendStart {
    std::unique_ptr<Backend> backend;  // null: it cannot run here (or broke, below)
    // Where it runs: what runs, in words ("CUDA backend: cuda (NVIDIA H200)", "CPU backend (asked for)"),
    // and a caution for the window where it runs slowly here (BackendChoice::caution).
    std::string note;
    std::string caution;
    std::string adjusted;  // where it took other than p asked ("2 of the 4 GPUs asked for"); else ""
    // Where it does not: the reason alone (after "--backend gl: " when it was asked for and nothing takes
    // over), the terminal's words ("no usable CUDA device (no NVIDIA GPU was found (cudaErrorNoDevice))") and
    // the banner's ("no NVIDIA GPU was found (cudaErrorNoDevice)").
    std::string why;
    std::string refused_note;
    std::string refused_banner;
    // It could run here but this program's own part failed to start (a shader the driver cannot compile):
    // the row that takes over runs even where the row was asked for by name: choosing again cannot help.
    bool broke = false;
};

// A start that did not happen, with the words: `note` and `banner` default to `why`.
BackendStart refused_start(std::string why, std::string note = {}, std::string banner = {});

// What runs in a row's place where it cannot start or cannot hold the scene (out of memory).
struct BackendFallback {
    std::optional<BackendKind> kind;  // none: nothing takes over (the CPU's row, the last resort)
    // Also where the row was asked for by name and cannot run here, in the front ends that go on whatever the
    // GPU does (the sandbox's command line); false: the front end says why and keeps what it had (a panel
    // click on GL compute where the context has no 4.3 leaves the running backend as it was).
    bool when_asked = false;
};

struct BackendRow {
    BackendKind kind;       // the key (SimParams::backend); backend_kind_name(kind) is its name on --backend
    std::string label;      // the Kernel panel's button: "CUDA"
    std::string flag_help;  // after its name in --backend's help, "" for none: "OpenGL 4.3 compute"
    std::string help;       // the panel's tooltip
    // Auto tries the rows by rank, lowest first, and runs the first that starts; 0: auto never picks it. The
    // real rows step by ten (CUDA 10, GL compute 20, the CPU 30), so a new one fits between them.
    int auto_rank = 0;
    std::string auto_words;  // the row in --backend auto's help, which lists them by rank: "the CPU"
    BackendFallback fallback;
    // Empty where this build can run it, else why not in a few words ("no CUDA in this build"). Cheap: asks
    // no device, so the panel and --help may call it.
    std::function<std::string()> unavailable;
    // Probes the machine and starts the backend for p, or says why not (BackendStart).
    std::function<BackendStart(const SimParams& p, const BackendMakeOptions& o, BackendPick pick)> start;
    // Whether it has code for a force method: where not, the factory passes over it under auto and refuses
    // it by name, naming the method, the backend and what runs it, before probing the machine. Empty: every
    // method (a backend over the CPU's evaluators).
    std::function<bool(ForceMethod)> runs_method;
};
using BackendRows = std::vector<BackendRow>;

// libnbody's rows, in the order the panel shows them: cpu, cuda. Front ends with GL add the GL compute row
// (gl_backend/gl_backend_factory.hpp's backend_rows_with_gl).
const BackendRows& backend_rows();

// The rows auto tries (a rank above 0), lowest rank first.
std::vector<const BackendRow*> rows_by_auto_rank(const BackendRows& rows);

// row.start, or the words why the row has no code for p.method (runs_method) without starting it.
BackendStart start_row(const BackendRow& row, const SimParams& p, const BackendMakeOptions& o, BackendPick pick);

// The row of kind k, or null where the rows have none.
const BackendRow* find_backend_row(const BackendRows& rows, BackendKind k);

// The row's backend started by name, or null with the words why not in *why (no such row, not in this build,
// no device). *note, where given, says what it took where that differs from what p asked (fewer GPUs).
std::unique_ptr<Backend> try_make_backend(const BackendRows& rows, BackendKind k, const SimParams& p,
                                          std::string* why, std::string* note = nullptr,
                                          const BackendMakeOptions& o = {});

// What the rows offer, for the Kernel panel.
std::vector<BackendOffer> backend_offers(const BackendRows& rows);

// The rows' names ("cpu", "cuda", "gl") and as a list for help texts: "cpu, cuda, gl (OpenGL 4.3 compute)".
std::vector<std::string> backend_names(const BackendRows& rows);
std::string backend_list_text(const BackendRows& rows);

// The sandbox's --backend: the rows' names plus "auto", and the help "cpu, cuda, gl (OpenGL 4.3 compute) or
// auto (CUDA when a device is usable, else ..., else the CPU)", auto's words from the rows by rank.
std::vector<std::string> backend_flag_choices(const BackendRows& rows);
std::string backend_flag_help(const BackendRows& rows);

}  // namespace nbody
