#include "render/measure_renderer.hpp"

#include <glad/gl.h>

#include <cstddef>

#include "render/gl_check.hpp"
#include "render/shader.hpp"

namespace nbody {

MeasureRenderer::MeasureRenderer(const std::string& dir) {
    m_prog = std::make_unique<ShaderProgram>(dir, "overlay.vert", "overlay.frag");
    NBODY_GL(glGenVertexArrays(1, &m_vao));
    NBODY_GL(glGenBuffers(1, &m_buffer));
    NBODY_GL(glBindVertexArray(m_vao));
    NBODY_GL(glBindBuffer(GL_ARRAY_BUFFER, m_buffer));
    NBODY_GL(glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(OverlayVertex), nullptr));
    NBODY_GL(glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(OverlayVertex),
                                   reinterpret_cast<const void*>(offsetof(OverlayVertex, r))));
    NBODY_GL(glEnableVertexAttribArray(0));
    NBODY_GL(glEnableVertexAttribArray(1));
    NBODY_GL(glBindVertexArray(0));
}

MeasureRenderer::~MeasureRenderer() {
    glDeleteBuffers(1, &m_buffer);
    glDeleteVertexArrays(1, &m_vao);
}

void MeasureRenderer::draw(const std::vector<OverlayVertex>& tri, int width, int height, unsigned target_fbo) {
    if (tri.empty() || width <= 0 || height <= 0) return;
    const auto bytes = GLsizeiptr(tri.size() * sizeof(OverlayVertex));
    NBODY_GL(glBindBuffer(GL_ARRAY_BUFFER, m_buffer));
    if (tri.size() > m_capacity) {
        NBODY_GL(glBufferData(GL_ARRAY_BUFFER, bytes, tri.data(), GL_DYNAMIC_DRAW));
        m_capacity = tri.size();
    } else {
        NBODY_GL(glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, tri.data()));
    }
    NBODY_GL(glBindFramebuffer(GL_FRAMEBUFFER, target_fbo));
    NBODY_GL(glViewport(0, 0, width, height));
    NBODY_GL(glUseProgram(m_prog->id()));
    glUniform2f(m_prog->uniform("u_size"), float(width), float(height));
    NBODY_GL(glEnable(GL_BLEND));
    NBODY_GL(glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA));
    NBODY_GL(glDisable(GL_DEPTH_TEST));
    NBODY_GL(glBindVertexArray(m_vao));
    NBODY_GL(glDrawArrays(GL_TRIANGLES, 0, GLsizei(tri.size())));
    NBODY_GL(glBindVertexArray(0));
    NBODY_GL(glDisable(GL_BLEND));
}

}  // namespace nbody
