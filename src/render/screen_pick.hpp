#pragma once
// Which body a click picks: the one drawn nearest to the cursor on screen, within a few pixels, the one nearer
// the eye where two are equally near. Pure camera math (no GL), so it is unit-tested.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include <glm/glm.hpp>

#include "core/float4.hpp"
#include "render/camera.hpp"

namespace nbody {

// A click within this many pixels of a body's centre picks it (a sprite is a few pixels wide).
inline constexpr float kPickRadiusPx = 8.0f;

// The body nearest to `cursor` (window pixels, origin top left) among those in front of the eye, within
// `max_px`, drawn in a `width` x `height` picture; `drawn(i)` false leaves body i out (a hidden component).
// nullopt when none is that close: a click on empty sky picks nothing.
std::optional<std::size_t> nearest_on_screen(const std::vector<Float4>& pos, const Camera& camera, int width,
                                             int height, glm::vec2 cursor, float max_px = kPickRadiusPx,
                                             const std::function<bool(std::size_t)>& drawn = {});

}  // namespace nbody
