#include "render/particle_renderer.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <glm/gtc/type_ptr.hpp>

#include "render/assets.hpp"
#include "render/density_grid.hpp"
#include "render/gl_check.hpp"
#include "render/shader.hpp"
#include "render/sprite_splat.hpp"
#include "render/tone_map.hpp"

namespace nbody {

float default_point_size(std::size_t n) {
    return float(std::clamp(3.0 * std::pow(1e5 / double(std::max<std::size_t>(n, 1)), 0.25), 1.0, 8.0));
}

float few_body_sprite_px(std::size_t n) {
    return n <= kFewBodies ? kFewBodySpritePx : 1.0f;
}

ParticleRenderer::ParticleRenderer(const std::string& dir) : m_shader_dir(dir) {
    m_points = std::make_unique<ShaderProgram>(dir, "particles.vert", "particles.frag");
    m_tone_map = std::make_unique<ToneMapper>(dir);
    m_sprite_timer = std::make_unique<GpuTimer>();
    m_trails = std::make_unique<TrailRenderer>(dir);
    m_cells = std::make_unique<CellRenderer>(dir);
    m_sprite_path = sprite_path_for(reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
    NBODY_GL(glGenVertexArrays(1, &m_vao));
    NBODY_GL(glGenTextures(1, &m_colormap));
    NBODY_GL(glBindTexture(GL_TEXTURE_1D, m_colormap));
    NBODY_GL(glTexImage1D(GL_TEXTURE_1D, 0, GL_RGB32F, kColormapSize, 0, GL_RGB, GL_FLOAT, nullptr));
    NBODY_GL(glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_MIN_FILTER, GL_LINEAR));
    NBODY_GL(glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_MAG_FILTER, GL_LINEAR));
    NBODY_GL(glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE));
    use_colormap(RenderSettings{}.colormap);
}

GroupStyles default_group_styles() {
    GroupStyles s;
    for (int i = 0; i < kGroupColours; ++i) s[std::size_t(i)].colour = group_colour(uint32_t(i));
    return s;
}

void ParticleRenderer::use_colormap(const std::string& name) {
    m_colormap_name = name;
    m_colormap_info = load_colormap(asset_dir(), name);
    if (!m_colormap_info.error.empty())
        std::fprintf(stderr, "nbody-sandbox: %s (using the built-in colour map)\n",
                     m_colormap_info.error.c_str());
    NBODY_GL(glBindTexture(GL_TEXTURE_1D, m_colormap));
    NBODY_GL(
        glTexSubImage1D(GL_TEXTURE_1D, 0, 0, kColormapSize, GL_RGB, GL_FLOAT, m_colormap_info.table.data()));
}

ParticleRenderer::~ParticleRenderer() {
    const GLuint buffers[] = {m_pos, m_prev, m_group, m_scalar};
    glDeleteBuffers(4, buffers);
    glDeleteVertexArrays(1, &m_vao);
    glDeleteTextures(1, &m_colormap);
    if (m_hdr_tex) glDeleteTextures(1, &m_hdr_tex);
    if (m_hdr_fbo) glDeleteFramebuffers(1, &m_hdr_fbo);
}

