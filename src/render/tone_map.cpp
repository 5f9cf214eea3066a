#include "render/tone_map.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <cmath>

#include <glm/gtc/type_ptr.hpp>

#include "render/gl_check.hpp"
#include "render/shader.hpp"

namespace nbody {

namespace {
// The curve turns logarithmic at 3% of one sprite's peak light: a lone body's centre lands at about a third
// of the display range when white is 10^4 bodies deep, and still shows at 10^6 (tried on Milky Way-Andromeda
// at 500,000 bodies: 0.1 lost the outer disk, 0.01 lifted the dimmed halo into a haze).
constexpr float kKneeSprites = 0.03f;
// White sits at 3x the brightest measured texel: a texel is the mean of 8 x 8 pixels, and a core's peak is
// brighter than its block's mean; the shoulder takes what is brighter still.
constexpr float kWhiteOverMeasured = 3.0f;
// Fraction of the stored measurement replaced each frame: about ten frames to settle, so a core moving into
// view does not make the picture flicker.
constexpr float kAdaptPerFrame = 0.1f;
// The mip level measured is at most this many texels across (8 x 8-pixel blocks at 1280 x 720), read in
// tiles of kTile x kTile texels, one fragment each; the second pass then walks about 20 x 12 tiles.
constexpr int kMeasureTexels = 256, kTile = 8;

void make_target(unsigned& tex, unsigned& fbo, GLenum format, int w, int h, const char* what) {
    if (tex) glDeleteTextures(1, &tex);
    if (fbo) glDeleteFramebuffers(1, &fbo);
    NBODY_GL(glGenTextures(1, &tex));
    NBODY_GL(glBindTexture(GL_TEXTURE_2D, tex));
    NBODY_GL(glTexStorage2D(GL_TEXTURE_2D, 1, format, w, h));
    NBODY_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST));
    NBODY_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST));
    NBODY_GL(glGenFramebuffers(1, &fbo));
    NBODY_GL(glBindFramebuffer(GL_FRAMEBUFFER, fbo));
    NBODY_GL(glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0));
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        throw GlError(std::string("tone_map.cpp: the ") + what + " target is incomplete");
}

int measured_level(int w, int h) {
    return std::max(0, int(std::ceil(std::log2(double(std::max(w, h)) / kMeasureTexels))));
}
}  // namespace

ToneMapper::ToneMapper(const std::string& dir) {
    m_tiles = std::make_unique<ShaderProgram>(dir, "fullscreen.vert", "exposure_tiles.frag");
    m_measure = std::make_unique<ShaderProgram>(dir, "fullscreen.vert", "exposure.frag");
    m_map = std::make_unique<ShaderProgram>(dir, "fullscreen.vert", "tonemap.frag");
    NBODY_GL(glGenVertexArrays(1, &m_empty_vao));
    const float nothing_yet[4] = {0, 0, 0, 0};  // lit share 0: the first lit frame is taken as it is
    for (int i = 0; i < 2; ++i) {
        make_target(m_measured_tex[i], m_measured_fbo[i], GL_RGBA32F, 1, 1, "1x1 exposure");
        NBODY_GL(glClearBufferfv(GL_COLOR, 0, nothing_yet));
    }
    NBODY_GL(glBindFramebuffer(GL_FRAMEBUFFER, 0));
}

ToneMapper::~ToneMapper() {
    const unsigned fbos[] = {m_measured_fbo[0], m_measured_fbo[1], m_tiles_fbo};
    const unsigned texs[] = {m_measured_tex[0], m_measured_tex[1], m_tiles_tex};
    glDeleteFramebuffers(3, fbos);
    glDeleteTextures(3, texs);
    glDeleteVertexArrays(1, &m_empty_vao);
}

void ToneMapper::ensure_tiles(int w, int h) {
    const int level = measured_level(w, h);
    const int tw = ((std::max(w >> level, 1)) + kTile - 1) / kTile,
              th = ((std::max(h >> level, 1)) + kTile - 1) / kTile;
    if (tw == m_tiles_w && th == m_tiles_h && m_tiles_fbo) return;
    make_target(m_tiles_tex, m_tiles_fbo, GL_RGBA32F, tw, th, "exposure tiles");  // counts: 32-bit floats
    m_tiles_w = tw, m_tiles_h = th;
}

