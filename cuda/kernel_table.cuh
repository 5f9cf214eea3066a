#pragma once
// The compiled kernel instances, looked up at run time by (variant, k, u). A variant is a type
// (step_kernel<K, U, ROLLED>); this table is the deliberate list of the 13 instances CI and every
// developer compile: none (1x1), i-unrolled (k = 2, 4, 8), ij-unrolled (k, u in {2, 4, 8}).
#include <cuda_runtime.h>

#include "core/kernel_config.hpp"
#include "step_kernel.cuh"

namespace nbody::kernels {

using Launcher = void (*)(dim3 grid, dim3 block, size_t smem, cudaStream_t stream, const StepArgs& args);

struct KernelEntry {
    KernelVariant variant;
    int k, u;
    const void* function;  // for cudaFuncGetAttributes (registers, max threads per block)
    Launcher launch;
};

// Null when the combination was not compiled (validate_shape rejects those first).
const KernelEntry* find_kernel(KernelVariant v, int k, int u);

}  // namespace nbody::kernels
