#pragma once
// The compiled step-kernel instances, looked up at run time by (precision, variant, k, u). A variant is a
// type (step_kernel<P, K, U, ROLLED>); these tables are the deliberate list CI and every developer compile:
//   fp32: none (1x1), i-unrolled (k = 2, 4, 8), ij-unrolled (k, u in {2, 4, 8})          13 instances
//   ds:   none, i-unrolled (k = 2, 4), ij-unrolled (2x2, 2x4, 4x2, 4x4)                    7
//   fp64: none, i-unrolled (k = 2, 4), ij-unrolled (2x2, 2x4, 4x2, 4x4)                    7
// ds and fp64 carry twice the registers per i- and j-body (double sums, hi + lo), so k and u of 8 would spill.
#include <cuda_runtime.h>

#include <string>

#include "core/kernel_config.hpp"
#include "core/sim_params.hpp"
#include "step_kernel.cuh"

namespace nbody::kernels {

// `overlap`: launch with programmatic stream serialisation (Hopper's programmatic dependent launch): the next
// step's blocks are scheduled while this one's last blocks still run and wait in the kernel (griddepcontrol.wait,
// step_kernel.cuh) until it has finished and its writes are visible, so the launch latency between the steps of
// a graph is hidden. Returns the launch's error.
using Launcher = cudaError_t (*)(dim3 grid, dim3 block, size_t smem, cudaStream_t stream, const StepArgs& args,
                                 bool overlap);

struct KernelEntry {
    Precision precision;
    KernelVariant variant;
    int k, u;
    const void* function;  // for cudaFuncGetAttributes (registers, max threads per block)
    Launcher launch;
    int body_bytes;        // shared memory per j-body: 16 (fp32) or 32 (ds, fp64)
};

// Null when the combination was not compiled.
const KernelEntry* find_kernel(Precision p, KernelVariant v, int k, int u);

// "k x u in {1x1, 2x1, ...}" for the messages that refuse an uncompiled combination.
std::string compiled_shapes(Precision p, KernelVariant v);

// One table per precision (kernel_table_<precision>.cu, compiled in parallel).
struct KernelList {
    const KernelEntry* begin;
    const KernelEntry* end;
};
KernelList fp32_kernels();
KernelList ds_kernels();
KernelList fp64_kernels();

template <class P, int K, int U, bool ROLLED>
cudaError_t launch_step(dim3 grid, dim3 block, size_t smem, cudaStream_t stream, const StepArgs& args,
                        bool overlap) {
    cudaLaunchAttribute attr{};
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config{};
    config.gridDim = grid, config.blockDim = block, config.dynamicSmemBytes = smem, config.stream = stream;
    config.attrs = overlap ? &attr : nullptr, config.numAttrs = overlap ? 1 : 0;
    if constexpr (bounded_step_kernel<P, K>())
        return cudaLaunchKernelEx(&config, step_kernel_bounded<P, K, U, ROLLED>, args);
    else
        return cudaLaunchKernelEx(&config, step_kernel<P, K, U, ROLLED>, args);
}

template <class P, int K, int U, bool ROLLED>
KernelEntry entry(Precision p, KernelVariant v) {
    const void* f;  // only the entry point the instance uses is compiled
    if constexpr (bounded_step_kernel<P, K>())
        f = reinterpret_cast<const void*>(&step_kernel_bounded<P, K, U, ROLLED>);
    else
        f = reinterpret_cast<const void*>(&step_kernel<P, K, U, ROLLED>);
    return {p, v, K, U, f, &launch_step<P, K, U, ROLLED>, 16 * P::kSlots};
}

}  // namespace nbody::kernels
