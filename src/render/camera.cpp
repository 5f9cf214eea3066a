#include "render/camera.hpp"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

#include "scene/scene.hpp"

namespace nbody {

namespace {
constexpr float kRadiansPerPixel = 0.005f;
constexpr float kMaxPitch = 1.55f;                 // just short of the poles, where the up vector degenerates
constexpr float kInertiaTau = 0.25f;               // s
constexpr float kDragEventSeconds = 1.0f / 60.0f;  // a drag event's share of time, to turn it into a speed
}  // namespace

Camera::Camera() {
    reset();
}

void Camera::set_angles(float yaw, float pitch) {
    m_yaw = std::remainder(yaw, 2.0f * glm::pi<float>());
    m_pitch = std::clamp(pitch, -kMaxPitch, kMaxPitch);
}

void Camera::set_distance(float d) {
    m_distance = std::clamp(d, 1e-4f, 1e6f);
}

void Camera::orbit(float dx_px, float dy_px) {
    m_last_drag = glm::vec2(-dx_px, dy_px) * kRadiansPerPixel;
    set_angles(m_yaw + m_last_drag.x, m_pitch + m_last_drag.y);
    m_orbit_vel = glm::vec2(0);
}

void Camera::release() {
    m_orbit_vel = m_last_drag / kDragEventSeconds;
    m_last_drag = glm::vec2(0);
}

void Camera::update(float dt_s) {
    if (dt_s <= 0 || glm::length(m_orbit_vel) < 1e-3f) return;
    set_angles(m_yaw + m_orbit_vel.x * dt_s, m_pitch + m_orbit_vel.y * dt_s);
    m_orbit_vel *= std::exp(-dt_s / kInertiaTau);
}

void Camera::pan(float dx_px, float dy_px, int viewport_height_px) {
    // One pixel moves the target by the size of a pixel at the target's distance, so the scene follows the
    // cursor.
    const float px = 2.0f * m_distance * std::tan(fov_y / 2) / float(std::max(viewport_height_px, 1));
    const glm::mat4 v = view();
    const glm::vec3 right(v[0][0], v[1][0], v[2][0]), up(v[0][1], v[1][1], v[2][1]);
    m_target += (-dx_px * right + dy_px * up) * px;
}

void Camera::zoom(float wheel_steps) {
    set_distance(m_distance * std::pow(0.9f, wheel_steps));
}

void Camera::reset() {
    m_target = m_home_target;
    m_distance = m_home_distance;
    set_angles(m_home_yaw, m_home_pitch);
    m_orbit_vel = glm::vec2(0);
}

void Camera::set_home(glm::vec3 target, float distance, float yaw, float pitch) {
    m_home_target = target;
    m_home_distance = std::clamp(distance, 1e-3f, 1e6f);
    m_home_yaw = yaw;
    m_home_pitch = std::clamp(pitch, -kMaxPitch, kMaxPitch);
    m_home_aspect = 1;
    fov_y = kDefaultFovY;
    reset();
}

void Camera::set_home_frame(glm::vec3 target, float width, float height, float yaw, float pitch) {
    const float h = std::max(height, 1e-6f);
    set_home(target, 0.5f * h / std::tan(kFrameFovY / 2), yaw, pitch);
    m_home_aspect = std::clamp(width / h, 1e-3f, 1e3f);
    fov_y = kFrameFovY;
}

void Camera::frame_all(glm::vec3 centre, float radius) {
    m_home_target = centre;
    fov_y = kDefaultFovY;
    // Distance at which a sphere of `radius` fits the vertical field of view, with a 10% margin.
    m_home_distance = std::clamp(1.1f * std::max(radius, 1e-3f) / std::sin(fov_y / 2), 1e-3f, 1e6f);
    m_home_aspect = 1;
    m_target = m_home_target;
    m_distance = m_home_distance;
}

glm::vec3 Camera::eye() const {
    const glm::vec3 dir(std::cos(m_pitch) * std::cos(m_yaw), std::cos(m_pitch) * std::sin(m_yaw),
                        std::sin(m_pitch));
    return m_target + m_distance * dir;
}

glm::mat4 Camera::view() const {
    return glm::lookAt(eye(), m_target, glm::vec3(0, 0, 1));  // z up
}

glm::mat4 Camera::projection(float aspect) const {
    // Near and far scale with the distance so depth precision follows the zoom.
    // The offset shifts clip x by offset * w, so every point moves by `offset` in NDC (an off-centre frustum).
    const float scale = picture_scale(aspect);
    const glm::mat4 shift = glm::translate(glm::mat4(1), glm::vec3(m_view_offset, m_view_offset_y, 0)) *
                            glm::scale(glm::mat4(1), glm::vec3(scale, scale, 1));
    return shift * glm::perspective(fov_y, std::max(aspect, 1e-3f), m_distance * 1e-3f, m_distance * 1e3f);
}

void Camera::set_view_rect(float left, float top, float right, float bottom, float width_px,
                           float height_px) {
    if (!(width_px > 0 && height_px > 0 && right > left && bottom > top)) {
        m_view_offset = m_view_offset_y = 0, m_free_width = m_free_height = 0;
        return;
    }
    m_view_offset = (left + right) / width_px - 1.0f;
    m_view_offset_y = 1.0f - (top + bottom) / height_px;  // NDC y points up, pixels down
    m_free_width = (right - left) / height_px, m_free_height = (bottom - top) / height_px;
    m_window_aspect = width_px / height_px;
}

float Camera::picture_scale(float window_aspect) const {
    // At scale 1 the home view's box is window-high and frame_aspect() window heights wide.
    const bool free_area = m_free_width > 0;
    const float width = free_area ? m_free_width : window_aspect, height = free_area ? m_free_height : 1.0f;
    return std::clamp(std::min(width / m_home_aspect, height), 0.05f, 1.0f);
}

glm::vec3 Camera::project(glm::vec3 world, int width_px, int height_px) const {
    const glm::vec4 clip =
        projection(float(width_px) / float(std::max(height_px, 1))) * view() * glm::vec4(world, 1);
    const glm::vec3 ndc = glm::vec3(clip) / clip.w;
    return {(ndc.x * 0.5f + 0.5f) * float(width_px), (0.5f - ndc.y * 0.5f) * float(height_px), clip.w};
}

float framing_radius(const std::vector<Float4>& pos, glm::vec3 centre) {
    if (pos.empty()) return 1.0f;
    std::vector<float> r(pos.size());
    for (std::size_t i = 0; i < pos.size(); ++i)
        r[i] = glm::length(glm::vec3(pos[i].x, pos[i].y, pos[i].z) - centre);
    auto q = r.begin() + std::ptrdiff_t((r.size() - 1) * 9 / 10);
    std::nth_element(r.begin(), q, r.end());
    return std::isfinite(*q) ? std::max(*q, 1e-3f) : 1.0f;
}

void set_scene_home(Camera& camera, const CameraSpec& spec) {
    const glm::vec3 target(float(spec.target.x), float(spec.target.y), float(spec.target.z));
    const float yaw = glm::radians(float(spec.yaw_deg)), pitch = glm::radians(float(spec.pitch_deg));
    if (spec.frame_width > 0 && spec.frame_height > 0)
        camera.set_home_frame(target, float(spec.frame_width), float(spec.frame_height), yaw, pitch);
    else
        camera.set_home(target, float(spec.distance), yaw, pitch);
}

}  // namespace nbody
