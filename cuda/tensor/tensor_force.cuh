#pragma once
// The tensor-core family's host side: its one instance (kernel_table.cuh tensor_kernels), the Morton-sort scratch
// configure makes for it, and its launcher: the sort of the positions a step evaluates the forces at, then
// tensor_step_kernel (tensor_kernel.cuh). Fp32 on one GPU only (its row in core/kernels/kernel_family.hpp).
#include <cuda_runtime.h>

#include "direct/kernel_table.cuh"
#include "spatial/morton_sort.cuh"

namespace nbody::kernels {

// Shared memory per j-body of a tile (both products' operands), bytes; a launch takes two tiles of block.
int tensor_body_bytes();

// The Morton-sort buffers of all n bodies (one part).
struct TensorScratch final : FamilyScratch {
    TensorScratch(int device, std::size_t n) : sort(device, n) {}
    MortonSort sort;
};

}  // namespace nbody::kernels
