// The exchange of walked accelerations (tree_exchange.cuh).
#include <cuda_runtime.h>

#include "tree/tree_exchange.cuh"

namespace nbody::kernels {

namespace {

constexpr int kBlock = 256;

// keyed[k] = acc[order[k]] for k in [begin, end): 32 bytes a body moved.
__global__ void gather_run_kernel(const uint32_t* __restrict__ order, const float4* __restrict__ acc,
                                  float4* __restrict__ keyed, uint32_t begin, uint32_t end) {
    const uint32_t k = begin + blockIdx.x * blockDim.x + threadIdx.x;
    if (k < end) keyed[k] = acc[order[k]];
}

// acc[order[k]] = keyed[k] for every k outside [own_begin, own_end): the other parts' runs.
__global__ void scatter_others_kernel(const uint32_t* __restrict__ order, const float4* __restrict__ keyed,
                                      float4* __restrict__ acc, uint32_t n, uint32_t own_begin, uint32_t own_end) {
    const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n && (k < own_begin || k >= own_end)) acc[order[k]] = keyed[k];
}

unsigned blocks_for(std::size_t count) { return unsigned((count + kBlock - 1) / kBlock); }

}  // namespace

void exchange_walked(std::vector<std::unique_ptr<TreeReplica>>& parts, DeviceSet& dev, std::size_t n) {
    if (parts.size() < 2 || n == 0) return;
    for (auto& r : parts) {
        NBODY_CUDA_CHECK(cudaSetDevice(r->part->device));
        if (r->keyed.bytes() < n * sizeof(float4))
            r->keyed = DeviceBuffer::alloc(r->part->device, n * sizeof(float4), "tree exchanged accelerations");
        const KeyRun run = r->tree.walked_run();
        if (run.end > run.begin)
            gather_run_kernel<<<blocks_for(run.end - run.begin), kBlock, 0, r->part->stream>>>(
                r->tree.device_order(), r->acc.as<const float4>(), r->keyed.as<float4>(), uint32_t(run.begin),
                uint32_t(run.end));
        NBODY_CUDA_CHECK_LAUNCH("gather_run_kernel");
    }
    for (auto& r : parts) {
        NBODY_CUDA_CHECK(cudaSetDevice(r->part->device));
        const KeyRun run = r->tree.walked_run();
        const std::size_t bytes = (run.end - run.begin) * sizeof(float4);
        for (auto& to : parts)
            if (to != r && bytes > 0)
                NBODY_CUDA_CHECK(cudaMemcpyPeerAsync(to->keyed.as<float4>() + run.begin, to->part->device,
                                                     r->keyed.as<const float4>() + run.begin, r->part->device,
                                                     bytes, r->part->stream));
        NBODY_CUDA_CHECK(cudaEventRecord(r->part->done, r->part->stream));
    }
    dev.wait_for_peers();
    for (auto& r : parts) {
        NBODY_CUDA_CHECK(cudaSetDevice(r->part->device));
        const KeyRun run = r->tree.walked_run();
        scatter_others_kernel<<<blocks_for(n), kBlock, 0, r->part->stream>>>(
            r->tree.device_order(), r->keyed.as<const float4>(), r->acc.as<float4>(), uint32_t(n),
            uint32_t(run.begin), uint32_t(run.end));
        NBODY_CUDA_CHECK_LAUNCH("scatter_others_kernel");
    }
}

}  // namespace nbody::kernels
