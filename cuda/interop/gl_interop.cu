// The one translation unit that includes cuda_gl_interop.h (which includes <GL/gl.h>): registering,
// mapping and unmapping the renderer's vertex buffer. A current GL context is needed for registration.
#include "interop/gl_interop.hpp"

#include <GL/gl.h>
#include <cuda_gl_interop.h>

#include "common/cuda_check.cuh"

namespace nbody {

namespace {
// A resource belongs to the CUDA device it was registered on (the GL context's GPU); with several GPUs the
// backend leaves another one current after a step, so every call selects the resource's device first.
class CudaGlBuffer final : public GlInteropBuffer {
public:
    CudaGlBuffer(cudaGraphicsResource_t r, int device) : m_res(r), m_device(device) {}
    ~CudaGlBuffer() override {
        cudaSetDevice(m_device);
        if (m_mapped) cudaGraphicsUnmapResources(1, &m_res, 0);
        cudaGraphicsUnregisterResource(m_res);
    }
    void* map() override {
        NBODY_CUDA_CHECK(cudaSetDevice(m_device));
        NBODY_CUDA_CHECK(cudaGraphicsMapResources(1, &m_res, 0));
        m_mapped = true;
        void* ptr = nullptr;
        size_t bytes = 0;
        NBODY_CUDA_CHECK(cudaGraphicsResourceGetMappedPointer(&ptr, &bytes, m_res));
        return ptr;
    }
    void unmap() override {
        if (!m_mapped) return;
        m_mapped = false;
        NBODY_CUDA_CHECK(cudaSetDevice(m_device));
        NBODY_CUDA_CHECK(cudaGraphicsUnmapResources(1, &m_res, 0));
    }

private:
    cudaGraphicsResource_t m_res;
    int m_device;
    bool m_mapped = false;
};
}  // namespace

std::unique_ptr<GlInteropBuffer> GlInteropBuffer::try_register(unsigned gl_buffer, std::size_t bytes,
                                                               std::string* why) {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        cudaGetLastError();
        if (why) *why = "no CUDA device";
        return nullptr;
    }
    // The CUDA device that runs the current GL context (device 0 where the driver cannot say).
    unsigned gl_count = 0;
    int device = 0;
    if (cudaGLGetDevices(&gl_count, &device, 1, cudaGLDeviceListAll) != cudaSuccess || gl_count == 0) {
        cudaGetLastError();
        device = 0;
    }
    cudaSetDevice(device);
    cudaGraphicsResource_t res = nullptr;
    // WriteDiscard: CUDA overwrites the whole buffer every frame and never reads what GL left there.
    const cudaError_t err =
        cudaGraphicsGLRegisterBuffer(&res, static_cast<GLuint>(gl_buffer), cudaGraphicsRegisterFlagsWriteDiscard);
    if (err != cudaSuccess) {
        cudaGetLastError();
        if (why) *why = std::string("cudaGraphicsGLRegisterBuffer: ") + cudaGetErrorString(err) +
                        " (the GL context is not on an NVIDIA GPU?)";
        return nullptr;
    }
    (void)bytes;
    return std::make_unique<CudaGlBuffer>(res, device);
}

}  // namespace nbody
