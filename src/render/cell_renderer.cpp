#include "render/cell_renderer.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <array>

#include <glm/gtc/type_ptr.hpp>

#include "render/gl_check.hpp"
#include "render/shader.hpp"

namespace nbody {

static_assert(sizeof(TreeCellBox) == 20, "the instance layout below: vec4 centre and half, int depth");

namespace {
constexpr int kColours = kMaxCellDrawDepth + 1;
}

glm::vec3 cell_colour(int depth) {
    static constexpr std::array<glm::vec3, kColours> table{{{1.00f, 0.96f, 0.86f},
                                                            {1.00f, 0.72f, 0.22f},
                                                            {0.45f, 1.00f, 0.35f},
                                                            {0.20f, 0.85f, 1.00f},
                                                            {0.50f, 0.55f, 1.00f},
                                                            {0.88f, 0.45f, 1.00f},
                                                            {1.00f, 0.40f, 0.62f},
                                                            {1.00f, 0.55f, 0.35f},
                                                            {0.80f, 0.80f, 0.80f}}};
    return table[std::size_t(std::clamp(depth, 0, kColours - 1))];
}

CellRenderer::CellRenderer(const std::string& dir) {
    m_prog = std::make_unique<ShaderProgram>(dir, "cells.vert", "cells.frag");
    NBODY_GL(glGenVertexArrays(1, &m_vao));
    NBODY_GL(glGenBuffers(1, &m_buffer));
    NBODY_GL(glBindVertexArray(m_vao));
    NBODY_GL(glBindBuffer(GL_ARRAY_BUFFER, m_buffer));
    NBODY_GL(glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, sizeof(TreeCellBox), nullptr));
    NBODY_GL(glVertexAttribIPointer(1, 1, GL_INT, sizeof(TreeCellBox),
                                    reinterpret_cast<const void*>(offsetof(TreeCellBox, depth))));
    for (GLuint a : {0u, 1u}) {
        NBODY_GL(glEnableVertexAttribArray(a));
        NBODY_GL(glVertexAttribDivisor(a, 1));  // one box per instance
    }
    NBODY_GL(glBindVertexArray(0));
}

CellRenderer::~CellRenderer() {
    glDeleteBuffers(1, &m_buffer);
    glDeleteVertexArrays(1, &m_vao);
}

void CellRenderer::set_boxes(const std::vector<TreeCellBox>& boxes) {
    m_count = boxes.size();
    if (m_count == 0) return;
    const auto bytes = GLsizeiptr(m_count * sizeof(TreeCellBox));
    NBODY_GL(glBindBuffer(GL_ARRAY_BUFFER, m_buffer));
    if (m_count > m_capacity) {
        NBODY_GL(glBufferData(GL_ARRAY_BUFFER, bytes, boxes.data(), GL_DYNAMIC_DRAW));
        m_capacity = m_count;
    } else {
        NBODY_GL(glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, boxes.data()));
    }
}

void CellRenderer::draw(const glm::mat4& view, const glm::mat4& proj, const CellSettings& s) {
    if (!s.on || m_count == 0) return;
    std::array<glm::vec3, kColours> colours;
    for (int d = 0; d < kColours; ++d) colours[std::size_t(d)] = cell_colour(d);
    const ShaderProgram& p = *m_prog;
    NBODY_GL(glUseProgram(p.id()));
    glUniformMatrix4fv(p.uniform("u_view"), 1, GL_FALSE, glm::value_ptr(view));
    glUniformMatrix4fv(p.uniform("u_proj"), 1, GL_FALSE, glm::value_ptr(proj));
    glUniform3fv(p.uniform("u_colours"), kColours, glm::value_ptr(colours[0]));
    glUniform1f(p.uniform("u_opacity"), std::clamp(s.opacity, 0.0f, 1.0f));
    glUniform1i(p.uniform("u_max_depth"), std::clamp(s.depth, 0, kMaxCellDrawDepth));
    NBODY_GL(glEnable(GL_BLEND));
    NBODY_GL(glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA));
    NBODY_GL(glDisable(GL_DEPTH_TEST));
    NBODY_GL(glLineWidth(1.0f));  // thin: the only width every core profile has
    NBODY_GL(glBindVertexArray(m_vao));
    NBODY_GL(glDrawArraysInstanced(GL_LINES, 0, 24, GLsizei(m_count)));
    NBODY_GL(glBindVertexArray(0));
    NBODY_GL(glDisable(GL_BLEND));
}

}  // namespace nbody
