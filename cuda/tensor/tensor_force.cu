#include "tensor/tensor_force.cuh"

#include <memory>

#include "tensor/tensor_kernel.cuh"

namespace nbody::kernels {

int tensor_body_bytes() {
    return static_cast<int>(tc::tile_floats(8) * sizeof(float) / 8);
}

namespace {
// The sort, then the step kernel with args `a` (whose in.pos are the float4 bodies, all n on one part) on the
// plan's grid and block; the shared memory (two tiles of block bodies' operands) follows from the block.
void launch_tensor(dim3 grid, dim3 block, size_t, cudaStream_t stream, const StepArgs& a, const FamilyScratch* s) {
    const MortonSort& sort = static_cast<const TensorScratch*>(s)->sort;
    sort.enqueue(static_cast<const float4*>(a.in.pos), stream);
    const TensorArgs t{a, sort.sorted(), sort.order()};
    const size_t smem = 2 * static_cast<size_t>(tc::tile_floats(static_cast<int>(block.x))) * sizeof(float);
    tensor_step_kernel<<<grid, block.x, smem, stream>>>(t);
    NBODY_CUDA_CHECK_LAUNCH("tensor_step_kernel");
}
}  // namespace

KernelList tensor_kernels(Precision p) {
    static const KernelEntry e{Precision::Fp32, KernelVariant::Tensor, 1, 1,
                               reinterpret_cast<const void*>(&tensor_step_kernel), &launch_tensor, tensor_body_bytes()};
    if (p != Precision::Fp32) return {nullptr, nullptr};
    return {&e, &e + 1};
}

std::unique_ptr<FamilyScratch> make_tensor_scratch(int device, std::size_t n) {
    return std::make_unique<TensorScratch>(device, n);
}

void prepare_tensor(const KernelEntry&) {
    // Two tiles of 256 bodies take 51,200 bytes: above the 48 KiB a launch gets without opting in.
    NBODY_CUDA_CHECK(cudaFuncSetAttribute(tensor_step_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          2 * kTensorMaxBlock * tensor_body_bytes()));
}

}  // namespace nbody::kernels