void ParticleRenderer::set_particle_count(std::size_t n) {
    if (n == m_n && m_pos) return;
    const GLuint old[] = {m_pos, m_prev, m_group, m_scalar};
    glDeleteBuffers(4, old);
    m_scalar_range = {};
    m_n = n;
    const auto bytes4 = static_cast<GLsizeiptr>(std::max<std::size_t>(n, 1) * sizeof(Float4));
    // glBufferData (not immutable storage): cudaGraphicsGLRegisterBuffer accepts it, and it is re-created
    // rather than resized when N changes, so a registered buffer is never resized under CUDA.
    NBODY_GL(glGenBuffers(1, &m_pos));
    NBODY_GL(glBindBuffer(GL_ARRAY_BUFFER, m_pos));
    NBODY_GL(glBufferData(GL_ARRAY_BUFFER, bytes4, nullptr, GL_DYNAMIC_DRAW));
    NBODY_GL(glGenBuffers(1, &m_prev));
    NBODY_GL(glBindBuffer(GL_ARRAY_BUFFER, m_prev));
    NBODY_GL(glBufferData(GL_ARRAY_BUFFER, bytes4, nullptr, GL_DYNAMIC_COPY));
    NBODY_GL(glGenBuffers(1, &m_group));
    NBODY_GL(glBindBuffer(GL_ARRAY_BUFFER, m_group));
    NBODY_GL(
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(std::max<std::size_t>(n, 1) * 4), nullptr, GL_STATIC_DRAW));
    NBODY_GL(glGenBuffers(1, &m_scalar));
    NBODY_GL(glBindBuffer(GL_ARRAY_BUFFER, m_scalar));
    NBODY_GL(
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(std::max<std::size_t>(n, 1) * 4), nullptr, GL_DYNAMIC_DRAW));

    NBODY_GL(glBindVertexArray(m_vao));
    NBODY_GL(glBindBuffer(GL_ARRAY_BUFFER, m_pos));
    NBODY_GL(glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, sizeof(Float4), nullptr));
    NBODY_GL(glEnableVertexAttribArray(0));
    NBODY_GL(glBindBuffer(GL_ARRAY_BUFFER, m_prev));
    NBODY_GL(glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(Float4), nullptr));
    NBODY_GL(glEnableVertexAttribArray(1));
    NBODY_GL(glBindBuffer(GL_ARRAY_BUFFER, m_group));
    NBODY_GL(glVertexAttribIPointer(2, 1, GL_UNSIGNED_INT, 4, nullptr));
    NBODY_GL(glEnableVertexAttribArray(2));
    NBODY_GL(glBindBuffer(GL_ARRAY_BUFFER, m_scalar));
    NBODY_GL(glVertexAttribPointer(3, 1, GL_FLOAT, GL_FALSE, 4, nullptr));
    NBODY_GL(glEnableVertexAttribArray(3));
    NBODY_GL(glBindVertexArray(0));
    m_update_dt = 0;
    m_trails->clear();                 // re-created for the new N at its next sample
    m_tone_map->restart_adaptation();  // a new scene: its own exposure from its first frame
}

void ParticleRenderer::set_groups(const std::vector<uint32_t>& group) {
    const std::size_t n = std::min(group.size(), m_n);
    NBODY_GL(glBindBuffer(GL_ARRAY_BUFFER, m_group));
    NBODY_GL(glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(n * 4), group.data()));
}

void ParticleRenderer::set_scene_scale(double total_mass, float radius) {
    m_total_mass = total_mass > 0 ? total_mass : 1.0;
    m_scene_radius = radius > 0 ? radius : 1.0f;
}

void ParticleRenderer::set_body_scalars(const std::vector<float>& values, const ValueRange& range) {
    if (values.size() != m_n || !range.valid) {
        m_scalar_range = {};
        return;
    }
    NBODY_GL(glBindBuffer(GL_ARRAY_BUFFER, m_scalar));
    NBODY_GL(glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(m_n * 4), values.data()));
    m_scalar_range = range;
}

void ParticleRenderer::read_positions(std::vector<Float4>& out) const {
    out.resize(m_n);
    NBODY_GL(glBindBuffer(GL_ARRAY_BUFFER, m_pos));
    NBODY_GL(glGetBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(position_bytes()), out.data()));
}

ValueRange ParticleRenderer::density_log_range() const {
    return m_density ? m_density->log_range() : ValueRange{};
}

double ParticleRenderer::density_seconds() const {
    return m_density ? m_density->seconds() : 0.0;
}

