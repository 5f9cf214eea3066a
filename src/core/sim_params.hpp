#pragma once
// SimParams: the single source of truth for how the simulation runs. The command line, scene files and
// the UI all edit one of these; the simulation applies it at a frame (step) boundary. Each axis of the
// engine is one field here: backend, kernel family and shape (or auto), precision, integrator, GPU count.
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/kernel_config.hpp"
#include "core/integrator.hpp"
#include "core/kernel_family.hpp"
#include "core/named_enum.hpp"
#include "core/tree/tree_params.hpp"

namespace nbody {

enum class BackendKind { Auto, Cpu, Cuda, Gl };

std::optional<BackendKind> parse_backend_kind(std::string_view s);  // "auto", "cpu", "cuda", "gl"
std::string_view backend_kind_name(BackendKind k);

// The arithmetic of the force evaluation, an axis beside the kernel variant.
enum class Precision {
    Fp32,  // positions, differences and sums in float32
    DS,    // positions kept in double; x_j - x_i formed in double-single and rounded to float (Sapporo2)
    Fp64,  // everything in IEEE double
};
const std::array<NamedValue<Precision>, 3>& precision_table();
std::optional<Precision> parse_precision(std::string_view s);  // "fp32", "ds", "fp64"
std::string_view precision_name(Precision p);
constexpr unsigned bit(Precision p) { return 1u << static_cast<unsigned>(p); }
inline constexpr unsigned kAllPrecisions = bit(Precision::Fp32) | bit(Precision::DS) | bit(Precision::Fp64);

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

// Throws ParamError naming the first field out of range and its allowed range, or the integrator, method and
// precision rows that do not run together.
void validate(const SimParams& p);

// After a change of method: the integrator and precision moved to the first ones the method runs with where
// it does not run the current ones (the panels pick for the user rather than refuse).
void fit_to_method(SimParams& p);

// What a backend (or engine) has code for: the schemes, methods and precisions it runs. Empty, or the
// ParamError words for the first field of `p` it cannot run, naming the backend and both values.
struct BackendReach {
    std::string_view backend;  // "the gl backend"
    unsigned schemes;          // bit 1 << Scheme
    unsigned methods;          // bit 1 << ForceMethod
    unsigned precisions;       // bit 1 << Precision
};
void check_reach(const BackendReach& r, const SimParams& p);  // throws ParamError
// ParamError "precision" for a kernel family that does not run in that precision (tensor: fp32 only), from
// the family's descriptor row.
void validate_variant_precision(KernelVariant v, Precision p);

// Every field equal (written out: the CUDA files compile as C++17, without defaulted comparisons).
bool same_params(const SimParams& a, const SimParams& b);

// "ij-unrolled k 4 u 4 block 256 q auto", or "auto" when the backend chooses.
std::string kernel_label(const SimParams& p);

}  // namespace nbody
