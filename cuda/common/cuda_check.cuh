#pragma once
// CUDA error checks that say where they came from: "cuda_backend.cu:120: cudaMalloc(&m_pos[0], bytes):
// out of memory". Throws nbody::BackendError so the program can fall back or keep its old state.
#include <cuda_runtime.h>

#include <string>

#include "core/errors.hpp"

namespace nbody {

inline void cuda_check(cudaError_t err, const char* call, const char* file, int line) {
    if (err == cudaSuccess) return;
    std::string f = file;
    if (auto slash = f.find_last_of('/'); slash != std::string::npos) f = f.substr(slash + 1);
    throw BackendError(f + ":" + std::to_string(line) + ": " + call + ": " + cudaGetErrorString(err));
}

}  // namespace nbody

#define NBODY_CUDA_CHECK(call) ::nbody::cuda_check((call), #call, __FILE__, __LINE__)
// After a kernel launch: configuration errors show up at once, faults at the next synchronisation.
#define NBODY_CUDA_CHECK_LAUNCH(what) ::nbody::cuda_check(cudaGetLastError(), what, __FILE__, __LINE__)