void ParticleRenderer::begin_position_update(double sim_time_delta) {
    m_pending_dt = sim_time_delta;
    if (sim_time_delta <= 0) return;  // paused: keep the last real motion for the speed colours
    NBODY_GL(glBindBuffer(GL_COPY_READ_BUFFER, m_pos));
    NBODY_GL(glBindBuffer(GL_COPY_WRITE_BUFFER, m_prev));
    NBODY_GL(
        glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, GLsizeiptr(position_bytes())));
    m_update_dt = sim_time_delta;
}

void ParticleRenderer::end_position_update(const TrailSettings& s) {
    m_trails->record(m_pos, m_n, m_pending_dt, s);
    m_pending_dt = 0;
}

void ParticleRenderer::draw_trails(const Camera& camera, const RenderSettings& s, const DepthRange& depth,
                                   float aspect, float intensity) {
    TrailDraw d;
    d.view = camera.view();
    d.proj = camera.projection(aspect);
    d.intensity = intensity;
    // Density and potential have no value along a trail's past: those trails keep the component colours.
    d.mode = s.color_mode == ColorMode::Density || s.color_mode == ColorMode::Potential
                 ? 0
                 : static_cast<int>(s.color_mode);
    d.speed_max = s.speed_max;
    d.depth = {depth.near_d, depth.far_d};
    d.group_colours = m_group_colours.data();
    d.group_light = m_group_light.data();
    d.group_buffer = m_group;
    d.colormap = m_colormap;
    m_trails->draw(d, s.trails);
}

void ParticleRenderer::upload_positions(const Float4* host, std::size_t n) {
    NBODY_GL(glBindBuffer(GL_ARRAY_BUFFER, m_pos));
    NBODY_GL(glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(std::min(n, m_n) * sizeof(Float4)), host));
}

void ParticleRenderer::ensure_hdr_target(int w, int h) {
    if (w == m_hdr_w && h == m_hdr_h && m_hdr_fbo) return;
    if (m_hdr_tex) glDeleteTextures(1, &m_hdr_tex);
    if (m_hdr_fbo) glDeleteFramebuffers(1, &m_hdr_fbo);
    NBODY_GL(glGenTextures(1, &m_hdr_tex));
    NBODY_GL(glBindTexture(GL_TEXTURE_2D, m_hdr_tex));
    // Mipmapped: the tone map reads coarse levels of it as a cheap glow around dense regions.
    const int levels = 1 + int(std::floor(std::log2(double(std::max(w, h)))));
    NBODY_GL(glTexStorage2D(GL_TEXTURE_2D, levels, GL_RGBA16F, w, h));
    NBODY_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR));
    NBODY_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR));
    NBODY_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE));
    NBODY_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE));
    NBODY_GL(glGenFramebuffers(1, &m_hdr_fbo));
    NBODY_GL(glBindFramebuffer(GL_FRAMEBUFFER, m_hdr_fbo));
    NBODY_GL(glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, m_hdr_tex, 0));
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        throw GlError("particle_renderer.cpp: the RGBA16F HDR framebuffer is incomplete");
    m_hdr_w = w, m_hdr_h = h;
    m_tone_map->restart_adaptation();
}

void ParticleRenderer::set_sprite_path(SpritePath path, std::size_t big_slots) {
    m_sprite_path = path;
    if (big_slots != m_big_slots) m_splat.reset();
    m_big_slots = std::max<std::size_t>(big_slots, 1);
}

