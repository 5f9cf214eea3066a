#include "render/gl_check.hpp"

#include <glad/gl.h>

#include <filesystem>

namespace nbody {

namespace {
const char* gl_error_name(GLenum e) {
    switch (e) {
        case GL_INVALID_ENUM:
            return "GL_INVALID_ENUM";
        case GL_INVALID_VALUE:
            return "GL_INVALID_VALUE";
        case GL_INVALID_OPERATION:
            return "GL_INVALID_OPERATION";
        case GL_INVALID_FRAMEBUFFER_OPERATION:
            return "GL_INVALID_FRAMEBUFFER_OPERATION";
        case GL_OUT_OF_MEMORY:
            return "GL_OUT_OF_MEMORY";
        default:
            return "unknown GL error";
    }
}
}  // namespace

void gl_check(const char* call, const char* file, int line) {
    std::string errors;
    for (int i = 0; i < 8; ++i) {  // bounded: a lost context can report errors forever
        const GLenum e = glGetError();
        if (e == GL_NO_ERROR) break;
        errors += (errors.empty() ? "" : ", ") + std::string(gl_error_name(e));
    }
    if (!errors.empty())
        throw GlError(std::filesystem::path(file).filename().string() + ":" + std::to_string(line) + ": " +
                      call + ": " + errors);
}

}  // namespace nbody
