#include "render/screen_pick.hpp"

#include <cmath>

namespace nbody {

std::optional<std::size_t> nearest_on_screen(const std::vector<Float4>& pos, const Camera& camera, int width,
                                             int height, glm::vec2 cursor, float max_px,
                                             const std::function<bool(std::size_t)>& drawn) {
    if (width <= 0 || height <= 0 || !(max_px > 0)) return std::nullopt;
    // One matrix for all N (a click reads every body once): the camera's own projection, as project() does.
    const glm::mat4 m = camera.projection(float(width) / float(height)) * camera.view();
    std::optional<std::size_t> best;
    float best_d2 = max_px * max_px, best_depth = 0;
    for (std::size_t i = 0; i < pos.size(); ++i) {
        const glm::vec4 clip = m * glm::vec4(pos[i].x, pos[i].y, pos[i].z, 1.0f);
        if (!(clip.w > 0)) continue;  // behind the eye, or not finite
        const glm::vec2 px((clip.x / clip.w * 0.5f + 0.5f) * float(width),
                           (0.5f - clip.y / clip.w * 0.5f) * float(height));
        const glm::vec2 d = px - cursor;
        const float d2 = glm::dot(d, d);
        if (!(d2 <= best_d2)) continue;
        if (d2 == best_d2 && best && clip.w >= best_depth) continue;
        if (drawn && !drawn(i)) continue;
        best = i, best_d2 = d2, best_depth = clip.w;
    }
    return best;
}

}  // namespace nbody
