#pragma once
// Why the CUDA backend cannot start on this machine, in words a user can act on: what is wrong, with which GPU,
// and the command that fixes it. The CUDA error's name follows in brackets, for a bug report, never alone.
// Plain C++ (the CUDA backend fills the facts; unit tests give fake ones).
#include <string>

namespace nbody {

struct CudaStartProblem {
    std::string error;        // the CUDA error's name: "cudaErrorNoKernelImageForDevice", "cudaErrorInsufficientDriver"
    std::string gpu;          // "NVIDIA GeForce RTX 2080"; empty where no device could be asked
    int cc = 0;               // its compute capability x 10 (75); 0 where unknown
    std::string built_archs;  // the architectures this build compiled, as CMake was given them: "90", "75-virtual"
    int driver_cuda = 0;      // cudaDriverGetVersion: 12020 is CUDA 12.2; 0 where no driver answered
    int runtime_cuda = 0;     // cudaRuntimeGetVersion of this build: 13000
};

// "the NVIDIA GeForce RTX 2080 (compute capability 7.5) has no GPU code in this program, which was built for
// compute capability 9.0 (sm_90) only: rebuild it for this GPU with scripts/build.sh, which builds for the GPU it
// finds, or configure with -DNBODY_CUDA_ARCHS=75 (cudaErrorNoKernelImageForDevice)".
std::string cuda_start_words(const CudaStartProblem& p);

// "compute capability 9.0 (sm_90)", "PTX for compute capability 7.5, compiled by the driver for newer GPUs",
// or a list of both, from CMake's architecture list ("75-real;80-real;120").
std::string built_architectures_text(const std::string& cmake_list);

// "12.2" from 12020.
std::string cuda_version_text(int version);

// The backend note when the CPU runs because the GPU could not (BackendChoice::note; cpu_fallback_choice in
// core/backend/backend_choice.hpp makes the whole choice): "no usable CUDA device (<why>); falling back to the CPU
// backend". `why` loses a leading "--backend cuda: " and a trailing "; keeping the previous state", which say
// nothing once the CPU has taken over.
std::string cpu_fallback_note(const std::string& why);

}  // namespace nbody
