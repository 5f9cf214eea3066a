#pragma once
// The one loop that chooses a backend from the rows (engine/backend_rows.hpp): SimParams::backend by name,
// or auto (the rows by rank), each row's fallback where it cannot start, and the words of every refusal in
// the BackendChoice (core/backend/backend_choice.hpp) that the banner, the panels and the summaries read.
#include <memory>

#include "core/backend/backend.hpp"
#include "core/backend/backend_choice.hpp"
#include "engine/backend_rows.hpp"

namespace nbody {

// What a front end does where the backend asked for by name cannot run here.
enum class WhenAskedFails {
    Throw,     // BackendError "--backend <name>: <why>" (the library, Python): the caller decides
    FallBack,  // its row's fallback runs, where the row allows it, with the reason (the sandbox goes on)
};

// The backend p.backend asks for from `rows` (a row without code for p.method, BackendRow::runs_method, is one
// that cannot start, with words naming the method and what runs it):
// - by name: that row; where it cannot start, BackendError naming why, or its fallback (WhenAskedFails;
//   a row that broke always hands over);
// - auto: the rows with a rank, lowest first; the first that starts runs, and the choice's note says why
//   each before it did not ("no usable CUDA device (...); no GL compute (...); using the CPU backend").
// BackendError where nothing can run. *choice says what runs and why.
std::unique_ptr<Backend> choose_backend(const BackendRows& rows, const SimParams& p, BackendChoice* choice,
                                        WhenAskedFails when_asked_fails, const BackendMakeOptions& o = {});

}  // namespace nbody
