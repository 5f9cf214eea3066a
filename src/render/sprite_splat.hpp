#pragma once
// Small sprites added by a compute pass instead of the rasterizer (shaders/sprite_splat.comp): on H100 and
// H200 the graphics pipeline runs on 2 of the chip's TPCs, and 2 million point sprites are bound by it
// (6.8 ms a frame for Milky Way-Andromeda), while a compute pass runs on every SM. Sprites bigger than
// kSplatMaxPx are set aside into a vertex buffer that the point shader draws. The picture is the
// rasterizer's: the same pixels, the same profile and light (shaders/sprite_light.glsl), summed in fixed
// point.
#include <cstddef>
#include <memory>
#include <string>

namespace nbody {

class ShaderProgram;

// How the sprites are drawn: every one as a GL point, or the small ones by the compute pass. Auto: the
// compute pass, except on a software rasterizer (llvmpipe), where the points are the faster.
enum class SpritePath { Raster, Splat };
// $NBODY_SPRITES ("raster" or "splat") when set, else the choice above for the GL_RENDERER string.
SpritePath sprite_path_for(const char* renderer);

// Sprites up to this size (pixels across) are added by the compute pass: at most 5 x 5 pixels each.
inline constexpr float kSplatMaxPx = 4.0f;
// Slots for the bigger ones (48 bytes each); past them they are added by the compute pass too.
inline constexpr std::size_t kBigSpriteSlots = 262144;

// The buffers the bodies' attributes live in (the renderer's vertex buffers, bound as storage buffers).
struct SpriteBodies {
    unsigned positions = 0, previous = 0, groups = 0, scalars = 0;
    std::size_t n = 0;
};

class SpriteSplat {
  public:
    // big_slots: how many big sprites the points draw at most (the rest are added by the compute pass).
    // Throws GlError (file:line) when a shader fails to load or compile.
    SpriteSplat(const std::string& shader_directory, std::size_t big_slots);
    ~SpriteSplat();
    SpriteSplat(const SpriteSplat&) = delete;
    SpriteSplat& operator=(const SpriteSplat&) = delete;

    // The two programs that compute a body's sprite: the caller sets sprite_light.glsl's uniforms on both
    // before add().
    unsigned splat_program() const { return m_splat; }
    unsigned big_program() const;
    // Adds every body's sprite into the light buffer (the small ones by the compute pass, the big ones as
    // points whose fragments add), then writes the light into level 0 of `hdr_texture` (RGBA16F, width x
    // height, the bound framebuffer's attachment), replacing what it held. `light_scale`: fixed-point units
    // per unit of light, small enough that n bodies' brightest light fits a uint32.
    void add(const SpriteBodies& bodies, int width, int height, double light_scale, unsigned hdr_texture);

  private:
    void ensure_buffers(std::size_t n, int width, int height);
    void draw_big() const;

    unsigned m_splat = 0, m_resolve = 0;
    std::unique_ptr<ShaderProgram> m_big;  // particles.vert + sprite_add.frag
    unsigned m_light = 0, m_big_slots_buffer = 0, m_big_draw = 0, m_big_vao = 0;
    std::size_t m_big_capacity = 0;  // the most slots asked for
    std::size_t m_big_slots = 0;     // slots in the buffer now: min(n, capacity)
    int m_w = 0, m_h = 0;
};

}  // namespace nbody
