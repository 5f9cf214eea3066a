#pragma once
// Draws N bodies from one GL vertex buffer of float4 (x, y, z, mass) that this renderer owns, as additive
// Gaussian point sprites into an HDR (RGBA16F) framebuffer, then tone-maps into the target framebuffer.
// A second buffer keeps the previous positions (speed colouring without a velocity upload) and a third the
// static per-body group. The position buffer's GL id is what CUDA-GL interop registers.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "core/float4.hpp"
#include "render/camera.hpp"
#include "render/cell_renderer.hpp"
#include "render/colormap.hpp"
#include "render/colour_scale.hpp"
#include "render/gpu_timer.hpp"
#include "render/sprite_splat.hpp"
#include "render/trails.hpp"

namespace nbody {

class DensityGrid;
class ShaderProgram;
class ToneMapper;

// A sprite size that suits N bodies: bigger for few bodies (so cores overlap and glow), 1.7 px at 10^6, 1 px
// from 6 x 10^6 (the draw of 10^7 sprites is bound by blending the fragments into the HDR target).
float default_point_size(std::size_t n);
// The smallest sprite for n bodies: scenes of kFewBodies or fewer (two-body, figure-eight) draw each body at
// least kFewBodySpritePx across at full light, so a room sees a handful of stars; 1 (no floor) above that,
// where a galaxy's far bodies keep the light of their true area.
inline constexpr std::size_t kFewBodies = 64;
inline constexpr float kFewBodySpritePx = 16.0f;
// Their white, in sprites deep (ToneMapInput::min_white_sprites): a lone star's centre near white, its colour
// kept.
inline constexpr float kFewBodyWhiteSprites = 1.25f;
float few_body_sprite_px(std::size_t n);

// How one colour group (a scene component) is drawn: its colour, whether it is drawn, and whether it is dark
// matter (then dimmed unless RenderSettings::show_dark_matter).
struct GroupStyle {
    glm::vec3 colour{1.0f};  // linear RGB
    bool visible = true;
    bool dark_matter = false;
};
using GroupStyles = std::array<GroupStyle, kGroupColours>;
GroupStyles default_group_styles();  // group_colour(g), all visible, none dark

struct RenderSettings {
    float point_size = 3.0f;  // sprite diameter in pixels at the camera target's distance
    float brightness = 1.0f;  // multiplies the per-body light (which already scales as 1/sqrt(N))
    // Tone map (shaders/tonemap.frag): an asinh stretch from a tenth of a sprite's light up to white.
    bool auto_exposure = true;  // white at the frame's own brightest light, measured on the GPU
    float exposure_ev = 0.0f;   // auto: stops brighter (+) or darker (-) than measured
    float exposure = 1.0f;      // manual: light 1 / exposure is white
    float glow = 0.3f;          // bloom around dense regions (coarse mip levels of the light added back)
    ColorMode color_mode = ColorMode::Group;
    GroupStyles groups = default_group_styles();  // index: colour group (group % kGroupColours)
    bool show_dark_matter = false;  // false: dark-matter groups drawn with dark_matter_light of their light
    float dark_matter_light = 0.1f;
    float speed_max = 1.0f;  // speed (length / time) at the top of the colour map
    // Scenes of a few bodies (two-body, figure-eight): each sprite at least this many pixels across and as
    // bright as a sprite of that size, so a class sees them; 1 (the default) changes nothing.
    float min_sprite_px = 1.0f;
    glm::vec3 background{0.0015f, 0.0015f, 0.004f};  // linear RGB: near black, a hint of blue
    std::string colormap = "ember";                  // speed and depth: assets/colormaps/<name>.txt
    TrailSettings trails;                            // fading trails behind the bodies (trails.hpp)
    CellSettings cells;                              // the tree's cells over the bodies (cell_renderer.hpp)
    bool orbit_guides = true;  // a choreography's point-mass path, dashed, where the scene has one (orbit_guides.hpp)
};

// What the depth colour map spans, in view distance (scene units).
struct DepthRange {
    float near_d = 0, far_d = 1;
};

class ParticleRenderer {
  public:
    // Throws GlError (file:line) when a shader fails to load or compile. The colour map comes from
    // asset_dir()/colormaps/ember.txt, the built-in one when that file is missing or malformed.
    explicit ParticleRenderer(const std::string& shader_directory);
    ~ParticleRenderer();
    ParticleRenderer(const ParticleRenderer&) = delete;
    ParticleRenderer& operator=(const ParticleRenderer&) = delete;

    // Sizes the buffers for n bodies (re-created when n changes; contents undefined until written).
    void set_particle_count(std::size_t n);
    std::size_t particle_count() const { return m_n; }
    unsigned position_buffer() const { return m_pos; }
    std::size_t position_bytes() const { return m_n * sizeof(Float4); }

