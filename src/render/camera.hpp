#pragma once
// An orbit camera around a target point, with inertia: left drag orbits, right/middle drag pans, the wheel
// zooms. Pure math (no GL), so it is unit-tested. Angles in radians, distances in scene length units,
// mouse deltas in screen pixels, time in seconds. z is up, as in the scene files: yaw turns about z from +x,
// pitch is the eye's elevation above the x-y plane (where the scenes put their galaxies and orbits): the
// convention of the scene files' [camera] table.
#include <vector>

#include <glm/glm.hpp>

#include "core/float4.hpp"

namespace nbody {

struct CameraSpec;

// The radius about `centre` holding 90% of the bodies (stray escapers do not shrink the view), at least 1e-3;
// 1 when it is not finite. What "frame all" fits in view.
float framing_radius(const std::vector<Float4>& pos, glm::vec3 centre);

class Camera {
  public:
    Camera();

    void orbit(float dx_px, float dy_px);  // drag: rotates about the target and keeps the drag's speed
    void pan(float dx_px, float dy_px, int viewport_height_px);
    void zoom(float wheel_steps);  // > 0 moves closer; 10% of the distance per step
    void release();                // mouse released: the last drag speed carries on (inertia)
    void update(float dt_s);       // integrates inertia, which decays with a 0.25 s time scale
    void stop() { m_orbit_vel = glm::vec2(0); }

    void reset();                                    // back to the home view
    void frame_all(glm::vec3 centre, float radius);  // fits a sphere in view and makes it the home view
    // A home view given outright (a scene's [camera]); also goes there.
    void set_home(glm::vec3 target, float distance, float yaw, float pitch);
    // A home view that keeps a `width` x `height` box about the target whole (scene units, across and up the
    // picture: a scene's [camera] frame): the distance fits its height to the window's, and the picture
    // shrinks where the view or the free area is narrower than the box. Also goes there.
    void set_home_frame(glm::vec3 target, float width, float height, float yaw, float pitch);
    // Width over height of what the home view keeps whole: 1 for a sphere (frame_all, set_home).
    float frame_aspect() const { return m_home_aspect; }
    void set_target(glm::vec3 t) { m_target = t; }   // follow the centre of mass

    glm::mat4 view() const;
    glm::mat4 projection(float aspect) const;
    glm::vec3 eye() const;
    glm::vec3 target() const { return m_target; }
    float distance() const { return m_distance; }
    float yaw() const { return m_yaw; }
    float pitch() const { return m_pitch; }
    void set_angles(float yaw, float pitch);
    void set_distance(float d);
    // Window pixel (origin top left, y down) of a world point, for tests and picking; z < 0 behind the eye.
    glm::vec3 project(glm::vec3 world, int width_px, int height_px) const;

    // Moves the picture's centre to x = ndc_x in normalised device coordinates (-1 left edge, 1 right): the
    // bodies are framed in the free area beside the panels. The field of view and the fit are unchanged.
    void set_view_offset(float ndc_x) { m_view_offset = ndc_x; }
    float view_offset() const { return m_view_offset; }
    // The free area as a rectangle of the window (pixels, origin top left): the picture's centre moves to its
    // centre and the picture shrinks so that what the home view keeps whole in the window's height fits the
    // free area: by `min(its width / frame_aspect(), its height) / window height`. The camera's distance and
    // field of view are unchanged. Without a free area (headless) the whole window is the free area.
    void set_view_rect(float left, float top, float right, float bottom, float width_px, float height_px);
    float view_scale() const { return picture_scale(m_window_aspect); }

    // Vertical field of view: 45 degrees, and 20 for a frame box. A box wider than the view shrinks the
    // picture, which widens what the view takes in: at 45 degrees a 16:9 picture filled by a box 2.4 times
    // wider than high sees its ends 44 degrees off the axis, where a sphere draws 1.4 times longer than wide;
    // at 20 degrees, 23 off the axis and 1.08.
    static constexpr float kDefaultFovY = 0.78539816f, kFrameFovY = 0.34906585f;
    float fov_y = kDefaultFovY;

  private:
    // Home: seen from 70 degrees above the x-y plane, x to the right: galaxies in that plane show their
    // shape, tilted enough to read as 3D.
    static constexpr float kHomeYaw = -1.5707964f, kHomePitch = 1.22f;

    // The picture's shrink for a window of this width / height (see set_view_rect), 0.05 to 1.
    float picture_scale(float window_aspect) const;

    float m_view_offset = 0, m_view_offset_y = 0;
    // The free area's width and height over the window's height (0: none given, the whole window).
    float m_free_width = 0, m_free_height = 0, m_window_aspect = 1;
    float m_home_aspect = 1;
    glm::vec3 m_target{0};
    float m_distance = 5, m_yaw = kHomeYaw, m_pitch = kHomePitch;
    glm::vec2 m_orbit_vel{0};  // radians per second, for inertia
    glm::vec2 m_last_drag{0};  // radians of the last drag event
    glm::vec3 m_home_target{0};
    float m_home_distance = 5, m_home_yaw = kHomeYaw, m_home_pitch = kHomePitch;
};

// A scene's [camera] as the home view (and go there): its distance, or its frame box.
void set_scene_home(Camera& camera, const CameraSpec& spec);

}  // namespace nbody
