#include "render/trails.hpp"

#include <glad/gl.h>

#include <algorithm>

#include <glm/gtc/type_ptr.hpp>

#include "render/colormap.hpp"
#include "render/gl_check.hpp"
#include "render/shader.hpp"

namespace nbody {

int trail_length_for(std::size_t n, int asked) {
    const std::size_t per_sample = std::max<std::size_t>(n, 1) * 16;
    const std::size_t fit = kTrailBudgetBytes / per_sample;
    return int(std::max<std::size_t>(2, std::min<std::size_t>(std::size_t(std::max(asked, 2)), fit)));
}

TrailRenderer::TrailRenderer(const std::string& dir) {
    m_prog = std::make_unique<ShaderProgram>(dir, "trails.vert", "trails.frag");
    NBODY_GL(glGenVertexArrays(1, &m_vao));  // no attributes: the shader reads the ring as a storage buffer
}

TrailRenderer::~TrailRenderer() {
    if (m_buffer) glDeleteBuffers(1, &m_buffer);
    glDeleteVertexArrays(1, &m_vao);
}

void TrailRenderer::record(unsigned position_buffer, std::size_t n, double sim_dt, const TrailSettings& s) {
    if (!s.on || n == 0) {
        m_note.clear();
        m_failed_n = 0;
        if (m_buffer) glDeleteBuffers(1, &m_buffer);
        m_buffer = 0;
        m_n = 0;
        m_ring.reset(0);
        return;
    }
    const int length = trail_length_for(n, s.length);
    if (!m_buffer || n != m_n || length != m_ring.length()) {
        if (!m_buffer && n == m_failed_n && length == m_failed_length) return;  // failed already: no retry
        if (m_buffer) glDeleteBuffers(1, &m_buffer);
        m_buffer = 0;
        m_ring.reset(0);
        const std::size_t bytes = n * std::size_t(length) * 16;
        try {
            NBODY_GL(glGenBuffers(1, &m_buffer));
            NBODY_GL(glBindBuffer(GL_COPY_WRITE_BUFFER, m_buffer));
            NBODY_GL(glBufferData(GL_COPY_WRITE_BUFFER, GLsizeiptr(bytes), nullptr, GL_DYNAMIC_COPY));
        } catch (const GlError& e) {  // out of GPU memory: no trails, the simulation goes on
            if (m_buffer) glDeleteBuffers(1, &m_buffer);
            m_buffer = 0;
            m_failed_n = n, m_failed_length = length;
            m_note =
                "no trails: " + std::to_string(bytes >> 20) + " MiB for the ring failed (" + e.what() + ")";
            return;
        }
        m_note.clear();
        m_n = n;
        m_ring.reset(length);
    }
    if (sim_dt < 0) m_ring.clear();  // a rewind: the trail would join the future to the past
    m_since_sample += std::max(sim_dt, 0.0);
    if (!m_ring.due(s.stride)) return;
    if (m_ring.count() > 0) m_sample_span = m_since_sample;
    m_since_sample = 0;
    const int slot = m_ring.push();
    const auto bytes = GLsizeiptr(n * 16);
    NBODY_GL(glBindBuffer(GL_COPY_READ_BUFFER, position_buffer));
    NBODY_GL(glBindBuffer(GL_COPY_WRITE_BUFFER, m_buffer));
    NBODY_GL(
        glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, GLintptr(slot) * bytes, bytes));
}

void TrailRenderer::draw(const TrailDraw& d, const TrailSettings& s) {
    if (!s.on || !m_buffer || m_ring.count() < 2) return;
    const ShaderProgram& p = *m_prog;
    NBODY_GL(glUseProgram(p.id()));
    glUniformMatrix4fv(p.uniform("u_view"), 1, GL_FALSE, glm::value_ptr(d.view));
    glUniformMatrix4fv(p.uniform("u_proj"), 1, GL_FALSE, glm::value_ptr(d.proj));
    glUniform1i(p.uniform("u_n"), GLint(m_n));
    glUniform1i(p.uniform("u_length"), m_ring.length());
    glUniform1i(p.uniform("u_head"), m_ring.head());
    glUniform1i(p.uniform("u_count"), m_ring.count());
    glUniform1f(p.uniform("u_intensity"), d.intensity * s.brightness);
    glUniform1i(p.uniform("u_mode"), d.mode);
    const double span = std::max(double(d.speed_max), 1e-12) * m_sample_span;
    glUniform1f(p.uniform("u_inv_speed_span"), span > 0 ? float(1.0 / span) : 0.0f);
    glUniform2f(p.uniform("u_depth_range"), d.depth.x, d.depth.y);
    if (d.group_colours)
        glUniform3fv(p.uniform("u_group_colours"), kGroupColours, glm::value_ptr(d.group_colours[0]));
    if (d.group_light) glUniform1fv(p.uniform("u_group_light"), kGroupColours, d.group_light);
    glUniform1i(p.uniform("u_colormap"), 0);
    NBODY_GL(glActiveTexture(GL_TEXTURE0));
    NBODY_GL(glBindTexture(GL_TEXTURE_1D, d.colormap));
    NBODY_GL(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, m_buffer));
    NBODY_GL(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, d.group_buffer));
    NBODY_GL(glEnable(GL_BLEND));
    NBODY_GL(glBlendFunc(GL_ONE, GL_ONE));
    NBODY_GL(glDisable(GL_DEPTH_TEST));
    NBODY_GL(glBindVertexArray(m_vao));
    NBODY_GL(glDrawArraysInstanced(GL_LINE_STRIP, 0, m_ring.count(), GLsizei(m_n)));
    NBODY_GL(glBindVertexArray(0));
    NBODY_GL(glDisable(GL_BLEND));  // the tone map's passes after it write, not add
}

}  // namespace nbody
