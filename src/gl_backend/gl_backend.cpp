#include "gl_backend/gl_backend.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <chrono>

#include "core/errors.hpp"
#include "core/rows/param_checks.hpp"
#include "cpu/force_f32.hpp"  // kSelfInteractionFloor: the same soft2 as the CPU and CUDA kernels
#include "render/gl_check.hpp"
#include "render/gl_context.hpp"

namespace nbody {

namespace {
// j-bodies a dispatch sums on a software rasterizer: rolled loops of k = 8 then make 9 x 4,096 iterations of
// an invocation's 65,535 (and a multiple of every tile, up to 1,024 bodies).
constexpr int kSoftwareJChunk = 4096;

GLuint new_buffer(std::size_t bytes) {
    GLuint b = 0;
    NBODY_GL(glCreateBuffers(1, &b));
    glNamedBufferData(b, static_cast<GLsizeiptr>(bytes), nullptr, GL_DYNAMIC_COPY);
    if (glGetError() == GL_OUT_OF_MEMORY) {
        glDeleteBuffers(1, &b);
        throw BackendError("gl backend: the driver has no memory for a buffer of " + std::to_string(bytes) +
                           " bytes (GL_OUT_OF_MEMORY)");
    }
    return b;
}

std::string reset_words(GLenum status) {
    switch (status) {
        case GL_GUILTY_CONTEXT_RESET:
            return "a reset this context caused";
        case GL_INNOCENT_CONTEXT_RESET:
            return "a reset caused elsewhere";
        default:
            return "a reset of unknown cause";
    }
}
}  // namespace

GlBackend::GlBackend(std::string shader_dir, std::unique_ptr<GlContext> own)
    : m_own(std::move(own)), m_programs(std::move(shader_dir)) {
    make_current();
    m_limits = query_gl_limits();
    if (std::string why = compute_refusal(m_limits); !why.empty()) throw BackendError(why);
    m_software = software_renderer(m_limits.renderer);
    if (m_software) m_j_chunk = kSoftwareJChunk;
    m_programs.get(resolve_gl_shape(m_params, 1, m_limits));  // a driver that cannot build it says so now
    NBODY_GL(glGenQueries(1, &m_query));
}

GlBackend::~GlBackend() {
    make_current();
    release_buffers();
    glDeleteQueries(1, &m_query);
}

void GlBackend::release_buffers() {
    glDeleteBuffers(2, m_pos);
    glDeleteBuffers(1, &m_vel);
    glDeleteBuffers(1, &m_acc);
    glDeleteBuffers(1, &m_partial);
    m_pos[0] = m_pos[1] = m_vel = m_acc = m_partial = 0;
    m_capacity = m_partial_capacity = 0;
}

void GlBackend::ensure_partial() {
    if (m_partial_capacity >= m_n) return;
    glDeleteBuffers(1, &m_partial);
    m_partial = 0;
    m_partial = new_buffer(m_n * sizeof(Float4));
    m_partial_capacity = m_n;
}

void GlBackend::make_current() const {
    if (m_own) m_own->make_current();
}

void GlBackend::check_context() const {
    const GLenum status = glGetGraphicsResetStatus();
    if (status != GL_NO_ERROR)
        throw BackendError("the GL context was lost (" + reset_words(status) +
                           "); the gl backend's state is " +
                           "gone: load the scene again, or choose backend cpu");
}

namespace {
class GlBufferLink final : public PositionLink {
  public:
    GlBufferLink(GlBackend& b, unsigned buffer) : m_backend(b), m_buffer(buffer) {}
    PositionPath path() const override { return PositionPath::GlCompute; }
    void write() override { m_backend.write_positions_to_gl_buffer(m_buffer); }

