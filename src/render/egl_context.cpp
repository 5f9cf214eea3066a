// Headless OpenGL 4.5 core through EGL, with no window system: the GPU server (NVIDIA's EGL, no X) and
// CI machines (Mesa) alike. GLFW's own EGL/null platform did not work on the GPU server (shared/DEVICE.md),
// so the context is made here directly, current with EGL_NO_SURFACE, and draws into an FBO.
#include <glad/egl.h>
#include <glad/gl.h>

#include <map>
#include <mutex>

#include "render/gl_check.hpp"
#include "render/gl_context.hpp"

namespace nbody {

namespace {

// EGL displays are process-wide: eglTerminate ends every context made on the display, and the GL compute
// backend's context and a renderer's (the Python module's render) share one. So the contexts alive on each
// display are counted, and a display is terminated only when none is left.
class LiveDisplays {
  public:
    void hold(EGLDisplay d) {
        std::lock_guard<std::mutex> lock(m_mutex);
        ++m_count[d];
    }
    // Terminates `d` unless a context made on it is still alive; `held`: the caller held it.
    void release(EGLDisplay d, bool held) {
        std::lock_guard<std::mutex> lock(m_mutex);
        auto it = m_count.find(d);
        if (held && it != m_count.end() && --it->second <= 0) m_count.erase(it), it = m_count.end();
        if (it == m_count.end()) eglTerminate(d);
    }

  private:
    std::mutex m_mutex;
    std::map<EGLDisplay, int> m_count;
};

LiveDisplays& live_displays() {
    static LiveDisplays displays;
    return displays;
}

std::string egl_error_text() {
    return "EGL error 0x" + [] {
        char b[16];
        std::snprintf(b, sizeof b, "%04x", static_cast<unsigned>(eglGetError()));
        return std::string(b);
    }();
}

class EglContext final : public GlContext {
  public:
    EglContext(EGLDisplay d, EGLContext c, int w, int h, std::string platform)
        : m_display(d), m_context(c), m_width(w), m_height(h), m_platform(std::move(platform)) {
        live_displays().hold(d);
    }
    ~EglContext() override {
        make_current();  // another context (the GL compute backend's) may be current: delete in this one
        if (m_fbo) glDeleteFramebuffers(1, &m_fbo);
        if (m_rbo) glDeleteRenderbuffers(1, &m_rbo);
        eglMakeCurrent(m_display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(m_display, m_context);
        live_displays().release(m_display, true);
    }
    void make_target() {
        NBODY_GL(glGenRenderbuffers(1, &m_rbo));
        NBODY_GL(glBindRenderbuffer(GL_RENDERBUFFER, m_rbo));
        NBODY_GL(glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, m_width, m_height));
        NBODY_GL(glGenFramebuffers(1, &m_fbo));
        NBODY_GL(glBindFramebuffer(GL_FRAMEBUFFER, m_fbo));
        NBODY_GL(glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, m_rbo));
        if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
            throw GlError("egl_context.cpp: headless target framebuffer incomplete");
    }
    void framebuffer_size(int& w, int& h) const override { w = m_width, h = m_height; }
    unsigned target_framebuffer() const override { return m_fbo; }
    // glFinish, not glFlush: with no swap to pace it, the frame time would otherwise not include the GPU
    // work.
    void present() override { glFinish(); }
    bool headless() const override { return true; }
    void make_current() override {
        if (eglGetCurrentContext() != m_context)
            eglMakeCurrent(m_display, EGL_NO_SURFACE, EGL_NO_SURFACE, m_context);
    }
    std::string description() const override {
        return gl_renderer_string() + " via EGL (" + m_platform + ")";
    }

