#include "render/gpu_timer.hpp"

#include <glad/gl.h>

#include "render/gl_check.hpp"

namespace nbody {

GpuTimer::GpuTimer() {
    NBODY_GL(glGenQueries(kRing, m_queries));
}
GpuTimer::~GpuTimer() {
    glDeleteQueries(kRing, m_queries);
}

void GpuTimer::begin() {
    // Collect every finished query first (oldest to newest), so the slot about to be reused is free.
    for (int k = 0; k < kRing; ++k) {
        const int i = (m_next + k) % kRing;
        if (!m_pending[i]) continue;
        GLint ready = 0;
        glGetQueryObjectiv(m_queries[i], GL_QUERY_RESULT_AVAILABLE, &ready);
        if (!ready && i != m_next) continue;
        GLuint64 ns = 0;
        glGetQueryObjectui64v(m_queries[i], GL_QUERY_RESULT, &ns);  // waits only for the slot being reused
        // Mesa's llvmpipe answers the first query of a context with a timestamp, not an interval: drop
        // anything longer than a second as not a frame's draw time.
        if (ns < 1000000000ull) m_seconds = double(ns) * 1e-9;
        m_pending[i] = false;
    }
    NBODY_GL(glBeginQuery(GL_TIME_ELAPSED, m_queries[m_next]));
}

void GpuTimer::end() {
    NBODY_GL(glEndQuery(GL_TIME_ELAPSED));
    m_pending[m_next] = true;
    m_next = (m_next + 1) % kRing;
}

}  // namespace nbody
