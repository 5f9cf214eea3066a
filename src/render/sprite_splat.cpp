#include "render/sprite_splat.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "render/gl_check.hpp"
#include "render/shader.hpp"

namespace nbody {

namespace {
// The indirect draw command (count, instances, first, base instance) and the slots the splat asked for.
struct BigDraw {
    GLuint count = 0, instances = 1, first = 0, base_instance = 0, wanted = 0;
};
constexpr GLsizei kBigStride = 48;  // sprite_splat.comp's BigSprite
}  // namespace

SpritePath sprite_path_for(const char* renderer) {
    if (const char* e = std::getenv("NBODY_SPRITES")) {
        if (std::strcmp(e, "raster") == 0) return SpritePath::Raster;
        if (std::strcmp(e, "splat") == 0) return SpritePath::Splat;
    }
    return renderer && std::strstr(renderer, "llvmpipe") ? SpritePath::Raster : SpritePath::Splat;
}

SpriteSplat::SpriteSplat(const std::string& dir, std::size_t big_slots) : m_big_capacity(big_slots) {
    m_splat = compute_program(dir, "sprite_splat.comp");
    try {
        m_resolve = compute_program(dir, "sprite_resolve.comp");
        m_big = std::make_unique<ShaderProgram>(dir, "particles.vert", "sprite_add.frag");
    } catch (...) {
        glDeleteProgram(m_splat);
        if (m_resolve) glDeleteProgram(m_resolve);
        throw;
    }
    NBODY_GL(glGenBuffers(1, &m_big_draw));
    NBODY_GL(glBindBuffer(GL_SHADER_STORAGE_BUFFER, m_big_draw));
    NBODY_GL(glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof(BigDraw), nullptr, GL_DYNAMIC_DRAW));
    NBODY_GL(glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0));
    NBODY_GL(glGenVertexArrays(1, &m_big_vao));
}

unsigned SpriteSplat::big_program() const {
    return m_big->id();
}

SpriteSplat::~SpriteSplat() {
    const GLuint buffers[] = {m_light, m_big_slots_buffer, m_big_draw};
    glDeleteBuffers(3, buffers);
    glDeleteVertexArrays(1, &m_big_vao);
    glDeleteProgram(m_splat);
    glDeleteProgram(m_resolve);
}

void SpriteSplat::ensure_buffers(std::size_t n, int w, int h) {
    if (w != m_w || h != m_h || !m_light) {
        if (m_light) glDeleteBuffers(1, &m_light);
        const GLuint zero = 0;
        NBODY_GL(glGenBuffers(1, &m_light));
        NBODY_GL(glBindBuffer(GL_SHADER_STORAGE_BUFFER, m_light));
        NBODY_GL(glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(std::size_t(w) * std::size_t(h) * 12),
                              nullptr, GL_DYNAMIC_COPY));
        // Zero once; the resolve pass zeroes each pixel as it reads it.
        NBODY_GL(
            glClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero));
        m_w = w, m_h = h;
    }
    const std::size_t slots = std::clamp<std::size_t>(n, 1, std::max<std::size_t>(m_big_capacity, 1));
    if (slots != m_big_slots || !m_big_slots_buffer) {
        if (m_big_slots_buffer) glDeleteBuffers(1, &m_big_slots_buffer);
        NBODY_GL(glGenBuffers(1, &m_big_slots_buffer));
        NBODY_GL(glBindBuffer(GL_ARRAY_BUFFER, m_big_slots_buffer));
        NBODY_GL(glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(slots * kBigStride), nullptr, GL_DYNAMIC_COPY));
        NBODY_GL(glBindVertexArray(m_big_vao));
        NBODY_GL(glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, kBigStride, reinterpret_cast<void*>(0)));
        NBODY_GL(glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, kBigStride, reinterpret_cast<void*>(16)));
        NBODY_GL(glVertexAttribIPointer(2, 1, GL_UNSIGNED_INT, kBigStride, reinterpret_cast<void*>(32)));
        NBODY_GL(glVertexAttribPointer(3, 1, GL_FLOAT, GL_FALSE, kBigStride, reinterpret_cast<void*>(36)));
        for (GLuint a = 0; a < 4; ++a) NBODY_GL(glEnableVertexAttribArray(a));
        NBODY_GL(glBindVertexArray(0));
        m_big_slots = slots;
    }
}

void SpriteSplat::add(const SpriteBodies& b, int w, int h, double light_scale, unsigned hdr_texture) {
    ensure_buffers(b.n, w, h);
    const BigDraw fresh;
    NBODY_GL(glBindBuffer(GL_SHADER_STORAGE_BUFFER, m_big_draw));
    NBODY_GL(glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof(BigDraw), &fresh));
    const GLuint bound[] = {b.positions, b.previous,         b.groups,  b.scalars,
                            m_light,     m_big_slots_buffer, m_big_draw};
    for (GLuint i = 0; i < 7; ++i) NBODY_GL(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, i, bound[i]));

    for (const GLuint p : {m_splat, m_big->id()}) {
        NBODY_GL(glUseProgram(p));
        glUniform2i(glGetUniformLocation(p, "u_viewport"), w, h);
        glUniform1f(glGetUniformLocation(p, "u_light_scale"), float(light_scale));
    }
    NBODY_GL(glUseProgram(m_splat));
    glUniform1ui(glGetUniformLocation(m_splat, "u_n"), GLuint(b.n));
    glUniform1f(glGetUniformLocation(m_splat, "u_splat_max_px"), kSplatMaxPx);
    glUniform1ui(glGetUniformLocation(m_splat, "u_big_capacity"), GLuint(m_big_slots));
    if (b.n > 0) NBODY_GL(glDispatchCompute(GLuint((b.n + 255) / 256), 1, 1));
    // The points read their attributes from the slots and their count from the indirect command, and add
    // into the buffer the compute pass added into.
    NBODY_GL(glMemoryBarrier(GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_COMMAND_BARRIER_BIT |
                             GL_SHADER_STORAGE_BARRIER_BIT));
    draw_big();
    NBODY_GL(glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT));

    NBODY_GL(glUseProgram(m_resolve));
    glUniform2i(glGetUniformLocation(m_resolve, "u_viewport"), w, h);
    glUniform1f(glGetUniformLocation(m_resolve, "u_inv_light_scale"), float(1.0 / light_scale));
    NBODY_GL(glBindImageTexture(0, hdr_texture, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA16F));
    NBODY_GL(glDispatchCompute(GLuint((w + 15) / 16), GLuint((h + 15) / 16), 1));
    // The trails blend over the stored pixels; the mip levels and the tone map read them.
    NBODY_GL(glMemoryBarrier(GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT |
                             GL_SHADER_IMAGE_ACCESS_BARRIER_BIT));
}

// The fragments add into the light buffer and write no colour: colour writes off while they run.
void SpriteSplat::draw_big() const {
    NBODY_GL(glUseProgram(m_big->id()));
    NBODY_GL(glEnable(GL_PROGRAM_POINT_SIZE));
    NBODY_GL(glDisable(GL_BLEND));
    NBODY_GL(glDisable(GL_DEPTH_TEST));
    NBODY_GL(glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE));
    NBODY_GL(glBindVertexArray(m_big_vao));
    NBODY_GL(glBindBuffer(GL_DRAW_INDIRECT_BUFFER, m_big_draw));
    NBODY_GL(glDrawArraysIndirect(GL_POINTS, nullptr));
    NBODY_GL(glBindBuffer(GL_DRAW_INDIRECT_BUFFER, 0));
    NBODY_GL(glBindVertexArray(0));
    NBODY_GL(glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE));
}

}  // namespace nbody
