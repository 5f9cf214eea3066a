#pragma once
// Morton order of the bodies for the tensor-core kernel (tensor_kernel.cuh): its r^2 = |u|^2 + |v|^2 - 2 u.v
// relative to a block's centre cancels unless the block's i-bodies are close together, which a sort along a
// space-filling curve gives. Per evaluation, all stream-ordered and graph-capturable (no host sync, no
// allocation): the bounding box (one block, spatial/bounding_box.cuh), 30-bit Morton keys, the radix sort of
// (key, index) (spatial/key_sort.cuh), and a gather of the positions and masses into sorted order.
#include <cuda_runtime.h>

#include <cstddef>

#include "common/device_set.cuh"
#include "spatial/key_sort.cuh"

namespace nbody::kernels {

class MortonSort {
  public:
    // Scratch for n bodies on `device` (the radix sort's temporary storage sized here, once). Throws
    // BackendError when the GPU does not have the memory.
    MortonSort(int device, std::size_t n);

    // Queues the sort of the n float4 bodies at `pos` on `stream`; afterwards sorted()[k] = pos[order()[k]].
    void enqueue(const float4* pos, cudaStream_t stream) const;
    const float4* sorted() const { return m_sorted.as<const float4>(); }
    const int* order() const { return m_sort.order(); }

  private:
    std::size_t m_n;
    DeviceBuffer m_box;                  // float4 lo, float4 scale (keys per unit length; 0 on a flat axis)
    KeyIndexSort<unsigned, int> m_sort;  // the keys and body indices, sorted by key
    DeviceBuffer m_sorted;               // float4 positions and masses in Morton order
};

}  // namespace nbody::kernels
