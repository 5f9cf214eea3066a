#include "gl_backend/gl_backend_factory.hpp"

#include <glad/gl.h>

#include "core/errors.hpp"
#include "engine/backend_chooser.hpp"
#include "gl_backend/gl_backend.hpp"
#include "gl_backend/gl_shape.hpp"
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
// The GL compute row's start: the context, then (for auto) not on a software rasterizer, which runs the
// shaders on the CPU slower than the CPU backend's own vectorised loop, then the shaders.
BackendStart start_gl(const GlFactoryOptions& o, BackendPick pick) {
    std::string why;
    std::unique_ptr<GlContext> own;
    if (!open_context(o, own, &why)) return refused_start(why, "no GL compute (" + why + ")");
    const std::string renderer = gl_renderer_string();
    const bool software = software_renderer(renderer);
    if (pick == BackendPick::Auto && software)
        return refused_start("GL compute would run on a software rasterizer, " + renderer,
                             "GL compute would run on a software rasterizer, " + renderer +
                                 ", slower than the CPU backend",
                             "GL compute would run on the CPU too (a software rasterizer)");
    BackendStart s;
    try {
        s.backend = make_in(o, std::move(own), &why);
    } catch (const Error& e) {  // the shader failed to compile: the driver's log
        s = refused_start(e.what(), std::string("the GL compute shader failed: ") + e.what(),
                          "the GL compute shader failed to compile");
        s.broke = true;
        return s;
    }
    if (!s.backend) return refused_start(why, "no GL compute (" + why + ")");
    if (pick == BackendPick::ByHand && software)
        s.caution = "GL compute runs on " + renderer + ", a software rasterizer: its shaders run on this CPU";
    s.note = pick == BackendPick::ByHand ? "GL compute backend (asked for): " + renderer
                                         : "GL compute backend: " + renderer;
    return s;
}

BackendRow gl_row(const GlFactoryOptions& o) {
    return {
        BackendKind::Gl,
        "GL compute",
        "OpenGL 4.3 compute",
        "OpenGL 4.3 compute shaders in the window's own context: any GPU's driver (fp32, leapfrog, direct; "
        "variants none, i and ij)",
        20,  // after CUDA, before the CPU
        "GL compute on a hardware GPU",
        // A panel click on GL compute where the context cannot run it leaves the running backend as it was;
        // a broken shader hands over to the CPU.
        {BackendKind::Cpu, false},
        [] { return std::string(); },  // whether the context offers compute is known only once it is asked
        [o](const SimParams&, const BackendMakeOptions&, BackendPick pick) { return start_gl(o, pick); },
        [](ForceMethod m) { return (gl_reach().methods & bit(m)) != 0; }};
}
}  // namespace

BackendRows backend_rows_with_gl(const GlFactoryOptions& o) {
    BackendRows rows = backend_rows();
    rows.push_back(gl_row(o));
    return rows;
}

std::unique_ptr<Backend> make_backend_with_gl(const SimParams& p, BackendChoice* choice,
                                              const GlFactoryOptions& o) {
    return choose_backend(backend_rows_with_gl(o), p, choice, WhenAskedFails::Throw);
}

std::unique_ptr<Backend> make_sandbox_backend(const SimParams& p, BackendChoice* choice,
                                              const GlFactoryOptions& o) {
    return choose_backend(backend_rows_with_gl(o), p, choice, WhenAskedFails::FallBack);
}

}  // namespace nbody
