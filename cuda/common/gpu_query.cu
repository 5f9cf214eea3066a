#include "common/gpu_query.hpp"

#include <cuda_runtime.h>

#include "common/cuda_check.cuh"
#include "core/backend/gpu_words.hpp"

#ifndef NBODY_CUDA_ARCHITECTURES
#define NBODY_CUDA_ARCHITECTURES "unknown"
#endif

namespace nbody {

namespace {
__global__ void probe_kernel(int* out) {
    if (out) *out = 1;
}

// The facts cuda_start_words needs: the error, this build's architectures and CUDA, the driver's, and the GPU
// where one can be asked (device < 0: none).
CudaStartProblem start_problem(const std::string& error, int device) {
    CudaStartProblem p;
    p.error = error;
    p.built_archs = NBODY_CUDA_ARCHITECTURES;
    cudaDriverGetVersion(&p.driver_cuda);
    cudaRuntimeGetVersion(&p.runtime_cuda);
    cudaDeviceProp prop{};
    if (device >= 0 && cudaGetDeviceProperties(&prop, device) == cudaSuccess) {
        p.gpu = prop.name;
        p.cc = prop.major * 10 + prop.minor;
    }
    cudaGetLastError();
    return p;
}
}  // namespace

GpuLimits query_gpu_limits(int device) {
    cudaDeviceProp p{};
    NBODY_CUDA_CHECK(cudaGetDeviceProperties(&p, device));
    int clock_khz = 0, fp32_per_fp64 = 0;
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device);
    cudaDeviceGetAttribute(&fp32_per_fp64, cudaDevAttrSingleToDoublePrecisionPerfRatio, device);
    GpuLimits g;
    g.name = p.name;
    g.cc_major = p.major;
    g.cc_minor = p.minor;
    g.sms = p.multiProcessorCount;
    g.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
    g.regs_per_sm = p.regsPerMultiprocessor;
    g.shared_per_sm = static_cast<int>(p.sharedMemPerMultiprocessor);
    g.shared_per_block_optin = static_cast<int>(p.sharedMemPerBlockOptin);
    g.clock_ghz = clock_khz * 1e-6;
    g.fp32_per_fp64 = fp32_per_fp64 > 0 ? fp32_per_fp64 : 2;
    g.memory_bytes = p.totalGlobalMem;
    return g;
}

std::string built_cuda_architectures() { return NBODY_CUDA_ARCHITECTURES; }

std::string probe_kernel_image(int device) {
    int current = 0;
    cudaGetDevice(&current);
    if (cudaSetDevice(device) != cudaSuccess) return cudaGetErrorName(cudaGetLastError());
    // cudaFuncGetAttributes loads the module for this device: it fails the same way every kernel launch would.
    cudaFuncAttributes attr{};
    const cudaError_t err = cudaFuncGetAttributes(&attr, probe_kernel);
    cudaGetLastError();  // the load error is not sticky, but leave none behind
    cudaSetDevice(current);
    return err == cudaSuccess ? std::string() : std::string(cudaGetErrorName(err));
}

int usable_cuda_devices(std::string* why) {
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err == cudaSuccess && count > 0) return count;
    cudaGetLastError();  // clears the error the failed query leaves
    if (why)
        *why = cuda_start_words(start_problem(err == cudaSuccess ? "cudaErrorNoDevice" : cudaGetErrorName(err), -1));
    return 0;
}

std::string cuda_device_refusal(int device) {
    cudaDeviceProp prop{};
    if (const cudaError_t err = cudaGetDeviceProperties(&prop, device); err != cudaSuccess) {
        cudaGetLastError();
        return cuda_start_words(start_problem(cudaGetErrorName(err), -1));
    }
    const std::string error = prop.major * 10 + prop.minor < 75 ? "cudaErrorInvalidDevice" : probe_kernel_image(device);
    return error.empty() ? std::string() : cuda_start_words(start_problem(error, device));
}

}  // namespace nbody
