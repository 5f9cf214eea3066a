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
std::unique_ptr<Backend> cpu_instead(const SimParams& p, BackendChoice* choice, BackendChoice c) {
    c.running = BackendKind::Cpu;
    if (choice) *choice = c;
    std::string why;
    return try_make_backend(backend_rows(), BackendKind::Cpu, p, &why);
}

BackendRow gl_row(const GlFactoryOptions& o) {
    return {
        BackendKind::Gl,
        "GL compute",
        "OpenGL 4.3 compute",
        "OpenGL 4.3 compute shaders in the window's own context: any GPU's driver (fp32, leapfrog, direct; "
        "variants none, i and ij)",
        [] { return std::string(); },  // whether the context offers compute is known only once it is asked
        [o](const SimParams&, const BackendMakeOptions&, std::string* why,
            std::string*) -> std::unique_ptr<Backend> {
            try {
                return try_make_gl_backend(o, why);
            } catch (const Error& e) {  // the shader failed to compile: the driver's log
                *why = e.what();
                return nullptr;
            }
        }};
}
}  // namespace

BackendRows backend_rows_with_gl(const GlFactoryOptions& o) {
    BackendRows rows = backend_rows();
    rows.push_back(gl_row(o));
    return rows;
}

std::unique_ptr<Backend> make_backend_with_gl(const SimParams& p, BackendChoice* choice,
                                              const GlFactoryOptions& o) {
    if (p.backend == BackendKind::Cpu || p.backend == BackendKind::Cuda) return make_backend(p, choice);
    BackendChoice c;
    c.asked = p.backend;
    std::string cuda_why = "this build has no CUDA backend";
    c.fallback = kNoCudaWords;
    if (p.backend == BackendKind::Auto && cuda_built()) {
        SimParams cp = p;
        cp.backend = BackendKind::Cuda;
        try {
            auto b = make_backend(cp, choice);
            if (choice) choice->asked = p.backend;
            return b;
        } catch (const BackendError& e) {
            std::string why = e.what();
            if (why.rfind("--backend cuda: ", 0) == 0) why = why.substr(16);
            cuda_why = "no usable CUDA device (" + why + ")";
            c.fallback = why;
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
        if (!asked && software_renderer(renderer)) {
            c.note = cuda_why + "; GL compute would run on a software rasterizer, " + renderer +
                     ", slower than the CPU backend: using the CPU backend";
            c.fallback += "; GL compute would run on the CPU too (a software rasterizer)";
            return cpu_instead(p, choice, c);
        }
        try {
            gl = make_in(o, std::move(own), &why);
        } catch (const GlError& e) {
            c.note = std::string("the GL compute shader failed; the CPU backend takes over: ") + e.what();
            c.fallback = "the GL compute shader failed to compile";
            return cpu_instead(p, choice, c);
        }
    }
    if (!gl) {
        if (asked) throw BackendError("--backend gl: " + why);
        c.note = cuda_why + "; no GL compute (" + why + "); using the CPU backend";
        c.fallback += "; no GL compute either (" + why + ")";
        return cpu_instead(p, choice, c);
    }
    c.running = BackendKind::Gl;
    c.fallback.clear();
    if (asked && software_renderer(gl->limits().renderer))
        c.caution = "GL compute runs on " + gl->limits().renderer +
                    ", a software rasterizer: its shaders run on this CPU";
    c.note = asked ? "GL compute backend (asked for): " + gl->limits().renderer
                   : "GL compute backend: " + gl->limits().renderer + " (" + cuda_why + ")";
    if (choice) *choice = c;
    return gl;
}

std::unique_ptr<Backend> make_sandbox_backend(const SimParams& p, BackendChoice* choice,
                                              const GlFactoryOptions& o) {
    if (p.backend == BackendKind::Cuda) return make_backend_or_cpu(p, choice);
    return make_backend_with_gl(p, choice, o);
}

}  // namespace nbody
