#pragma once
// What the measuring tools draw over the picture, as flat triangles in window pixels: arrows (velocity and
// acceleration), the picked body's trace, the ruler and rings around the picked bodies. The world is projected
// with the camera here, on the CPU (a few hundred points), so lines keep a width in pixels on every GL (a core
// profile draws only 1-pixel GL lines) and the drawing is one coloured triangle list (measure_renderer.hpp).
// No GL, so it is unit-tested.
#include <vector>

#include <glm/glm.hpp>

#include "core/session/measurements.hpp"
#include "render/camera.hpp"

namespace nbody {

struct OverlayVertex {
    float x = 0, y = 0;              // window pixels, origin top left
    float r = 0, g = 0, b = 0, a = 0;  // display-space colour and opacity
};

// A polyline in the world, drawn `width_px` wide; with `arrow` a head at its last point, and its start a few
// pixels off the first point (the body it belongs to stays visible).
struct OverlayLine {
    std::vector<glm::vec3> points;
    glm::vec4 colour{1.0f};
    float width_px = 2.0f;
    bool arrow = false;
};

// A ring of `radius_px` around a world point (a picked body).
struct OverlayRing {
    glm::vec3 centre{0.0f};
    glm::vec4 colour{1.0f};
    float radius_px = 10.0f;
};

struct OverlayShapes {
    std::vector<OverlayLine> lines;
    std::vector<OverlayRing> rings;
};

// The colours, so the panel's words and the picture agree.
inline constexpr glm::vec4 kVelocityColour{0.35f, 1.0f, 0.55f, 0.95f};      // green
inline constexpr glm::vec4 kAccelerationColour{1.0f, 0.55f, 0.2f, 0.95f};   // orange
inline constexpr glm::vec4 kTraceColour{1.0f, 0.95f, 0.6f, 0.7f};           // pale yellow
inline constexpr glm::vec4 kRulerColour{0.55f, 0.85f, 1.0f, 0.95f};         // light blue
inline constexpr glm::vec4 kPickColour{1.0f, 1.0f, 1.0f, 0.95f};            // white ring
inline constexpr glm::vec4 kGuideColour{0.7f, 0.78f, 1.0f, 0.4f};           // faint blue-white dashes

// The measuring tools' shapes for this frame: arrows at the arrow scale, the trace, the ruler, the rings.
OverlayShapes measure_shapes(const Measurements& m);

// A curve sampled at equal steps of time as dashes: `on` steps drawn, `off` left out, so each dash spans the
// same time and the dashes are longest where the motion is fastest.
void add_dashes(OverlayShapes& out, const std::vector<glm::vec3>& curve, glm::vec4 colour, float width_px,
                int on, int off);

// Triangles for `shapes` seen by `camera` in a width x height picture. A segment with an end behind the eye is
// left out (a picked body behind the camera draws nothing, rather than a line across the screen).
std::vector<OverlayVertex> overlay_triangles(const OverlayShapes& shapes, const Camera& camera, int width,
                                             int height);

}  // namespace nbody
