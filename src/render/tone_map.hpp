#pragma once
// The last step of the picture: the HDR light (RGBA16F, mipmapped) to the display. Owns the automatic
// exposure's targets (shaders/exposure_tiles.frag and exposure.frag measure the frame's brightest light on
// the GPU; nothing is read back) and the tone-map pass (shaders/tonemap.frag: an asinh stretch that keeps
// one to 10^5 overlapping bodies apart and eases into white without reaching it).
#include <memory>
#include <string>

#include <glm/glm.hpp>

namespace nbody {

class ShaderProgram;

// What the tone map is given each frame. Light values are in the renderer's units: `sprite_light` is the
// light at the centre of one body's sprite.
struct ToneMapInput {
    unsigned hdr_texture = 0;
    int width = 0, height = 0;
    float sprite_light = 1;  // one body's peak light (the curve's knee and the lit floor follow it)
    bool auto_exposure = true;
    float exposure_ev = 0;  // auto: stops brighter (+) or darker (-) than measured
    float exposure = 1;     // manual: light 1 / exposure is white
    float glow = 0;
    glm::vec3 background{0};  // linear RGB
    // Auto exposure: white is at least this many sprites deep, so a sparse frame of a galaxy's outskirts is not
    // stretched until each lone body is white; scenes of a few bodies ask for less, so their stars show bright.
    float min_white_sprites = 8;
};

class ToneMapper {
  public:
    explicit ToneMapper(const std::string& shader_directory);  // throws GlError
    ~ToneMapper();
    ToneMapper(const ToneMapper&) = delete;
    ToneMapper& operator=(const ToneMapper&) = delete;

    // Measures the frame (auto exposure) and draws the mapped picture into `target_fbo`. The HDR texture's
    // mip levels must be current (generated after the sprites were drawn).
    void draw(const ToneMapInput& in, unsigned target_fbo);
    // The next measurement replaces the stored one at once (a new scene, a resize, a first frame), rather
    // than the exposure easing towards it over about ten frames.
    void restart_adaptation() { m_restart = true; }

  private:
    void measure(const ToneMapInput& in);
    void ensure_tiles(int w, int h);

    std::unique_ptr<ShaderProgram> m_tiles, m_measure, m_map;
    unsigned m_tiles_tex = 0, m_tiles_fbo = 0, m_empty_vao = 0;
    unsigned m_measured_tex[2] = {}, m_measured_fbo[2] = {};  // ping-pong: last frame's, this frame's
    int m_current = 0;
    int m_tiles_w = 0, m_tiles_h = 0;
    bool m_restart = true;
};

}  // namespace nbody