  private:
    GlBackend& m_backend;
    unsigned m_buffer;
};
}  // namespace

std::unique_ptr<PositionLink> GlBackend::link_gl_buffer(unsigned gl_buffer, std::size_t, bool, std::string*) {
    return std::make_unique<GlBufferLink>(*this, gl_buffer);  // the same context: nothing to register
}

std::string GlBackend::name() const {
    return "gl (" + m_limits.renderer + ")";
}

BackendCaps GlBackend::caps() const {
    BackendCaps c;
    c.gpu = true;  // steps are queued on the context (never on a worker thread), as the GPU backends' are
    c.kernel_variants = true;
    c.gl_positions = true;
    return c;
}

void GlBackend::allocate(std::size_t n) {
    if (n <= m_capacity) return;
    release_buffers();
    const std::size_t bytes = std::max<std::size_t>(n, 1) * sizeof(Float4);
    try {
        m_pos[0] = new_buffer(bytes), m_pos[1] = new_buffer(bytes);
        m_vel = new_buffer(bytes), m_acc = new_buffer(bytes);
    } catch (...) {
        release_buffers();
        throw;
    }
    m_capacity = n;
}

void GlBackend::reset(const State& s, const SimParams& p) {
    validate(p);
    check_state_finite(s);
    make_current();
    const GlShape shape = resolve_gl_shape(p, s.size(), m_limits);
    m_programs.get(shape);
    // Refused before anything is allocated or freed: the running bodies stay.
    if (std::string why = buffers_refusal(m_limits, s.size()); !why.empty())
        throw BackendError("gl backend: " + why);
    try {
        allocate(s.size());
    } catch (...) {
        m_n = 0;  // the driver ran out of memory with the old buffers freed: empty until the next reset
        throw;
    }
    std::vector<Float4> pos(s.size()), vel(s.size());
    for (std::size_t i = 0; i < s.size(); ++i)
        pos[i] = to_float4(s.pos_mass[i]), vel[i] = to_float4(s.vel[i]);
    m_n = s.size();
    m_cur = 0;
    const auto bytes = static_cast<GLsizeiptr>(m_n * sizeof(Float4));
    if (m_n > 0) {
        NBODY_GL(glNamedBufferSubData(m_pos[0], 0, bytes, pos.data()));
        NBODY_GL(glNamedBufferSubData(m_vel, 0, bytes, vel.data()));
    }
    m_params = p;
    m_shape = shape;
    m_group = s.group;
    m_time = s.time;
    m_steps = 0;
    m_device_seconds = 0;
    m_draw = 0;  // sized for the old N: the renderer hands its buffer over again once it has resized it
    m_draw_current = false;
    prime();
}

void GlBackend::set_params(const SimParams& p) {
    validate(p);
    make_current();
    const GlShape shape = resolve_gl_shape(p, m_n, m_limits);
    m_programs.get(shape);
    // x_{n+1} depends on dt, and a_n on eps and G: evaluate again at x_n
    const bool again = p.eps != m_params.eps || p.G != m_params.G || p.dt != m_params.dt;
    m_params = p;
    m_shape = shape;
    if (again) prime();
}

std::string GlBackend::refusal(const SimParams& p) const {
    try {
        check_gl_params(p);
    } catch (const ParamError& e) {
        return e.what();
    }
    return {};
}

void GlBackend::dispatch(bool prime_mode, bool draw) {
    const StepProgram& prog = m_programs.get(m_shape);
    const GLuint in = prime_mode ? m_pos[m_cur] : m_pos[1 - m_cur];
    const GLuint out = prime_mode ? m_pos[1 - m_cur] : m_pos[m_cur];
    const int n = static_cast<int>(m_n);
    const int chunk = m_j_chunk > 0 && m_j_chunk < n ? m_j_chunk : n;
    if (chunk < n) ensure_partial();
    glUseProgram(prog.id);
    const float eps = static_cast<float>(m_params.eps);
    glUniform1i(prog.u.n, n);
    glUniform1f(prog.u.soft2, eps * eps + kSelfInteractionFloor);
    glUniform1f(prog.u.G, static_cast<float>(m_params.G));
    glUniform1f(prog.u.half_dt, static_cast<float>(m_params.dt * 0.5));
    glUniform1f(prog.u.dt, static_cast<float>(m_params.dt));
    glUniform1i(prog.u.prime, prime_mode ? 1 : 0);
    glUniform1i(prog.u.draw, draw ? 1 : 0);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, in);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, out);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, m_vel);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, m_acc);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 4, draw ? m_draw : out);  // bound either way; written if draw
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 5, chunk < n ? m_partial : m_acc);  // read only when chunked
    const auto groups = static_cast<GLuint>(gl_groups(m_shape, m_n));
    for (int j0 = 0; j0 < n; j0 += chunk) {
        glUniform1i(prog.u.j_begin, j0);
        glUniform1i(prog.u.j_end, std::min(n, j0 + chunk));
        glUniform1i(prog.u.first_chunk, j0 == 0 ? 1 : 0);
        glUniform1i(prog.u.last_chunk, j0 + chunk >= n ? 1 : 0);
        glDispatchCompute(groups, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    gl_check("glDispatchCompute (gl backend step)", __FILE__, __LINE__);
}

void GlBackend::prime() {
    if (m_n == 0) return;
    dispatch(true, false);
    glMemoryBarrier(GL_ALL_BARRIER_BITS);
    check_context();
}

void GlBackend::step(int k) {
    if (k > 0 && m_n > 0) timed_batch(k, m_draw != 0);
}

double GlBackend::timed_batch(int k, bool draw_last) {
    make_current();
    const auto t0 = std::chrono::steady_clock::now();
    glBeginQuery(GL_TIME_ELAPSED, m_query);
    for (int s = 0; s < k; ++s) {
        dispatch(false, draw_last && s == k - 1);
        m_cur = 1 - m_cur;
    }
    glEndQuery(GL_TIME_ELAPSED);
    glMemoryBarrier(GL_ALL_BARRIER_BITS);  // the renderer's vertex fetch and read-backs see the writes
    GLuint64 ns = 0;
    glGetQueryObjectui64v(m_query, GL_QUERY_RESULT, &ns);  // waits for the steps to finish
    m_draw_current = draw_last;
    m_time += m_params.dt * k;
    m_steps += k;
    check_context();
    // llvmpipe's query leaves out the first dispatch after glBeginQuery (k steps timed as k - 1); it runs the
    // dispatches on the calling thread, so the host clock is exact there.
    const double ms =
        m_software ? std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count()
                   : static_cast<double>(ns) * 1e-6;
    m_device_seconds += ms * 1e-3;
    m_last_step_ms = ms / k;
    return ms;
}

double GlBackend::timed_steps(int k) {
    return k > 0 && m_n > 0 ? timed_batch(k, false) : 0.0;
}

void GlBackend::read_array(unsigned buffer, std::vector<float>& out) const {
    out.resize(m_n * 4);
    if (m_n == 0) return;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    NBODY_GL(glGetNamedBufferSubData(buffer, 0, static_cast<GLsizeiptr>(m_n * sizeof(Float4)), out.data()));
    check_context();
}

std::vector<Double4> GlBackend::read_rows(unsigned buffer, const std::vector<std::size_t>& rows) const {
    std::vector<Double4> out;
    out.reserve(rows.size());
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    for (std::size_t i : rows) {
        if (i >= m_n) throw Error("row " + std::to_string(i) + " of " + std::to_string(m_n) + " bodies");
        Float4 f;
        NBODY_GL(glGetNamedBufferSubData(buffer, static_cast<GLintptr>(i * sizeof(Float4)), sizeof(Float4), &f));
        out.push_back(to_double4(f));
    }
    check_context();
    return out;
}

void GlBackend::read_bodies_of(const std::vector<std::size_t>& rows, std::vector<Double4>& pos_mass,
                               std::vector<Double4>& vel) {
    make_current();
    pos_mass = read_rows(m_pos[m_cur], rows);
    vel = read_rows(m_vel, rows);
    for (Double4& v : vel) v.w = 0;
}

void GlBackend::read_accelerations_of(const std::vector<std::size_t>& rows, std::vector<Double4>& out) {
    make_current();
    out = read_rows(m_acc, rows);
    for (Double4& a : out) a.w = 0;
}

void GlBackend::read_state(State& out) {
    make_current();
    std::vector<float> x, v;
    read_array(m_pos[m_cur], x);
    read_array(m_vel, v);
    out.resize(m_n);
    for (std::size_t i = 0; i < m_n; ++i) {
        out.pos_mass[i] = {x[4 * i], x[4 * i + 1], x[4 * i + 2], x[4 * i + 3]};
        out.vel[i] = {v[4 * i], v[4 * i + 1], v[4 * i + 2], 0.0};
    }
    out.group = m_group;
    out.group.resize(m_n, 0);
    out.time = m_time;
}

void GlBackend::read_accelerations(std::vector<Double4>& out) {
    make_current();
    std::vector<float> a;
    read_array(m_acc, a);
    out.resize(m_n);
    for (std::size_t i = 0; i < m_n; ++i) out[i] = {a[4 * i], a[4 * i + 1], a[4 * i + 2], 0.0};
}

void GlBackend::copy_positions_to_host(Float4* dst) {
    make_current();
    if (m_n == 0) return;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    NBODY_GL(glGetNamedBufferSubData(m_pos[m_cur], 0, static_cast<GLsizeiptr>(m_n * sizeof(Float4)), dst));
}

void GlBackend::write_positions_to_gl_buffer(unsigned gl_buffer) {
    make_current();
    if (gl_buffer != m_draw) m_draw_current = false;
    m_draw = gl_buffer;
    if (m_draw_current || m_n == 0) return;
    GLint64 size = 0;
    NBODY_GL(glGetNamedBufferParameteri64v(gl_buffer, GL_BUFFER_SIZE, &size));
    const auto bytes = static_cast<GLint64>(m_n * sizeof(Float4));
    if (size < bytes)
        throw BackendError("gl backend: the renderer's buffer holds " + std::to_string(size) + " bytes, " +
                           std::to_string(m_n) + " bodies take " + std::to_string(bytes));
    NBODY_GL(glCopyNamedBufferSubData(m_pos[m_cur], gl_buffer, 0, 0, static_cast<GLsizeiptr>(bytes)));
    glMemoryBarrier(GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT);
    m_draw_current = true;
}

std::string GlBackend::kernel_label() const {
    const bool chunked = m_j_chunk > 0 && m_n > static_cast<std::size_t>(m_j_chunk);
    return "gl " + gl_shape_label(m_shape) + ", fp32" +
           (chunked ? ", j in dispatches of " + std::to_string(m_j_chunk) : std::string());
}

void GlBackend::read_out(const ReadoutAsk& ask, Readouts& out) {
    if (m_shape.automatic) {
        const std::string q = "q " + std::to_string(m_shape.q);
        out.kernel_choice = "ij-unrolled 4 x 4 in work groups of 256 (the gl backend's default); " +
                            (m_limits.units > 0 ? q + ": the fewest slices that fill " +
                                                      std::to_string(m_limits.units) + " SMs with 1,024 invocations each"
                                                : q + ": this GL does not say how many compute units it has");
    }
    if (ask.device_timings && m_last_step_ms > 0)
        out.device_timings = {{"GL compute (timer query, a step)", m_last_step_ms, 0.0}};
    LaunchShape& l = out.launch_shape;
    l.k = m_shape.k, l.u = m_shape.u, l.block = m_shape.block, l.q = m_shape.q, l.s = 1;
}

}  // namespace nbody
