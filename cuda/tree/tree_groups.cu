// The GPU tree's groups (tree::emit_groups of core/tree/groups.hpp, the CPU tree's rule, which reads the
// cells' bodies' boxes from the double moments): each cell counts the groups it emits, a CUB scan places
// them, and a second pass writes them, in cell order as the CPU tree lists them.
#include <cub/device/device_scan.cuh>

#include "core/tree/groups.hpp"
#include "tree/gpu_tree_impl.cuh"

namespace nbody {

namespace {

template <bool kWrite>
__global__ void tree_groups_kernel(const tree::TreeCell* cells, const tree::MomentsD* moments, uint32_t count,
                                   uint32_t group, uint32_t* made, const uint32_t* offsets, tree::TreeGroup* out) {
    const uint32_t p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= count) return;
    uint32_t at = kWrite ? offsets[p] : 0;
    const uint32_t n = tree::emit_groups(cells, moments, p, group, [&](uint32_t begin, uint32_t k) {
        if (kWrite) out[at++] = {begin, k};
    });
    if (!kWrite) made[p] = n;
}

}  // namespace

void GpuTree::Impl::exclusive_sum(const uint32_t* in, uint32_t* out, std::size_t count) {
    std::size_t bytes = 0;
    NBODY_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, static_cast<int>(count)));
    if (bytes > scan_temp_bytes) {
        scan_temp = kernels::DeviceBuffer::alloc(device, bytes, "tree scan scratch");
        scan_temp_bytes = bytes;
    }
    NBODY_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scan_temp.get(), bytes, in, out, static_cast<int>(count), stream));
}

void GpuTree::Impl::make_groups(uint32_t group) {
    const uint32_t count = static_cast<uint32_t>(cells);
    const auto* cell = tree_cells.as<const tree::TreeCell>();
    const auto* md = moments_d.as<const tree::MomentsD>();  // the bodies' boxes the packing reads
    if (group_made.bytes() < std::size_t(count) * 4)
        for (auto* v : {&group_made, &group_offsets})
            *v = kernels::DeviceBuffer::alloc(device, std::size_t(count) * 2 * 4, "tree group counts");
    tree_groups_kernel<false><<<grid_for(count, 128), 128, 0, stream>>>(
        cell, md, count, group, group_made.as<uint32_t>(), nullptr, nullptr);
    NBODY_CUDA_CHECK_LAUNCH("tree_groups_kernel<count>");
    exclusive_sum(group_made.as<const uint32_t>(), group_offsets.as<uint32_t>(), count);
    uint32_t* tail = host_words.get();
    NBODY_CUDA_CHECK(cudaMemcpyAsync(&tail[0], group_offsets.as<uint32_t>() + count - 1, 4, cudaMemcpyDeviceToHost,
                                     stream));
    NBODY_CUDA_CHECK(cudaMemcpyAsync(&tail[1], group_made.as<uint32_t>() + count - 1, 4, cudaMemcpyDeviceToHost,
                                     stream));
    NBODY_CUDA_CHECK(cudaStreamSynchronize(stream));
    groups = std::size_t(tail[0]) + tail[1];
    if (group_list.bytes() < groups * sizeof(tree::TreeGroup))
        group_list = kernels::DeviceBuffer::alloc(device, std::max<std::size_t>(groups, n / 8 + 1) * sizeof(tree::TreeGroup),
                                                  "tree groups");
    tree_groups_kernel<true><<<grid_for(count, 128), 128, 0, stream>>>(
        cell, md, count, group, nullptr, group_offsets.as<const uint32_t>(), group_list.as<tree::TreeGroup>());
    NBODY_CUDA_CHECK_LAUNCH("tree_groups_kernel<write>");
}

}  // namespace nbody
