#pragma once
// SimParams: the single source of truth for how the simulation runs. The command line, scene files and
// the UI all edit one of these; the simulation applies it at a frame boundary.
#include <optional>
#include <string>
#include <string_view>

#include "core/kernel_config.hpp"

namespace nbody {

enum class BackendKind { Auto, Cpu, Cuda };

std::optional<BackendKind> parse_backend_kind(std::string_view s);  // "auto", "cpu", "cuda"
std::string_view backend_kind_name(BackendKind k);

struct SimParams {
    double dt = 0.01;          // time step (time units), > 0 and finite
    double eps = 0.01;         // Plummer softening length: r^2 + eps^2 (length units), >= 0
    double G = 1.0;            // gravitational constant (N-body units: 1), > 0
    int steps_per_frame = 1;   // interactive only, 1 to 10000
    BackendKind backend = BackendKind::Auto;
    KernelVariant variant = KernelVariant::IJUnrolled;
    KernelShape shape = variant_info(KernelVariant::IJUnrolled).default_shape;
    int cpu_threads = 0;       // 0 = all hardware threads
};

// Throws ParamError naming the first field out of range and its allowed range.
void validate(const SimParams& p);

}  // namespace nbody
