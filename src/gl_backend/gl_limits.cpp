#include "gl_backend/gl_limits.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <cctype>
#include <cstring>

namespace nbody {

namespace {
// Extension enums glad was not generated with (free memory, in KiB; the SM count).
constexpr GLenum kNvxAvailableKiB = 0x9049;   // GL_GPU_MEMORY_INFO_CURRENT_AVAILABLE_VIDMEM_NVX
constexpr GLenum kAtiFreeBufferKiB = 0x87FB;  // GL_VBO_FREE_MEMORY_ATI: 4 values, the first the total free
constexpr GLenum kNvSmCount = 0x933B;         // GL_SM_COUNT_NV

bool has_extension(const char* name) {
    GLint count = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &count);
    for (GLint i = 0; i < count; ++i) {
        const auto* e = reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, static_cast<GLuint>(i)));
        if (e && std::strcmp(e, name) == 0) return true;
    }
    return false;
}

std::string text(GLenum e) {
    const auto* s = reinterpret_cast<const char*>(glGetString(e));
    return s ? s : "?";
}

std::string mib(long long bytes) {
    return std::to_string((bytes + (1 << 19)) >> 20) + " MiB";
}
}  // namespace

GlComputeLimits query_gl_limits() {
    GlComputeLimits l;
    glGetIntegerv(GL_MAJOR_VERSION, &l.major);
    glGetIntegerv(GL_MINOR_VERSION, &l.minor);
    l.renderer = text(GL_RENDERER);
    l.version = text(GL_VERSION);
    if (l.major < 4 || (l.major == 4 && l.minor < 3)) return l;  // no compute queries to ask
    GLint v = 0;
    glGetIntegerv(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &v);
    l.max_shared_bytes = v;
    glGetIntegerv(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &l.max_invocations);
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_SIZE, 0, &l.max_size_x);
    GLint groups = 0;
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, &groups);
    l.max_groups_x = static_cast<unsigned>(groups);
    GLint64 ssbo = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &ssbo);
    l.max_ssbo_bytes = ssbo;
    GLint kib[4] = {};
    if (has_extension("GL_NVX_gpu_memory_info")) {
        glGetIntegerv(kNvxAvailableKiB, kib);
        l.free_memory_bytes = static_cast<long long>(kib[0]) << 10;
    } else if (has_extension("GL_ATI_meminfo")) {
        glGetIntegerv(kAtiFreeBufferKiB, kib);
        l.free_memory_bytes = static_cast<long long>(kib[0]) << 10;
    }
    if (has_extension("GL_NV_shader_thread_group")) glGetIntegerv(kNvSmCount, &l.units);
    while (glGetError() != GL_NO_ERROR) {
    }
    return l;
}

std::string compute_refusal(const GlComputeLimits& l) {
    const std::string ctx = " (" + l.renderer + ", " + l.version + ")";
    if (l.major < 4 || (l.major == 4 && l.minor < 3))
        return "OpenGL " + std::to_string(l.major) + "." + std::to_string(l.minor) +
               " has no compute shaders: the gl backend needs 4.3" + ctx;
    if (l.max_shared_bytes < kGlMinBlock * 16)
        return "GL_MAX_COMPUTE_SHARED_MEMORY_SIZE is " + std::to_string(l.max_shared_bytes) +
               " bytes, under the " + std::to_string(kGlMinBlock * 16) + " a tile of " +
               std::to_string(kGlMinBlock) + " bodies takes" + ctx;
    if (std::min(l.max_invocations, l.max_size_x) < kGlMinBlock)
        return "work groups of at most " + std::to_string(std::min(l.max_invocations, l.max_size_x)) +
               " invocations, under the " + std::to_string(kGlMinBlock) + " the gl backend needs" + ctx;
    return {};
}

std::string buffers_refusal(const GlComputeLimits& l, std::size_t n) {
    const long long array = static_cast<long long>(n) * 16;
    if (array > l.max_ssbo_bytes)
        return std::to_string(n) + " bodies take " + std::to_string(array) +
               " bytes an array, over this GL's " + "GL_MAX_SHADER_STORAGE_BLOCK_SIZE of " +
               std::to_string(l.max_ssbo_bytes) + " bytes (at most " + std::to_string(l.max_ssbo_bytes / 16) +
               " bodies)";
    const long long all = array * kGlBodyArrays;
    if (l.free_memory_bytes >= 0 && all > l.free_memory_bytes)
        return std::to_string(n) + " bodies take " + mib(all) + " of GL buffers (" +
               std::to_string(kGlBodyArrays) + " arrays of " + mib(array) + "), over the " +
               mib(l.free_memory_bytes) + " the driver reports free";
    return {};
}

bool software_renderer(const std::string& renderer) {
    std::string r = renderer;
    std::transform(r.begin(), r.end(), r.begin(), [](unsigned char c) { return std::tolower(c); });
    for (const char* s : {"llvmpipe", "softpipe", "swiftshader", "software rasterizer", "swrast"})
        if (r.find(s) != std::string::npos) return true;
    return false;
}

}  // namespace nbody