void ParticleRenderer::set_sprite_uniforms(unsigned p, const Camera& camera, const RenderSettings& s,
                                           const DepthRange& depth, float aspect, float intensity) {
    auto at = [p](const char* name) { return glGetUniformLocation(p, name); };
    NBODY_GL(glUseProgram(p));
    glUniformMatrix4fv(at("u_view"), 1, GL_FALSE, glm::value_ptr(camera.view()));
    glUniformMatrix4fv(at("u_proj"), 1, GL_FALSE, glm::value_ptr(camera.projection(aspect)));
    glUniform1f(at("u_point_size"), s.point_size);
    glUniform1f(at("u_target_distance"), camera.distance());
    glUniform1f(at("u_intensity"), intensity);
    // Potential without values yet (or not available at this N: the panel says why) draws components.
    const bool no_values = s.color_mode == ColorMode::Potential && !m_scalar_range.valid;
    glUniform1i(at("u_mode"), no_values ? 0 : static_cast<int>(s.color_mode));
    glUniform1f(at("u_min_size"), std::max(s.min_sprite_px, 1.0f));
    glUniform2f(at("u_scalar_range"), float(m_scalar_range.lo), float(m_scalar_range.hi));
    // Its own unit always: a 1D and a 3D sampler on one unit fail the draw, whichever the mode reads.
    glUniform1i(at("u_density"), 1);
    if (s.color_mode == ColorMode::Density && m_density) {
        const GridBox& b = m_density->box();
        const ValueRange r = m_density->log_range();
        glUniform3f(at("u_grid_lo"), b.lo.x, b.lo.y, b.lo.z);
        glUniform1f(at("u_grid_inv_size"), 1.0f / b.size);
        glUniform2f(at("u_log_density_range"), float(r.lo), float(r.hi));
        NBODY_GL(glActiveTexture(GL_TEXTURE1));
        NBODY_GL(glBindTexture(GL_TEXTURE_3D, m_density->texture()));
    }
    const double span = std::max(double(s.speed_max), 1e-12) * m_update_dt;
    glUniform1f(at("u_inv_speed_span"), span > 0 ? float(1.0 / span) : 0.0f);
    glUniform2f(at("u_depth_range"), depth.near_d, depth.far_d);
    glUniform3fv(at("u_group_colours"), kGroupColours, glm::value_ptr(m_group_colours[0]));
    glUniform1fv(at("u_group_light"), kGroupColours, m_group_light.data());
    glUniform1i(at("u_colormap"), 0);
    NBODY_GL(glActiveTexture(GL_TEXTURE0));
    NBODY_GL(glBindTexture(GL_TEXTURE_1D, m_colormap));
}

double ParticleRenderer::splat_light_scale(float intensity) const {
    // The brightest a body can be: its colour's largest channel (a group colour or the colour map's) times
    // the intensity. n of them on one pixel still fit below 2^31 units.
    float brightest = 1e-6f;
    for (const glm::vec3& c : m_group_colours) brightest = std::max({brightest, c.r, c.g, c.b});
    for (const glm::vec3& c : m_colormap_info.table) brightest = std::max({brightest, c.r, c.g, c.b});
    const double body = double(brightest) * std::max(double(intensity), 1e-30);
    return 2147483648.0 / (double(std::max<std::size_t>(m_n, 1)) * body);
}

void ParticleRenderer::draw_sprites(const Camera& camera, const RenderSettings& s, const DepthRange& depth,
                                    float aspect, float intensity) {
    m_sprite_timer->begin();
    if (m_sprite_path == SpritePath::Splat) {
        if (!m_splat) m_splat = std::make_unique<SpriteSplat>(m_shader_dir, m_big_slots);
        for (const unsigned p : {m_splat->splat_program(), m_splat->big_program()})
            set_sprite_uniforms(p, camera, s, depth, aspect, intensity);
        m_splat->add(SpriteBodies{m_pos, m_prev, m_group, m_scalar, m_n}, m_hdr_w, m_hdr_h,
                     splat_light_scale(intensity), m_hdr_tex);
    } else {
        NBODY_GL(glClear(GL_COLOR_BUFFER_BIT));
        set_sprite_uniforms(m_points->id(), camera, s, depth, aspect, intensity);
        NBODY_GL(glEnable(GL_PROGRAM_POINT_SIZE));
        NBODY_GL(glEnable(GL_BLEND));
        NBODY_GL(glBlendFunc(GL_ONE, GL_ONE));
        NBODY_GL(glDisable(GL_DEPTH_TEST));
        NBODY_GL(glBindVertexArray(m_vao));
        NBODY_GL(glDrawArrays(GL_POINTS, 0, GLsizei(m_n)));
        NBODY_GL(glDisable(GL_BLEND));
    }
    m_sprite_timer->end();
}

