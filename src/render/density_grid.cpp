#include "render/density_grid.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <vector>

#include "render/gl_check.hpp"
#include "render/shader.hpp"

namespace nbody {

namespace {
constexpr std::size_t kCells = std::size_t(DensityGrid::kGrid) * DensityGrid::kGrid * DensityGrid::kGrid;
// Fixed-point units in the whole mass: 2^28 leaves 16x headroom in a uint32 cell (a component's mass scaled
// up in the panel) and still gives 128 units to each of 2,097,152 equal bodies.
constexpr double kUnitsInTotal = 268435456.0;
}  // namespace

DensityGrid::DensityGrid(const std::string& dir) {
    m_deposit = compute_program(dir, "density_deposit.comp");
    m_cells_program = compute_program(dir, "density_cells.comp");
    NBODY_GL(glGenBuffers(1, &m_cells));
    NBODY_GL(glBindBuffer(GL_SHADER_STORAGE_BUFFER, m_cells));
    NBODY_GL(glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(kCells * 4), nullptr, GL_DYNAMIC_COPY));
    NBODY_GL(glGenBuffers(1, &m_histogram));
    NBODY_GL(glBindBuffer(GL_SHADER_STORAGE_BUFFER, m_histogram));
    NBODY_GL(glBufferData(GL_SHADER_STORAGE_BUFFER, kBins * 4, nullptr, GL_DYNAMIC_READ));
    NBODY_GL(glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0));
    NBODY_GL(glGenTextures(1, &m_texture));
    NBODY_GL(glBindTexture(GL_TEXTURE_3D, m_texture));
    NBODY_GL(glTexStorage3D(GL_TEXTURE_3D, 1, GL_R32F, kGrid, kGrid, kGrid));
    NBODY_GL(glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MIN_FILTER, GL_LINEAR));
    NBODY_GL(glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MAG_FILTER, GL_LINEAR));
    // Outside the box: density 0, the bottom of the ramp (a body far from what the camera looks at is in
    // sparse surroundings, or at least not in the region the range was chosen for).
    const float border[4] = {0, 0, 0, 0};
    for (GLenum w : {GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T, GL_TEXTURE_WRAP_R})
        NBODY_GL(glTexParameteri(GL_TEXTURE_3D, w, GL_CLAMP_TO_BORDER));
    NBODY_GL(glTexParameterfv(GL_TEXTURE_3D, GL_TEXTURE_BORDER_COLOR, border));
}

DensityGrid::~DensityGrid() {
    if (m_fence) glDeleteSync(static_cast<GLsync>(m_fence));
    const GLuint buffers[] = {m_cells, m_histogram};
    glDeleteBuffers(2, buffers);
    glDeleteTextures(1, &m_texture);
    glDeleteProgram(m_deposit);
    glDeleteProgram(m_cells_program);
}

void DensityGrid::read_histogram(bool wait) {
    auto fence = static_cast<GLsync>(m_fence);
    const GLenum r = glClientWaitSync(fence, GL_SYNC_FLUSH_COMMANDS_BIT, wait ? 2000000000ull : 0);
    if (r != GL_ALREADY_SIGNALED && r != GL_CONDITION_SATISFIED) return;  // not yet: try next frame
    glDeleteSync(fence);
    m_fence = nullptr;
    std::vector<uint32_t> bins(kBins);
    NBODY_GL(glBindBuffer(GL_SHADER_STORAGE_BUFFER, m_histogram));
    NBODY_GL(glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, kBins * 4, bins.data()));
    const ValueRange fresh = log_range_from_histogram(bins, kLogLo, kLogHi, 0.01, 0.999);
    if (!fresh.valid) return;
    // Eased a third of the way a read (a few a second), so the colours do not flicker as bodies cross cells.
    const double k = m_range.valid ? 1.0 / 3.0 : 1.0;
    m_range.lo += k * (fresh.lo - m_range.lo);
    m_range.hi += k * (fresh.hi - m_range.hi);
    m_range.valid = true;
}

void DensityGrid::compute(unsigned pos_buffer, std::size_t n, const GridBox& box, double total_mass) {
    m_box = box;
    if (m_fence) read_histogram(!m_range.valid);
    const bool accumulate = m_fence == nullptr;
    m_timer.begin();
    const GLuint zero = 0;
    NBODY_GL(glBindBuffer(GL_SHADER_STORAGE_BUFFER, m_cells));
    NBODY_GL(glClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero));
    if (accumulate) {
        NBODY_GL(glBindBuffer(GL_SHADER_STORAGE_BUFFER, m_histogram));
        NBODY_GL(
            glClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero));
    }
    const double scale = kUnitsInTotal / std::max(total_mass, 1e-300);
    const double cell = double(box.size) / kGrid;
    NBODY_GL(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, pos_buffer));
    NBODY_GL(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, m_cells));
    NBODY_GL(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, m_histogram));
    NBODY_GL(glUseProgram(m_deposit));
    glUniform1ui(glGetUniformLocation(m_deposit, "u_n"), GLuint(n));
    glUniform1i(glGetUniformLocation(m_deposit, "u_grid"), kGrid);
    glUniform3f(glGetUniformLocation(m_deposit, "u_lo"), box.lo.x, box.lo.y, box.lo.z);
    glUniform1f(glGetUniformLocation(m_deposit, "u_inv_cell"), float(1.0 / cell));
    glUniform1f(glGetUniformLocation(m_deposit, "u_mass_scale"), float(scale));
    NBODY_GL(glDispatchCompute(GLuint((n + 255) / 256), 1, 1));
    NBODY_GL(glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT));
    NBODY_GL(glUseProgram(m_cells_program));
    glUniform1i(glGetUniformLocation(m_cells_program, "u_grid"), kGrid);
    glUniform1f(glGetUniformLocation(m_cells_program, "u_density_per_unit"),
                float(1.0 / (scale * cell * cell * cell)));
    glUniform2f(glGetUniformLocation(m_cells_program, "u_log_span"), float(kLogLo), float(kLogHi));
    glUniform1i(glGetUniformLocation(m_cells_program, "u_bins"), kBins);
    glUniform1i(glGetUniformLocation(m_cells_program, "u_histogram"), accumulate ? 1 : 0);
    NBODY_GL(glBindImageTexture(0, m_texture, 0, GL_TRUE, 0, GL_WRITE_ONLY, GL_R32F));
    NBODY_GL(glDispatchCompute(kGrid / 4, kGrid / 4, kGrid / 4));
    NBODY_GL(glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT));
    m_timer.end();
    if (accumulate) m_fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    if (!m_range.valid && m_fence) read_histogram(true);  // the first range: this frame's, waited for
    NBODY_GL(glUseProgram(0));
}

}  // namespace nbody
