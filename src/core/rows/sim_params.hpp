#pragma once
// SimParams: the single source of truth for how the simulation runs. The command line, scene files and
// the UI all edit one of these; the simulation applies it at a frame (step) boundary. Each axis of the
// engine is one field here: backend, kernel family and shape (or auto), precision, integrator, GPU count.
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/enums/backend_kind.hpp"
#include "core/enums/integrator_id.hpp"
#include "core/enums/force_method_id.hpp"
#include "core/kernels/kernel_config.hpp"
#include "core/kernels/kernel_family.hpp"
#include "core/enums/precision.hpp"
#include "core/tree/tree_params.hpp"

namespace nbody {


// The most GPUs one simulation may be spread over (a bound for validation, not a promise of hardware).
inline constexpr int kMaxGpus = 64;

struct SimParams {
    double dt = 0.01;          // time step (time units), > 0 and finite; hermite-block: the largest block step
    double eps = 0.01;         // Plummer softening length: r^2 + eps^2 (length units), >= 0
    double G = 1.0;            // gravitational constant (N-body units: 1), > 0
    int steps_per_frame = 1;   // interactive only, 1 to 10000 (hermite-block: block steps per frame)
    BackendKind backend = BackendKind::Auto;
    ForceMethod method = ForceMethod::Direct;  // how forces are found; the kernel family must be one of its rows
    TreeParams tree;  // method tree: opening angle theta, leaf and group sizes (core/tree/tree_params.hpp)
    // The CUDA kernel: with kernel_auto (the default) the backend picks the variant and shape for the current
    // N and GPU from its tuning table; otherwise `variant` and `shape` are used as given.
    bool kernel_auto = true;
    KernelVariant variant = KernelVariant::IJUnrolled;
    KernelShape shape = variant_info(KernelVariant::IJUnrolled).default_shape;
    Precision precision = Precision::Fp32;
    Integrator integrator = Integrator::LeapFrog;
    double eta = 0.01;         // Aarseth accuracy parameter (block steps), 1e-6 to 1
    int gpus = 1;              // GPUs the CUDA backend spreads the bodies over: 1 to kMaxGpus, 0 = all
    int cpu_threads = 0;       // 0 = all hardware threads
};

// The CUDA devices for SimParams::gpus on a machine with `available` GPUs: 1 -> {0}, 0 ("all") -> every
// one, more than there are -> every one, with the reason in *note (empty otherwise).
std::vector<int> devices_for(int gpus, int available, std::string* note);

// Every field equal (written out: the CUDA files compile as C++17, without defaulted comparisons).
bool same_params(const SimParams& a, const SimParams& b);


}  // namespace nbody
