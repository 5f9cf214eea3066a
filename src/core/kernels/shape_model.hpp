#pragma once
// Kernel shapes for a GPU nobody tuned, from its properties instead of another GPU's choices. The model: a
// direct kernel's rate is the GPU's arithmetic peak in that precision times an efficiency that depends on the
// shape and on the load a step puts on the GPU, N over the threads the GPU holds at once (SMs x threads an SM).
// The efficiencies are the reference GPU's (the built-in table: its rates over its own peak, at each relative
// load); a GPU then gets every shape that launches within its limits (core/kernels/gpu_limits.hpp), at the N where it
// carries the same relative load, rated by its own peak. The automatic choice reads the result like a measured
// table, so `nbody-bench --tune` on that GPU later replaces it with measurements.
#include "core/kernels/gpu_limits.hpp"
#include "core/kernels/kernel_tuning.hpp"

namespace nbody {

// Peak operations a second of the kind each precision's kernels are bound by: fp32 and double-single by the
// fp32 lanes (128 an SM x clock), fp64 by the fp64 lanes (the fp32 rate over fp32_per_fp64). Relative units.
double model_peak(const GpuLimits& g, Precision p);

// The threads `g` holds at once: SMs x threads an SM.
double model_slots(const GpuLimits& g);

// The reference GPU the efficiencies come from: the built-in table's (gpu_classes()'s entry of that name).
const GpuLimits& model_reference();

// The modelled table for `g`: source "model of <name> (...)", key {name, SMs, "model"}. Never throws.
TuningTable model_tuning_table(const GpuLimits& g);

// One line for the user: what the model assumed of `g` and how to measure instead.
std::string model_note(const GpuLimits& g);

// The table auto uses on `gpu`: its own cache file (nbody-bench --tune) where one is valid for `key`; the built-in
// table where that was measured on this GPU model and SM count; otherwise the model, with a note saying so (and
// why a cache file was ignored). Never throws for a bad file.
LoadedTuning load_tuning_for(const TuningKey& key, const std::filesystem::path& dir, const GpuLimits& gpu);

}  // namespace nbody
