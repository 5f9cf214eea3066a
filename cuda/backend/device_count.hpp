#pragma once
// The number of CUDA devices on this machine, for callers that must tell "no GPU here" from "the GPU
// failed" (plain C++: the host sees no CUDA types).
namespace nbody {

// 0 where there is no device, no driver, or a driver too old for this runtime; never throws.
int count_cuda_devices();

}  // namespace nbody
