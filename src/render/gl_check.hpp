#pragma once
// GL error checks that say where they came from: "particle_renderer.cpp:120: glBufferData(...):
// GL_OUT_OF_MEMORY". Include after glad (gl.h): this header only declares, it does not pull GL in.
#include <string>

#include "core/errors.hpp"

namespace nbody {

struct GlError : Error {
    using Error::Error;
};

// Throws GlError naming the call, file and line when glGetError reports anything (drains every flag).
void gl_check(const char* call, const char* file, int line);

}  // namespace nbody

// Wraps one GL call: NBODY_GL(glBindBuffer(GL_ARRAY_BUFFER, id));
#define NBODY_GL(call)                                \
    do {                                              \
        call;                                         \
        ::nbody::gl_check(#call, __FILE__, __LINE__); \
    } while (0)