void ParticleRenderer::draw(const Camera& camera, const RenderSettings& s, const DepthRange& depth, int w,
                            int h, unsigned target_fbo) {
    if (w < 1 || h < 1) return;  // minimised window
    ensure_hdr_target(w, h);
    NBODY_GL(glBindFramebuffer(GL_FRAMEBUFFER, m_hdr_fbo));
    NBODY_GL(glViewport(0, 0, w, h));
    NBODY_GL(glClearColor(0, 0, 0, 0));
    // Light per body falls as 1/sqrt(N), so that the manual exposure suits 7,500 and 10^6 bodies alike (the
    // auto exposure measures the frame instead). A sprite under 2 px carries the light of a 2-px one (its
    // area is what sums up on screen): at 10^7 bodies the 1-px points draw the 2-px picture with a quarter
    // of the blended fragments.
    const float small = s.point_size < 2.0f ? 4.0f / std::max(s.point_size * s.point_size, 0.25f) : 1.0f;
    const float intensity =
        s.brightness * small *
        float(std::clamp(0.6 * std::sqrt(1e4 / double(std::max<std::size_t>(m_n, 1))), 0.02, 1.5));
    for (std::size_t g = 0; g < s.groups.size(); ++g) {
        const GroupStyle& st = s.groups[g];
        m_group_light[g] = !st.visible                             ? 0.0f
                           : st.dark_matter && !s.show_dark_matter ? s.dark_matter_light
                                                                   : 1.0f;
        m_group_colours[g] = st.colour;
    }
    if (m_n > 0) {
        if (s.colormap != m_colormap_name) use_colormap(s.colormap);  // before the sprites draw with it
        if (s.color_mode == ColorMode::Density) {
            if (!m_density) m_density = std::make_unique<DensityGrid>(m_shader_dir);
            m_density->compute(m_pos, m_n,
                               density_grid_box(camera.target(), camera.distance(), camera.fov_y,
                                                float(w) / float(h), m_scene_radius),
                               m_total_mass);
            NBODY_GL(glBindFramebuffer(GL_FRAMEBUFFER, m_hdr_fbo));
        }
        // The sprites first: the compute pass writes every pixel (the clear); the trails add over them.
        draw_sprites(camera, s, depth, float(w) / float(h), intensity);
        draw_trails(camera, s, depth, float(w) / float(h), intensity);
    } else {
        NBODY_GL(glClear(GL_COLOR_BUFFER_BIT));
    }
    // The mip levels feed both the bloom and the exposure measurement.
    NBODY_GL(glBindTexture(GL_TEXTURE_2D, m_hdr_tex));
    NBODY_GL(glGenerateMipmap(GL_TEXTURE_2D));
    ToneMapInput in;
    in.hdr_texture = m_hdr_tex;
    in.width = w, in.height = h;
    in.sprite_light = intensity;
    in.auto_exposure = s.auto_exposure;
    in.exposure_ev = s.exposure_ev;
    in.exposure = s.exposure;
    in.glow = s.glow;
    in.background = s.background;
    if (m_n <= kFewBodies) in.min_white_sprites = kFewBodyWhiteSprites;
    m_tone_map->draw(in, target_fbo);
    // Over the tone-mapped image: the lines keep their colour and opacity over dense cores and empty sky
    // alike.
    m_cells->draw(camera.view(), camera.projection(float(w) / float(h)), s.cells);
    NBODY_GL(glBindVertexArray(0));
    NBODY_GL(glUseProgram(0));
}

}  // namespace nbody
