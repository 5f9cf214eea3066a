#include "render/gpu_timer.hpp"

#include <glad/gl.h>

#include "render/gl_check.hpp"

namespace nbody {

GpuTimer::GpuTimer() {
    NBODY_GL(glGenQueries(2 * kRing, m_queries));
}
GpuTimer::~GpuTimer() {
    glDeleteQueries(2 * kRing, m_queries);
}

void GpuTimer::begin() {
    // Collect every finished pair first (oldest to newest), so the slot about to be reused is free.
    for (int k = 0; k < kRing; ++k) {
        const int i = (m_next + k) % kRing;
        if (!m_pending[i]) continue;
        GLint ready = 0;
        glGetQueryObjectiv(m_queries[2 * i + 1], GL_QUERY_RESULT_AVAILABLE, &ready);
        if (!ready && i != m_next) continue;
        GLuint64 t0 = 0, t1 = 0;  // ns; waits only for the slot being reused
        glGetQueryObjectui64v(m_queries[2 * i], GL_QUERY_RESULT, &t0);
        glGetQueryObjectui64v(m_queries[2 * i + 1], GL_QUERY_RESULT, &t1);
        // A driver whose first timestamp is not on the same clock (or a wrap) gives nonsense: keep only
        // intervals under a second as a frame's draw time.
        if (t1 >= t0 && t1 - t0 < 1000000000ull) m_seconds = double(t1 - t0) * 1e-9;
        m_pending[i] = false;
    }
    NBODY_GL(glQueryCounter(m_queries[2 * m_next], GL_TIMESTAMP));
}

void GpuTimer::end() {
    NBODY_GL(glQueryCounter(m_queries[2 * m_next + 1], GL_TIMESTAMP));
    m_pending[m_next] = true;
    m_next = (m_next + 1) % kRing;
}

}  // namespace nbody
