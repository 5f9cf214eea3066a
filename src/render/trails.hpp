#pragma once
// Fading trails behind the bodies: a ring of L past positions per body kept on the GPU, one GL
// buffer of L x N float4 (slot-major), filled by glCopyBufferSubData from the renderer's position buffer, so
// there is no host round trip whether the positions came by CUDA-GL interop or by upload. Drawn as one line
// strip per body (instanced), fading with age, coloured as the sprites are (group, speed or depth).
#include <cstddef>
#include <memory>
#include <string>

#include <glm/glm.hpp>

#include "render/trail_ring.hpp"

namespace nbody {

class ShaderProgram;

struct TrailSettings {
    bool on = false;
    int length = 128;          // samples kept per body (L); 16 B per body per sample on the GPU
    int stride = 2;            // position updates (frames in which the bodies moved) between two samples
    float brightness = 0.35f;  // the newest point of a trail, relative to a sprite's centre
};

// GPU memory the ring may take; a longer trail than fits is shortened (trail_length_for).
inline constexpr std::size_t kTrailBudgetBytes = std::size_t(1) << 30;
// The length used for n bodies when `asked` was asked for: at most what fits kTrailBudgetBytes, at least 2.
int trail_length_for(std::size_t n, int asked);

// What a trail draw needs from the renderer, in the sprites' terms.
struct TrailDraw {
    glm::mat4 view{1.0f}, proj{1.0f};
    float intensity = 1;                       // the sprites' per-body light
    int mode = 0;                              // ColorMode as int
    float speed_max = 1;                       // length / time at the top of the colour map
    glm::vec2 depth{0, 1};                     // view distance mapped to the colour map
    const glm::vec3* group_colours = nullptr;  // kGroupColours of them
    const float* group_light = nullptr;        // per group: 1, dimmed (dark matter) or 0 (hidden)
    unsigned group_buffer = 0, colormap = 0;   // the renderer's per-body group (uint) and 1D colour map
};

class TrailRenderer {
  public:
    // Throws GlError (file:line) when trails.vert or trails.frag does not compile.
    explicit TrailRenderer(const std::string& shader_directory);
    ~TrailRenderer();
    TrailRenderer(const TrailRenderer&) = delete;
    TrailRenderer& operator=(const TrailRenderer&) = delete;

    void clear() { m_ring.clear(); }  // forget the samples (a reset, a rewind, a new scene)
    // After new positions (n float4) were written into `position_buffer`, `sim_dt` simulated time after the
    // previous ones: a sample into the ring every s.stride calls. A negative sim_dt (time went back: a
    // rewind) clears first. The ring is re-created, empty, when n or the length changes, and freed when
    // trails are off.
    void record(unsigned position_buffer, std::size_t n, double sim_dt, const TrailSettings& s);
    // Into the framebuffer bound now, additively.
    void draw(const TrailDraw& d, const TrailSettings& s);

    const TrailRing& ring() const { return m_ring; }
    std::size_t bytes() const { return m_buffer ? m_n * std::size_t(m_ring.length()) * 16 : 0; }
    // Why there are no trails although they are on (the ring's memory could not be had); empty otherwise.
    const std::string& note() const { return m_note; }

  private:
    std::unique_ptr<ShaderProgram> m_prog;
    unsigned m_vao = 0, m_buffer = 0;
    std::size_t m_n = 0;
    TrailRing m_ring;
    double m_since_sample = 0;  // simulated time since the newest sample
    double m_sample_span = 0;   // simulated time between the two newest samples (speed colouring)
    std::string m_note;
    std::size_t m_failed_n = 0;  // the size whose allocation failed (not retried until it changes)
    int m_failed_length = 0;
};

}  // namespace nbody
