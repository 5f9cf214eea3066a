#include "render/measure_overlay.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace nbody {

namespace {
glm::vec3 to_vec3(Double3 d) { return glm::vec3(float(d.x), float(d.y), float(d.z)); }

// Arrow heads in pixels: long enough to read at a glance, never longer than 40% of a short arrow.
constexpr float kHeadLengthPx = 12.0f, kHeadHalfWidthPx = 5.0f;
// An arrow starts this far from its body's centre: the star itself stays visible under its arrows.
constexpr float kArrowGapPx = 4.0f;

void arrow_from(OverlayShapes& out, Double3 from, Double3 vector, double scale, glm::vec4 colour) {
    const Double3 tip = from + scale * vector;
    out.lines.push_back({{to_vec3(from), to_vec3(tip)}, colour, 2.5f, true});
}

struct Triangles {
    std::vector<OverlayVertex>& out;
    void add(glm::vec2 a, glm::vec2 b, glm::vec2 c, glm::vec4 col) {
        for (glm::vec2 p : {a, b, c}) out.push_back({p.x, p.y, col.r, col.g, col.b, col.a});
    }
    // A segment `width` pixels wide as two triangles.
    void segment(glm::vec2 a, glm::vec2 b, float width, glm::vec4 col) {
        const glm::vec2 d = b - a;
        const float len = glm::length(d);
        if (!(len > 1e-3f)) return;
        const glm::vec2 n = glm::vec2(-d.y, d.x) / len * (0.5f * width);
        add(a + n, b + n, b - n, col);
        add(a + n, b - n, a - n, col);
    }
};

// Window pixels of a world point, or nothing when it is behind the eye.
struct Projector {
    const Camera& camera;
    int width, height;
    bool at(glm::vec3 w, glm::vec2& px) const {
        const glm::vec3 p = camera.project(w, width, height);
        if (!(p.z > 0) || !std::isfinite(p.x) || !std::isfinite(p.y)) return false;
        px = glm::vec2(p.x, p.y);
        return true;
    }
};

void line_triangles(const OverlayLine& l, const Projector& proj, Triangles& tri) {
    std::vector<glm::vec2> px(l.points.size());
    std::vector<bool> ok(l.points.size());
    for (std::size_t k = 0; k < l.points.size(); ++k) ok[k] = proj.at(l.points[k], px[k]);
    const std::size_t last = l.points.size() - 1;
    for (std::size_t k = 0; k < last; ++k) {
        if (!ok[k] || !ok[k + 1]) continue;
        glm::vec2 a = px[k], b = px[k + 1];
        if (l.arrow && k == 0) {
            const glm::vec2 d = b - a;
            const float len = glm::length(d);
            if (len > 1e-3f) a += d / len * std::min(kArrowGapPx, 0.3f * len);
        }
        if (l.arrow && k + 1 == last) {
            const glm::vec2 d = px[last] - px[k];
            const float len = glm::length(d);
            if (!(len > 1e-3f)) continue;
            const glm::vec2 u = d / len, n(-u.y, u.x);
            const float head = std::min(kHeadLengthPx, 0.4f * len), half = head * kHeadHalfWidthPx / kHeadLengthPx;
            const glm::vec2 base = px[last] - u * head;
            tri.add(px[last], base + n * half, base - n * half, l.colour);
            b = base + u * (0.5f * head);  // the shaft runs into the head, not past its tip
        }
        tri.segment(a, b, l.width_px, l.colour);
    }
}

void ring_triangles(const OverlayRing& r, const Projector& proj, Triangles& tri) {
    glm::vec2 c;
    if (!proj.at(r.centre, c)) return;
    constexpr int kSides = 24;
    for (int k = 0; k < kSides; ++k) {
        const float a0 = 2 * std::numbers::pi_v<float> * float(k) / kSides;
        const float a1 = 2 * std::numbers::pi_v<float> * float(k + 1) / kSides;
        tri.segment(c + r.radius_px * glm::vec2(std::cos(a0), std::sin(a0)),
                    c + r.radius_px * glm::vec2(std::cos(a1), std::sin(a1)), 1.5f, r.colour);
    }
}
}  // namespace

OverlayShapes measure_shapes(const Measurements& m) {
    OverlayShapes out;
    const ArrowScale& s = m.arrow_scale();
    if (m.show_trace && m.picked() && m.trace().samples().size() >= 2) {
        OverlayLine trace{{}, kTraceColour, 1.5f, false};
        for (const TraceSample& t : m.trace().samples()) trace.points.push_back(to_vec3(t.pos));
        out.lines.push_back(std::move(trace));
    }
    const BodyReading* a = m.picked() ? m.reading_of(*m.picked()) : nullptr;
    const BodyReading* b = m.second() ? m.reading_of(*m.second()) : nullptr;
    if (a && b) out.lines.push_back({{to_vec3(a->pos), to_vec3(b->pos)}, kRulerColour, 2.0f, false});
    if (s.velocity_time > 0) {
        for (const BodyReading& r : m.readings()) {
            // A pick's arrows always; the others' in a few-body scene with every body's arrows on.
            const bool mine = r.index == m.picked() || r.index == m.second() || m.arrows_for_every_body();
            if (!mine) continue;
            if (m.show_velocity) arrow_from(out, r.pos, r.vel, s.velocity_time, kVelocityColour);
            if (m.show_acceleration) arrow_from(out, r.pos, r.acc, 1.0 / s.accel_per_length, kAccelerationColour);
        }
    }
    if (a) out.rings.push_back({to_vec3(a->pos), kPickColour, 10.0f});
    if (b) out.rings.push_back({to_vec3(b->pos), kRulerColour, 10.0f});
    return out;
}

void add_dashes(OverlayShapes& out, const std::vector<glm::vec3>& curve, glm::vec4 colour, float width_px,
                int on, int off) {
    const std::size_t drawn = std::size_t(std::max(on, 1)), period = drawn + std::size_t(std::max(off, 0));
    for (std::size_t k = 0; k + 1 < curve.size(); k += period) {
        const auto first = curve.begin() + std::ptrdiff_t(k);
        const auto last = curve.begin() + std::ptrdiff_t(std::min(curve.size() - 1, k + drawn));
        out.lines.push_back({{first, last + 1}, colour, width_px, false});
    }
}

std::vector<OverlayVertex> overlay_triangles(const OverlayShapes& shapes, const Camera& camera, int width,
                                             int height) {
    std::vector<OverlayVertex> out;
    Triangles tri{out};
    const Projector proj{camera, width, height};
    for (const OverlayLine& l : shapes.lines)
        if (l.points.size() >= 2) line_triangles(l, proj, tri);
    for (const OverlayRing& r : shapes.rings) ring_triangles(r, proj, tri);
    return out;
}

}  // namespace nbody
