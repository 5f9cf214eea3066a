#pragma once
// The NaN check on the device: the first body whose position is NaN or infinite, found where the bodies live,
// so the window's check of 10^7 bodies a quarter second moves 8 bytes to the host instead of 160 MB.
#include <cuda_runtime.h>

#include <cstddef>
#include <optional>

namespace nbody::kernels {

// pos: n float4 (x, y, z, mass) on the current device; first: one device word of scratch. Synchronises stream.
std::optional<std::size_t> first_nonfinite(const float4* pos, std::size_t n, unsigned long long* first,
                                           cudaStream_t stream);

}  // namespace nbody::kernels
