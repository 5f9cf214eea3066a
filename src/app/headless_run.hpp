#pragma once
#include "app/options.hpp"
#include "core/backend/backend.hpp"
#include "io/run_summary.hpp"

namespace nbody {

// Runs o.steps steps of `backend` (already reset to the scene's state), or with o.t_end until the simulated
// time reaches t_end (o.steps then caps the count), showing progress on stderr, and returns the summary.
// Throws nbody::Error when the state turns NaN or infinite (naming the step).
RunSummary run_headless(Backend& backend, const RunSetup& setup, const AppOptions& o);

}  // namespace nbody
