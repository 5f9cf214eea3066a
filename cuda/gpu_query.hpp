#pragma once
// A CUDA device's limits as plain C++ (core/gpu_limits.hpp), and whether this build's kernels load on it.
#include <string>

#include "core/gpu_limits.hpp"

namespace nbody {

// From cudaGetDeviceProperties; throws BackendError naming the call when the query fails.
GpuLimits query_gpu_limits(int device);

// The architectures this build compiled kernels for, as CMake was given them ("75;80;86;89;90;100;120-virtual"
// or "90"): what the words on a GPU without kernels name.
std::string built_cuda_architectures();

// Loads a one-instruction probe kernel on `device`: empty when this build has code the driver can run there,
// else the CUDA error's name ("cudaErrorNoKernelImageForDevice", "cudaErrorUnsupportedPtxVersion", ...).
std::string probe_kernel_image(int device);

}  // namespace nbody
