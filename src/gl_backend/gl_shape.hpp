#pragma once
// The GL compute kernel's shape: the CUDA-core families' variant and KernelShape, read the way the CUDA
// kernels read them (k i-bodies an invocation, u j-bodies an inner iteration, block invocations a work group,
// q invocations sharing one i-body's j range), with the j-split over work groups (s) fixed at 1. Plain C++:
// the shape is chosen and checked without a context.
#include <cstddef>
#include <string>

#include "core/rows/param_checks.hpp"
#include "core/rows/sim_params.hpp"
#include "gl_backend/gl_limits.hpp"

namespace nbody {

struct GlShape {
    KernelVariant variant = KernelVariant::IJUnrolled;
    int k = 4, u = 4, block = 256, q = 1;
    bool automatic = false;  // the whole shape chosen by the backend (SimParams::kernel_auto)

    int tile_loads = 1;  // j-bodies an invocation loads into each shared-memory tile
    bool rolled() const { return variant != KernelVariant::IJUnrolled; }
    int tile() const { return block * tile_loads; }
    int bodies_per_group() const { return block / q * k; }
};

// One compute shader: direct summation, a kick-drift-kick step, float32 arithmetic. Its row
// (gl_backend_factory.cpp) reads the methods, so the factory passes over it for another method.
const BackendReach& gl_reach();

// Throws ParamError naming what the gl backend does not run: a method other than direct, an integrator other
// than leap-frog, a precision other than fp32, the tensor and pairs families.
void check_gl_params(const SimParams& p);

// The shape for n bodies: SimParams' variant and shape as given (q = 0: chosen), or with kernel_auto the
// ij-unrolled 4 x 4 in work groups of 256. An automatic q is the smallest that puts units x 1,024 invocations
// in flight (one full wave where the units are known; 1 where they are not). Throws ParamError for k, u,
// block or q the variant or this context does not allow, with the allowed values or the limit.
GlShape resolve_gl_shape(const SimParams& p, std::size_t n, const GlComputeLimits& l);

// "ij-unrolled k 4 u 4 block 256 q 8".
std::string gl_shape_label(const GlShape& s);

// Each slice reads at least 64 j-bodies between two barriers where a tile of up to 16 KiB allows: the
// invocations a work group loads for.
inline constexpr int kGlMinPerSlice = 64;
inline constexpr int kGlMaxTileBytes = 16384;

// Work groups one step of n bodies dispatches.
long long gl_groups(const GlShape& s, std::size_t n);

}  // namespace nbody
