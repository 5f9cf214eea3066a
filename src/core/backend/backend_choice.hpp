#pragma once
// Which backend runs and why, as the factory made it: what the window's banner, the Kernel panel and the
// summaries read instead of parsing the factory's words. And a backend the factory offers, as plain data for
// the rooms that cannot see the factory (the UI).
#include <optional>
#include <string>

#include "core/enums/backend_kind.hpp"

namespace nbody {

struct BackendChoice {
    BackendKind asked = BackendKind::Auto;   // SimParams::backend
    BackendKind running = BackendKind::Cpu;  // the kind made
    // Why the CPU runs although a GPU backend was asked for or could have run: the words of what stopped it
    // ("no NVIDIA GPU was found (cudaErrorNoDevice)", "this program was built without CUDA"). Empty where the
    // CPU was asked for, or a GPU backend runs.
    std::string fallback;
    // One line for the terminal and the summaries: what runs and why ("CUDA backend: cuda (NVIDIA H200)",
    // "no usable CUDA device (...); falling back to the CPU backend").
    std::string note;
    // Said in the window while it runs: a backend chosen by hand that this machine runs in a slow way ("GL
    // compute runs on llvmpipe (LLVM 15.0.6, 256 bits), a software rasterizer: its shaders run on this CPU").
    // The window measures how much slower (app/slow_backend_note.hpp). Empty otherwise.
    std::string caution;
    // What takes over where the running backend cannot hold or run a scene (a GPU out of memory): its row's
    // fallback. None where nothing does (the CPU backend, the last resort).
    std::optional<BackendKind> stand_in = BackendKind::Cpu;
};

// The backend a front end marks as chosen: the one asked for by name, or under auto the one auto picked.
inline BackendKind marked_backend(BackendKind asked, BackendKind running) {
    return asked == BackendKind::Auto ? running : asked;
}

// The CPU in place of a GPU backend that could not start or run the state, `why` in words (the factory's
// "--backend cuda: " and a trailing "; keeping the previous state" dropped).
BackendChoice cpu_fallback_choice(BackendKind asked, const std::string& why);

// A backend the factory's rows offer (engine/backend_rows.hpp), for the Kernel panel's buttons.
struct BackendOffer {
    BackendKind kind = BackendKind::Cpu;
    std::string label;        // "CPU", "CUDA", "GL compute"
    std::string help;         // its tooltip
    std::string unavailable;  // why this build cannot run it ("no CUDA in this build"); empty where it can
};

}  // namespace nbody
