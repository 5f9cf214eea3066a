#include "tensor_force.cuh"

#include "tensor_kernel.cuh"

namespace nbody::kernels {

int tensor_body_bytes() {
    return static_cast<int>(tc::tile_floats(8) * sizeof(float) / 8);
}

const KernelEntry& tensor_kernel_entry() {
    static const KernelEntry e{
        Precision::Fp32, KernelVariant::Tensor, 1, 1, reinterpret_cast<const void*>(&tensor_step_kernel),
        nullptr,         tensor_body_bytes()};
    // Two tiles of 256 bodies take 51,200 bytes: above the 48 KiB a launch gets without opting in.
    NBODY_CUDA_CHECK(cudaFuncSetAttribute(tensor_step_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          2 * kTensorMaxBlock * tensor_body_bytes()));
    return e;
}

void TensorForce::launch(const StepArgs& a, const LaunchPlan& pl, cudaStream_t stream) const {
    if (pl.blocks <= 0) return;
    const float4* pos = static_cast<const float4*>(a.in.pos);
    m_sort.enqueue(pos, stream);
    const TensorArgs t{a, m_sort.sorted(), m_sort.order()};
    const dim3 grid(static_cast<unsigned>(pl.blocks), static_cast<unsigned>(pl.splits));
    const size_t smem = 2 * static_cast<size_t>(tc::tile_floats(pl.block)) * sizeof(float);
    tensor_step_kernel<<<grid, static_cast<unsigned>(pl.block), smem, stream>>>(t);
    NBODY_CUDA_CHECK_LAUNCH("tensor_step_kernel");
}

}  // namespace nbody::kernels
