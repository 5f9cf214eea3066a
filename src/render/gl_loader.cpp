#include <glad/gl.h>

#include "render/gl_context.hpp"

namespace nbody {

std::string load_gl_functions(void* (*get_proc)(const char*)) {
    const int version = gladLoadGL(reinterpret_cast<GLADloadfunc>(get_proc));
    if (!version) return "glad could not load the OpenGL functions";
    if (GLAD_VERSION_MAJOR(version) < 4 ||
        (GLAD_VERSION_MAJOR(version) == 4 && GLAD_VERSION_MINOR(version) < 5))
        return "OpenGL 4.5 core needed, the driver gives " + std::to_string(GLAD_VERSION_MAJOR(version)) +
               "." + std::to_string(GLAD_VERSION_MINOR(version));
    return "";
}

std::string gl_renderer_string() {
    auto str = [](GLenum e) {
        const auto* s = reinterpret_cast<const char*>(glGetString(e));
        return std::string(s ? s : "?");
    };
    return str(GL_RENDERER) + ", " + str(GL_VERSION);
}

}  // namespace nbody
