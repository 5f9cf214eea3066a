#pragma once
// What a GL context offers the compute backend, and the checks made on it before anything is allocated. The
// checks are plain functions of the numbers, so the refusals are tested without a driver that would give
// them.
#include <cstddef>
#include <string>

namespace nbody {

struct GlComputeLimits {
    int major = 0, minor = 0;        // context version: compute shaders need 4.3
    long long max_shared_bytes = 0;  // GL_MAX_COMPUTE_SHARED_MEMORY_SIZE (32 KiB at least where 4.3)
    int max_invocations = 0;         // GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS
    int max_size_x = 0;              // GL_MAX_COMPUTE_WORK_GROUP_SIZE, x
    long long max_groups_x = 0;      // GL_MAX_COMPUTE_WORK_GROUP_COUNT, x
    long long max_ssbo_bytes = 0;    // GL_MAX_SHADER_STORAGE_BLOCK_SIZE: the largest array a shader may index
    long long free_memory_bytes = -1;  // NVX_gpu_memory_info or ATI_meminfo where offered, else -1 (unknown)
    int units = 0;                     // streaming multiprocessors (NV_shader_thread_group), 0 where unknown
    std::string renderer;              // GL_RENDERER
    std::string version;               // GL_VERSION
};

// Buffers of N float4 the backend allocates: positions twice (this step's and the next), velocities and
// accelerations: 64 bytes a body.
inline constexpr int kGlBodyArrays = 4;
// The smallest work group the backend runs (a tile of 64 float4 j-bodies in shared memory).
inline constexpr int kGlMinBlock = 64;

// Queries the current context (needs glad loaded and a context current).
GlComputeLimits query_gl_limits();

// Empty, or why this context cannot run GL compute at all: a version below 4.3, or too little shared memory
// or too few invocations for the smallest work group.
std::string compute_refusal(const GlComputeLimits& l);

// Empty, or why n bodies do not fit: one array over GL_MAX_SHADER_STORAGE_BLOCK_SIZE, or all of them over the
// memory the driver says is free, with the numbers.
std::string buffers_refusal(const GlComputeLimits& l, std::size_t n);

// Mesa's llvmpipe and softpipe, SwiftShader and the like: GL that runs on the CPU.
bool software_renderer(const std::string& renderer);

}  // namespace nbody