    void set_groups(const std::vector<uint32_t>& group);
    const LoadedColormap& colormap() const { return m_colormap_info; }
    // Before new positions are written (by upload or by interop): keeps the current ones as "previous",
    // and records how much simulated time the coming update spans (for speed colouring).
    void begin_position_update(double sim_time_delta);
    // The host-copy path: n float4 from host memory into the position buffer.
    void upload_positions(const Float4* host, std::size_t n);
    // After new positions were written (either path): the trails take a sample when one is due.
    void end_position_update(const TrailSettings& s);
    void clear_trails() { m_trails->clear(); }  // a reset or a new scene: no line back to the old positions
    const TrailRenderer& trails() const { return *m_trails; }
    // The tree cells drawn while RenderSettings::cells.on, over the bodies (Simulation::tree_cells).
    void set_cells(const std::vector<TreeCellBox>& boxes) { m_cells->set_boxes(boxes); }
    const CellRenderer& cells() const { return *m_cells; }

    // What the density grid needs from the scene: the total mass (its fixed point) and the radius that frames
    // all bodies (its smallest box). Call on a new scene.
    void set_scene_scale(double total_mass, float radius);
    // The potential colouring's per-body values (N floats, (length/time)^2) and the range the ramp spans;
    // an empty vector forgets them (the mode then draws component colours).
    void set_body_scalars(const std::vector<float>& values, const ValueRange& range);
    bool has_body_scalars() const { return m_scalar_range.valid; }
    const ValueRange& body_scalar_range() const { return m_scalar_range; }
    // The position buffer read back (N float4): the host copy for a computation the GPU does not do.
    void read_positions(std::vector<Float4>& out) const;
    // log10 density (mass / length^3) at the ramp's ends; invalid until density colouring drew a frame.
    ValueRange density_log_range() const;
    double density_seconds() const;  // GPU time of the density passes (0 until measured or when not shown)

    // Draws into `target_fbo` (width x height pixels), background included.
    void draw(const Camera& camera, const RenderSettings& s, const DepthRange& depth, int width, int height,
              unsigned target_fbo);
    // The GPU's time for the sprites alone (the compute pass and the point draw into the HDR target), from
    // timer queries a few frames old; 0 until one is ready.
    double sprite_seconds() const { return m_sprite_timer ? m_sprite_timer->seconds() : 0.0; }
    SpritePath sprite_path() const { return m_sprite_path; }
    // Overrides the choice sprite_path_for made; `big_slots` bounds the big sprites the points draw after a
    // compute pass (the rest are added by it too).
    void set_sprite_path(SpritePath path, std::size_t big_slots = kBigSpriteSlots);

  private:
    void ensure_hdr_target(int width, int height);
    void use_colormap(const std::string& name);  // loads it (or the fallback) into the 1D texture

    void draw_trails(const Camera& camera, const RenderSettings& s, const DepthRange& depth, float aspect,
                     float intensity);
    void draw_sprites(const Camera& camera, const RenderSettings& s, const DepthRange& depth, float aspect,
                      float intensity);
    // shaders/sprite_light.glsl's uniforms on `program` (the point shader or the compute pass), left bound.
    void set_sprite_uniforms(unsigned program, const Camera& camera, const RenderSettings& s,
                             const DepthRange& depth, float aspect, float intensity);
    double splat_light_scale(float intensity) const;  // SpriteSplat::add's fixed-point units per light

    std::unique_ptr<ShaderProgram> m_points;
    std::unique_ptr<ToneMapper> m_tone_map;
    std::unique_ptr<GpuTimer> m_sprite_timer;
    std::unique_ptr<SpriteSplat> m_splat;  // made the first time the compute pass draws
    SpritePath m_sprite_path = SpritePath::Raster;
    std::size_t m_big_slots = kBigSpriteSlots;
    std::unique_ptr<DensityGrid> m_density;  // made the first time density colouring is drawn
    LoadedColormap m_colormap_info;
    std::string m_colormap_name;  // the name asked for last (a missing one is not retried every frame)
    std::array<glm::vec3, kGroupColours> m_group_colours{};  // this frame's (trails)
    std::array<float, kGroupColours> m_group_light{};        // 0 hidden, dimmed, or 1
    std::unique_ptr<TrailRenderer> m_trails;
    std::unique_ptr<CellRenderer> m_cells;
    unsigned m_vao = 0, m_pos = 0, m_prev = 0, m_group = 0, m_scalar = 0, m_colormap = 0;
    std::string m_shader_dir;
    double m_total_mass = 1;
    float m_scene_radius = 1;
    ValueRange m_scalar_range;
    unsigned m_hdr_fbo = 0, m_hdr_tex = 0;
    int m_hdr_w = 0, m_hdr_h = 0;
    std::size_t m_n = 0;
    double m_update_dt = 0;   // simulated time between the previous and the current positions
    double m_pending_dt = 0;  // what the update under way spans (negative: time went back, a rewind)
};

}  // namespace nbody