  private:
    EGLDisplay m_display;
    EGLContext m_context;
    int m_width, m_height;
    std::string m_platform;
    GLuint m_fbo = 0, m_rbo = 0;
};

// Tries one display; on success returns the context with its target FBO, else null and the reason.
std::unique_ptr<GlContext> try_display(EGLDisplay d, const std::string& platform, int w, int h,
                                       std::string& why) {
    if (d == EGL_NO_DISPLAY) {
        why += platform + ": no display; ";
        return nullptr;
    }
    EGLint major = 0, minor = 0;
    if (!eglInitialize(d, &major, &minor)) {
        why += platform + ": eglInitialize failed (" + egl_error_text() + "); ";
        return nullptr;
    }
    gladLoaderLoadEGL(d);  // now the display's version and extensions are known
    const EGLint config_attribs[] = {EGL_SURFACE_TYPE,
                                     EGL_PBUFFER_BIT,
                                     EGL_RENDERABLE_TYPE,
                                     EGL_OPENGL_BIT,
                                     EGL_RED_SIZE,
                                     8,
                                     EGL_GREEN_SIZE,
                                     8,
                                     EGL_BLUE_SIZE,
                                     8,
                                     EGL_NONE};
    EGLConfig config = nullptr;
    EGLint count = 0;
    if (!eglChooseConfig(d, config_attribs, &config, 1, &count) || count < 1) {
        // Surfaceless displays may offer no pbuffer configs; any GL-renderable config will do.
        const EGLint any[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
        if (!eglChooseConfig(d, any, &config, 1, &count) || count < 1) {
            why += platform + ": no OpenGL config; ";
            live_displays().release(d, false);
            return nullptr;
        }
    }
    if (!eglBindAPI(EGL_OPENGL_API)) {
        why += platform + ": eglBindAPI(EGL_OPENGL_API) failed; ";
        live_displays().release(d, false);
        return nullptr;
    }
    const EGLint ctx_attribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                                  4,
                                  EGL_CONTEXT_MINOR_VERSION,
                                  5,
                                  EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                  EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                  EGL_NONE};
    EGLContext c = eglCreateContext(d, config, EGL_NO_CONTEXT, ctx_attribs);
    if (c == EGL_NO_CONTEXT) {
        why += platform + ": no 4.5 core context (" + egl_error_text() + "); ";
        live_displays().release(d, false);
        return nullptr;
    }
    if (!eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, c)) {
        why += platform + ": eglMakeCurrent without a surface failed (" + egl_error_text() + "); ";
        eglDestroyContext(d, c);
        live_displays().release(d, false);
        return nullptr;
    }
    auto ctx = std::make_unique<EglContext>(d, c, w, h, platform);
    if (std::string e = load_gl_functions(reinterpret_cast<void* (*)(const char*)>(eglGetProcAddress));
        !e.empty()) {
        why += platform + ": " + e + "; ";
        return nullptr;
    }
    ctx->make_target();
    return ctx;
}

}  // namespace

std::unique_ptr<GlContext> create_headless_context(int width, int height, std::string* why) {
    std::string reasons;
    auto fail = [&](const std::string& r) -> std::unique_ptr<GlContext> {
        if (why) *why = r;
        return nullptr;
    };
    if (width < 1 || height < 1 || width > 16384 || height > 16384)
        return fail("headless size " + std::to_string(width) + "x" + std::to_string(height) +
                    " out of range");
    if (!gladLoaderLoadEGL(EGL_NO_DISPLAY)) return fail("cannot load libEGL.so.1 (install libegl1)");
    try {
        if (GLAD_EGL_EXT_device_enumeration && GLAD_EGL_EXT_platform_device) {
            EGLDeviceEXT devices[8];
            EGLint n = 0;
            if (eglQueryDevicesEXT(8, devices, &n) && n > 0) {
                for (EGLint i = 0; i < n; ++i) {
                    EGLDisplay d = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
                    if (auto c = try_display(d, "device " + std::to_string(i), width, height, reasons))
                        return c;
                }
            } else {
                reasons += "eglQueryDevicesEXT found no device; ";
            }
        } else {
            reasons += "no EGL_EXT_device_enumeration/EGL_EXT_platform_device; ";
        }
        if (GLAD_EGL_MESA_platform_surfaceless) {
            EGLDisplay d =
                eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
            if (auto c = try_display(d, "surfaceless", width, height, reasons)) return c;
        } else {
            reasons += "no EGL_MESA_platform_surfaceless; ";
        }
    } catch (const Error& e) {
        reasons += e.what();
    }
    return fail("no headless OpenGL 4.5 core context through EGL: " + reasons);
}

}  // namespace nbody
