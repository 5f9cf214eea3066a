#pragma once
// A CUDA device's limits as plain C++ (core/kernels/gpu_limits.hpp), and whether this build's kernels load on it.
#include <string>

#include "core/kernels/gpu_limits.hpp"

namespace nbody {

// From cudaGetDeviceProperties; throws BackendError naming the call when the query fails.
GpuLimits query_gpu_limits(int device);

// The architectures this build compiled kernels for, as CMake was given them ("75;80;86;89;90;100;120-virtual"
// or "90"): what the words on a GPU without kernels name.
std::string built_cuda_architectures();

// Loads a one-instruction probe kernel on `device`: empty when this build has code the driver can run there,
// else the CUDA error's name ("cudaErrorNoKernelImageForDevice", "cudaErrorUnsupportedPtxVersion", ...).
std::string probe_kernel_image(int device);

// The CUDA devices on this machine; 0 with *why saying in words (core/backend/gpu_words.hpp) why none can be used (no
// driver, a driver older than this build's CUDA, no device). What every CUDA engine asks before it starts.
int usable_cuda_devices(std::string* why);

// Empty when `device` can run this build's kernels; otherwise why not, in words: a GPU older than Turing, no code
// for its architecture in this build, a driver that cannot compile the build's PTX.
std::string cuda_device_refusal(int device);

}  // namespace nbody
