#include "gl_backend/gl_backend_factory.hpp"

#include <glad/gl.h>

#include "core/errors.hpp"
#include "cpu/cpu_backend.hpp"
#include "engine/backend_factory.hpp"
#include "gl_backend/gl_backend.hpp"
#include "render/gl_check.hpp"
#include "render/gl_context.hpp"
#include "render/shader.hpp"

namespace nbody {

namespace {
// The context a GL backend will run in (null `own` for the caller's current one), or false with the reason.
bool open_context(const GlFactoryOptions& o, std::unique_ptr<GlContext>& own, std::string* why) {
    if (o.source == GlContextSource::OwnHeadless) {
        own = create_headless_context(16, 16, why);  // draws nothing: the FBO only makes the context whole
        return own != nullptr;
    }
    if (glad_glGetString == nullptr || glGetString(GL_VERSION) == nullptr) {
        *why = "no GL context is current";
        return false;
    }
    return true;
}

std::unique_ptr<GlBackend> make_in(const GlFactoryOptions& o, std::unique_ptr<GlContext> own,
                                   std::string* why) {
    try {
        return std::make_unique<GlBackend>(o.shader_dir.empty() ? shader_dir() : o.shader_dir,
                                           std::move(own));
    } catch (const BackendError& e) {
        *why = e.what();
        return nullptr;
    }
}
}  // namespace

std::unique_ptr<GlBackend> try_make_gl_backend(const GlFactoryOptions& o, std::string* why) {
    std::unique_ptr<GlContext> own;
    if (!open_context(o, own, why)) return nullptr;
    return make_in(o, std::move(own), why);
}

namespace {
std::unique_ptr<Backend> cpu_backend(const SimParams& p, std::string* note, const std::string& why) {
    if (note) *note = why;
    return std::make_unique<CpuBackend>(p.cpu_threads);
}
}  // namespace

std::unique_ptr<Backend> make_backend_with_gl(const SimParams& p, std::string* note,
                                              const GlFactoryOptions& o) {
    if (p.backend == BackendKind::Cpu || p.backend == BackendKind::Cuda) return make_backend(p, note);
    std::string cuda_why = "this build has no CUDA backend";
    if (p.backend == BackendKind::Auto && cuda_built()) {
        SimParams c = p;
        c.backend = BackendKind::Cuda;
        try {
            return make_backend(c, note);
        } catch (const BackendError& e) {
            std::string why = e.what();
            if (why.rfind("--backend cuda: ", 0) == 0) why = why.substr(16);
            cuda_why = "no usable CUDA device (" + why + ")";
        }
    }
    const bool asked = p.backend == BackendKind::Gl;
    std::string why;
    std::unique_ptr<GlContext> own;
    std::unique_ptr<GlBackend> gl;
    if (open_context(o, own, &why)) {
        // A software rasterizer runs the shaders on the CPU, slower than the CPU backend's own vectorised
        // loop.
        const std::string renderer = gl_renderer_string();
        if (!asked && software_renderer(renderer))
            return cpu_backend(p, note,
                               cuda_why + "; GL compute would run on a software rasterizer, " + renderer +
                                   ", slower than the CPU backend: using the CPU backend");
        try {
            gl = make_in(o, std::move(own), &why);
        } catch (const GlError& e) {
            return cpu_backend(
                p, note,
                std::string("the GL compute shader failed; the CPU backend takes over: ") + e.what());
        }
    }
    if (!gl) {
        if (asked) throw BackendError("--backend gl: " + why);
        return cpu_backend(p, note, cuda_why + "; no GL compute (" + why + "); using the CPU backend");
    }
    if (asked) {
        if (note) *note = "GL compute backend (asked for): " + gl->limits().renderer;
        return gl;
    }
    if (note) *note = "GL compute backend: " + gl->limits().renderer + " (" + cuda_why + ")";
    return gl;
}

std::unique_ptr<Backend> make_sandbox_backend(const SimParams& p, std::string* note, const GlFactoryOptions& o) {
    if (p.backend == BackendKind::Cuda) return make_backend_or_cpu(p, note);
    return make_backend_with_gl(p, note, o);
}

}  // namespace nbody
