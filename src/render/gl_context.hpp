#pragma once
// Where GL draws: a GLFW window on a desktop, or a headless EGL context (no X, no GLFW at run time) that
// renders into its own framebuffer object. The renderer and the UI only see this interface.
#include <memory>
#include <string>

namespace nbody {

class GlContext {
  public:
    virtual ~GlContext() = default;
    // Size of what is drawn into, in pixels (HiDPI: larger than the window's size in screen units).
    virtual void framebuffer_size(int& width, int& height) const = 0;
    // The framebuffer the final image goes to: 0 for a window, an RGBA8 FBO for the headless context.
    virtual unsigned target_framebuffer() const = 0;
    virtual void present() = 0;  // swap buffers (windowed); nothing headless
    virtual bool headless() const = 0;
    // "llvmpipe (LLVM 15.0.6, 256 bits), 4.5 (Core Profile) Mesa 22.3.6 via GLX" and the like.
    virtual std::string description() const = 0;
    // Makes this context current on the calling thread (a headless one kept by the GL compute backend beside
    // another context). Windows are made current once, where they are created.
    virtual void make_current() {}
};

// Loads GL through glad with `get_proc` and checks for 4.5 core; returns "" or why not.
std::string load_gl_functions(void* (*get_proc)(const char*));
std::string gl_renderer_string();

// A headless 4.5 core context through EGL: the first EGL device (EGL_PLATFORM_DEVICE_EXT: NVIDIA, or Mesa),
// then Mesa's surfaceless platform. Renders into a width x height RGBA8 FBO. Returns null and the reasons
// for each attempt in *why.
std::unique_ptr<GlContext> create_headless_context(int width, int height, std::string* why);

}  // namespace nbody
