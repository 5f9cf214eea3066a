#pragma once
// Block steps' few due bodies summed directly (core/tree/sub_step_rule.hpp's sums_directly): each due body's
// acceleration without G from every body, float32, at Plummer softening. A few hundred due bodies fill a
// few blocks at most, so the bodies are cut into slices summed by blocks of their own (blockIdx.y) and the
// slices' partial sums added in slice order by a second kernel: the same bits whichever block ran first, so a
// rewound run repeats itself. 20 flops a pair.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "common/device_set.cuh"

namespace nbody::kernels {

class TreeActiveDirect {
  public:
    explicit TreeActiveDirect(int device) : m_device(device) {}

    // acc[i] (input order, w = 0) for every i with active[i] != 0, `count` of them, from the n bodies at pos
    // (float4, w = mass); the other entries are left as they are. soft2 = eps^2 plus the tree's floor.
    void evaluate(const float4* pos, const uint8_t* active, std::size_t count, std::size_t n, float soft2,
                  float4* acc, cudaStream_t s);

  private:
    int m_device;
    int m_sms = 0;
    DeviceBuffer m_slots, m_partial;  // the due bodies' indices (then their count), the slices' sums
};

}  // namespace nbody::kernels
