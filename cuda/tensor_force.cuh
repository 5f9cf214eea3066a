#pragma once
// The tensor-core family's launch (host side): the Morton sort of the positions a step evaluates the forces
// at, then tensor_step_kernel (tensor_kernel.cuh). Fp32 on one GPU only; LeapfrogEngine refuses the rest.
#include <cuda_runtime.h>

#include "core/kernel_config.hpp"
#include "kernel_table.cuh"
#include "morton_sort.cuh"

namespace nbody::kernels {

// Shared memory per j-body of a tile (both products' operands), bytes; a launch takes two tiles of block.
int tensor_body_bytes();

// The kernel's entry (for its attributes and the occupancy query; launch is null: TensorForce launches it).
// Raises the kernel's dynamic shared-memory limit on the current device to what block 256 needs.
const KernelEntry& tensor_kernel_entry();

class TensorForce {
  public:
    TensorForce(int device, std::size_t n) : m_sort(device, n) {}
    // The sort, then the step kernel with args `a` (whose in.pos are the float4 bodies, all n on one part)
    // under plan `pl`; all on `stream`, graph-capturable.
    void launch(const StepArgs& a, const LaunchPlan& pl, cudaStream_t stream) const;

  private:
    MortonSort m_sort;
};

}  // namespace nbody::kernels
