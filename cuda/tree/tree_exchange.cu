// The exchange of walked accelerations (tree_exchange.cuh).
#include <cuda_runtime.h>

#include <string>

#include "core/errors.hpp"
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

void ensure_keyed(TreeReplica& r, std::size_t n) {
    if (r.keyed.bytes() < n * sizeof(float4))
        r.keyed = DeviceBuffer::alloc(r.part->device, n * sizeof(float4), "tree exchanged accelerations");
}

void gather_own_run(TreeReplica& r, KeyRun run) {
    if (run.end > run.begin)
        gather_run_kernel<<<blocks_for(run.end - run.begin), kBlock, 0, r.part->stream>>>(
            r.tree.device_order(), r.acc.as<const float4>(), r.keyed.as<float4>(), uint32_t(run.begin),
            uint32_t(run.end));
    NBODY_CUDA_CHECK_LAUNCH("gather_run_kernel");
}

void scatter_others(TreeReplica& r, std::size_t n, KeyRun own) {
    scatter_others_kernel<<<blocks_for(n), kBlock, 0, r.part->stream>>>(
        r.tree.device_order(), r.keyed.as<const float4>(), r.acc.as<float4>(), uint32_t(n), uint32_t(own.begin),
        uint32_t(own.end));
    NBODY_CUDA_CHECK_LAUNCH("scatter_others_kernel");
}

}  // namespace

void exchange_walked(std::vector<std::unique_ptr<TreeReplica>>& parts, DeviceSet& dev, std::size_t n) {
    if (parts.size() < 2 || n == 0) return;
    for (auto& r : parts) {
        NBODY_CUDA_CHECK(cudaSetDevice(r->part->device));
        ensure_keyed(*r, n);
        gather_own_run(*r, r->tree.walked_run());
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
        scatter_others(*r, n, r->tree.walked_run());
    }
}

void exchange_between_ranks(TreeReplica& r, std::size_t n, const std::vector<IndexRange>& runs, int rank,
                            const std::function<void(Float4*, std::size_t, const std::vector<IndexRange>&)>& gather) {
    const KeyRun own = r.tree.walked_run();
    const IndexRange said = runs.at(std::size_t(rank));
    if (said.begin != own.begin || said.end != own.end)
        throw BackendError("tree over ranks: rank " + std::to_string(rank) + " walked bodies " +
                           std::to_string(own.begin) + ".." + std::to_string(own.end) + " of the key order, the " +
                           "ranks' bounds say " + std::to_string(said.begin) + ".." + std::to_string(said.end) +
                           " (their trees differ)");
    NBODY_CUDA_CHECK(cudaSetDevice(r.part->device));
    ensure_keyed(r, n);
    if (r.host_keyed.size() < n) r.host_keyed = Pinned<float4>(n);
    const cudaStream_t s = r.part->stream;
    gather_own_run(r, own);
    NBODY_CUDA_CHECK(cudaMemcpyAsync(r.host_keyed.get() + own.begin, r.keyed.as<float4>() + own.begin,
                                     (own.end - own.begin) * sizeof(float4), cudaMemcpyDeviceToHost, s));
    NBODY_CUDA_CHECK(cudaStreamSynchronize(s));
    gather(reinterpret_cast<Float4*>(r.host_keyed.get()), n, runs);
    const KeyRun others[2] = {{0, own.begin}, {own.end, n}};
    for (const KeyRun& o : others)
        if (o.end > o.begin)
            NBODY_CUDA_CHECK(cudaMemcpyAsync(r.keyed.as<float4>() + o.begin, r.host_keyed.get() + o.begin,
                                             (o.end - o.begin) * sizeof(float4), cudaMemcpyHostToDevice, s));
    scatter_others(r, n, own);
}

}  // namespace nbody::kernels
