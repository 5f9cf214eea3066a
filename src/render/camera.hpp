#pragma once
// An orbit camera around a target point, with inertia: left drag orbits, right/middle drag pans, the wheel
// zooms. Pure math (no GL), so it is unit-tested. Angles in radians, distances in scene length units,
// mouse deltas in screen pixels, time in seconds.
#include <glm/glm.hpp>

namespace nbody {

class Camera {
  public:
    Camera();

    void orbit(float dx_px, float dy_px);  // drag: rotates about the target and keeps the drag's speed
    void pan(float dx_px, float dy_px, int viewport_height_px);
    void zoom(float wheel_steps);  // > 0 moves closer; 10% of the distance per step
    void release();                // mouse released: the last drag speed carries on (inertia)
    void update(float dt_s);       // integrates inertia, which decays with a 0.25 s time scale
    void stop() { m_orbit_vel = glm::vec2(0); }

    void reset();                                    // the home view, framing the last frame_all() sphere
    void frame_all(glm::vec3 centre, float radius);  // fits a sphere in view and makes it the home view
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

    float fov_y = glm::radians(45.0f);

  private:
    glm::vec3 m_target{0};
    float m_distance = 5, m_yaw = 0, m_pitch = 0.35f;
    glm::vec2 m_orbit_vel{0};  // radians per second, for inertia
    glm::vec2 m_last_drag{0};  // radians of the last drag event
    glm::vec3 m_home_target{0};
    float m_home_distance = 5;
};

}  // namespace nbody
