#pragma once
// CUDA-OpenGL interop for the particle vertex buffer, seen from the host with no CUDA or GL types.
// The renderer owns the GL buffer; this only registers, maps and unmaps it. The only translation unit that
// includes cuda_gl_interop.h is gl_interop.cu.
#include <cstddef>
#include <memory>
#include <string>

namespace nbody {

class GlInteropBuffer {
public:
    // Registers GL buffer object `gl_buffer` (created by the renderer, at least `bytes` long) for CUDA
    // writes. Returns null and puts the reason in *why when registration fails (no NVIDIA GL, remote
    // desktop, hybrid laptop): the caller then falls back to the host-copy path.
    static std::unique_ptr<GlInteropBuffer> try_register(unsigned gl_buffer, std::size_t bytes, std::string* why);

    virtual ~GlInteropBuffer() = default;
    // Maps the buffer for CUDA and returns its device pointer; valid until unmap(). GL must not use the
    // buffer while it is mapped.
    virtual void* map() = 0;
    virtual void unmap() = 0;
};

}  // namespace nbody