void ToneMapper::measure(const ToneMapInput& in) {
    const int level = measured_level(in.width, in.height);
    // A texel (the mean of 4^level pixels) counts as lit once it holds a hundredth of one sprite's peak.
    const float lit_floor = 0.01f * in.sprite_light / std::ldexp(1.0f, 2 * level);
    NBODY_GL(glBindFramebuffer(GL_FRAMEBUFFER, m_tiles_fbo));
    NBODY_GL(glViewport(0, 0, m_tiles_w, m_tiles_h));
    NBODY_GL(glUseProgram(m_tiles->id()));
    glUniform1i(m_tiles->uniform("u_hdr"), 0);
    glUniform1i(m_tiles->uniform("u_level"), level);
    glUniform1i(m_tiles->uniform("u_tile"), kTile);
    glUniform1f(m_tiles->uniform("u_lit_floor"), lit_floor);
    NBODY_GL(glDrawArrays(GL_TRIANGLES, 0, 3));

    const int previous = m_current;
    m_current = 1 - m_current;
    NBODY_GL(glBindFramebuffer(GL_FRAMEBUFFER, m_measured_fbo[m_current]));
    NBODY_GL(glViewport(0, 0, 1, 1));
    NBODY_GL(glUseProgram(m_measure->id()));
    NBODY_GL(glActiveTexture(GL_TEXTURE1));
    NBODY_GL(glBindTexture(GL_TEXTURE_2D, m_tiles_tex));
    NBODY_GL(glActiveTexture(GL_TEXTURE2));
    NBODY_GL(glBindTexture(GL_TEXTURE_2D, m_measured_tex[previous]));
    NBODY_GL(glActiveTexture(GL_TEXTURE0));
    glUniform1i(m_measure->uniform("u_tiles"), 1);
    glUniform1i(m_measure->uniform("u_previous"), 2);
    glUniform1f(m_measure->uniform("u_texels"),
                float(std::max(in.width >> level, 1) * std::max(in.height >> level, 1)));
    glUniform1f(m_measure->uniform("u_adapt"), m_restart ? 1.0f : kAdaptPerFrame);
    m_restart = false;
    NBODY_GL(glDrawArrays(GL_TRIANGLES, 0, 3));
}

void ToneMapper::draw(const ToneMapInput& in, unsigned target_fbo) {
    NBODY_GL(glBindVertexArray(m_empty_vao));
    if (in.auto_exposure) ensure_tiles(in.width, in.height);  // binds its texture to the active unit
    NBODY_GL(glActiveTexture(GL_TEXTURE0));
    NBODY_GL(glBindTexture(GL_TEXTURE_2D, in.hdr_texture));
    if (in.auto_exposure) measure(in);
    NBODY_GL(glBindFramebuffer(GL_FRAMEBUFFER, target_fbo));
    NBODY_GL(glViewport(0, 0, in.width, in.height));
    NBODY_GL(glUseProgram(m_map->id()));
    glUniform1i(m_map->uniform("u_hdr"), 0);
    glUniform1i(m_map->uniform("u_measured"), 1);
    NBODY_GL(glActiveTexture(GL_TEXTURE1));
    NBODY_GL(glBindTexture(GL_TEXTURE_2D, m_measured_tex[m_current]));
    NBODY_GL(glActiveTexture(GL_TEXTURE0));
    const float sprite = std::max(in.sprite_light, 1e-30f);
    glUniform1i(m_map->uniform("u_auto"), in.auto_exposure ? 1 : 0);
    glUniform1f(m_map->uniform("u_knee"), kKneeSprites * sprite);
    // +1 stop of exposure halves the light that is white.
    glUniform1f(m_map->uniform("u_white_scale"), in.auto_exposure
                                                     ? kWhiteOverMeasured * std::exp2(-in.exposure_ev)
                                                     : 1.0f / std::max(in.exposure, 1e-12f));
    glUniform1f(m_map->uniform("u_min_white"), in.min_white_sprites * sprite * std::exp2(-in.exposure_ev));
    glUniform1f(m_map->uniform("u_glow"), in.glow);
    const glm::vec3 bg = glm::pow(glm::clamp(in.background, glm::vec3(0), glm::vec3(1)), glm::vec3(1 / 2.2f));
    glUniform3fv(m_map->uniform("u_background"), 1, glm::value_ptr(bg));
    NBODY_GL(glDrawArrays(GL_TRIANGLES, 0, 3));
    NBODY_GL(glBindVertexArray(0));
}

}  // namespace nbody
