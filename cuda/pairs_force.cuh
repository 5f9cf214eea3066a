#pragma once
// The pairs family's launch (host side): pairs_kernel over the upper triangle of tiles, then
// pairs_finish_kernel (each body's partial sums, then the leap-frog update). Fp32 on one GPU only;
// LeapfrogEngine refuses the rest.
#include <cuda_runtime.h>

#include "core/kernel_config.hpp"
#include "device_set.cuh"
#include "kernel_table.cuh"

namespace nbody::kernels {

// The partial sums the family may allocate on `device`: a kPairsScratchShare-th of its memory.
long long pairs_scratch_cap(int device);

class PairsForce {
  public:
    // Allocates the partial sums of plan `pl` for n bodies (BackendError when the GPU has not the memory).
    PairsForce(int device, const KernelEntry& kernel, const LaunchPlan& pl, std::size_t n);
    // Both kernels on `stream`, with `a` (in.pos: the float4 bodies, all n plus the zeroed padding) completed
    // by the partial sums and the strips.
    void launch(StepArgs a, cudaStream_t stream) const;

  private:
    const KernelEntry& m_kernel;
    LaunchPlan m_plan;
    int m_strips = 0;
    DeviceBuffer m_partial;
};

}  // namespace nbody::kernels
