#pragma once
// The GL compute backend: direct summation and fused leap-frog in GLSL compute shaders (shaders/compute/),
// fp32, on any GL 4.3 driver (NVIDIA, AMD, Intel, Mesa). Its state lives in shader storage buffers of the
// context it was made in, and positions go to the renderer by a GPU-side write into the renderer's own vertex
// buffer: no interop and no host copy. Every call must come from the thread where that context is current.
#include <memory>
#include <string>
#include <vector>

#include "core/backend/backend.hpp"
#include "gl_backend/gl_limits.hpp"
#include "gl_backend/gl_program.hpp"
#include "gl_backend/gl_shape.hpp"

namespace nbody {

class GlContext;  // render/gl_context.hpp

class GlBackend final : public Backend {
  public:
    // Uses the current context, or `own` (a headless EGL one the backend keeps current) when given. Compiles
    // the automatic shape's program at once, so a driver that cannot build it refuses here. Throws
    // BackendError naming why the context cannot run compute, GlError with the driver's log when the shader
    // fails.
    GlBackend(std::string shader_dir, std::unique_ptr<GlContext> own = nullptr);
    ~GlBackend() override;

    std::string name() const override;
    BackendCaps caps() const override;
    void reset(const State& s, const SimParams& p) override;
    void set_params(const SimParams& p) override;
    std::string refusal(const SimParams& p) const override;
    const SimParams& params() const override { return m_params; }
    void step(int k) override;
    void read_state(State& out) override;
    void read_accelerations(std::vector<Double4>& out) override;
    void copy_positions_to_host(Float4* dst) override;
    // 16 bytes a row from the GPU's buffers (the measuring tools' few picked bodies each frame).
    void read_bodies_of(const std::vector<std::size_t>& rows, std::vector<Double4>& pos_mass,
                        std::vector<Double4>& vel) override;
    void read_accelerations_of(const std::vector<std::size_t>& rows, std::vector<Double4>& out) override;
    // The renderer's buffer written by this backend's own GL: in the step's last dispatch, or by a copy.
    std::unique_ptr<PositionLink> link_gl_buffer(unsigned gl_buffer, std::size_t bytes, bool allow_interop,
                                                 std::string* why) override;
    // Makes the renderer's vertex buffer (a GL buffer name in this context, N float4 of position and mass)
    // hold the current positions without leaving the GPU, and keeps the name so later steps write it as they
    // go.
    void write_positions_to_gl_buffer(unsigned gl_buffer);
    std::string kernel_label() const override;
    // The automatic shape's reasons; the last step batch's GPU time a step, from its GL timer query; the
    // resolved shape (s, j-splits, is always 1: one dispatch sums a body's whole j range).
    void read_out(const ReadoutAsk& ask, Readouts& out) override;
    // Every step batch is timed by a GL_TIME_ELAPSED query, waited for at its end (so a step is done when
    // step() returns, as the CUDA backend's are by the next check): the Simulation's counters read these. On
    // a software rasterizer the host clock (llvmpipe's query leaves out a dispatch).
    double device_seconds() const override { return m_device_seconds; }
    std::size_t size() const override { return m_n; }
    double time() const override { return m_time; }
    long long steps_taken() const override { return m_steps; }
    void set_steps_taken(long long n) override { m_steps = n; }

    // k steps timed by a GL_TIME_ELAPSED query around them (waits for the result): milliseconds.
    double timed_steps(int k) override;
    const GlComputeLimits& limits() const { return m_limits; }
    const GlShape& shape() const { return m_shape; }

  private:
    void make_current() const;
    void check_context() const;  // throws BackendError when the context was lost
    void dispatch(bool prime, bool draw);
    double timed_batch(int k, bool draw_last);  // k steps, ms by the timer query
    void ensure_partial();
    void prime();
    void allocate(std::size_t n);
    void read_array(unsigned buffer, std::vector<float>& out) const;
    // Rows of one float4 buffer (w kept), each a 16-byte read; a row past N is refused (Error).
    std::vector<Double4> read_rows(unsigned buffer, const std::vector<std::size_t>& rows) const;
    void release_buffers();

    std::unique_ptr<GlContext> m_own;
    GlComputeLimits m_limits;
    StepPrograms m_programs;
    SimParams m_params;
    GlShape m_shape;
    std::size_t m_n = 0, m_capacity = 0;
    unsigned m_pos[2] = {0, 0};  // m_pos[m_cur] = x_n, the other x_{n+1} (shaders/compute/nbody_step.comp)
    int m_cur = 0;
    unsigned m_vel = 0, m_acc = 0;
    unsigned m_partial = 0;  // the running sums between the dispatches of one step (chunked j range)
    std::size_t m_partial_capacity = 0;
    // j-bodies one dispatch sums (0: all of them). Mesa's llvmpipe ends every loop of an invocation after
    // 65,535 iterations in all (its LP_MAX_TGSI_LOOP_ITERATIONS), so there a step is several dispatches.
    int m_j_chunk = 0;
    bool m_software = false;      // a software rasterizer (llvmpipe): chunked j range, host-clock timing
    unsigned m_draw = 0;          // the renderer's vertex buffer, 0 until it is handed over
    bool m_draw_current = false;  // it holds the current positions
    std::vector<uint32_t> m_group;
    double m_time = 0;
    long long m_steps = 0;
    unsigned m_query = 0;  // GL_TIME_ELAPSED around each step batch
    double m_device_seconds = 0;
    double m_last_step_ms = 0;
};

}  // namespace nbody
