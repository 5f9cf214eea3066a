#pragma once
// How the desktop's window draws a scene's bodies, for the page (look_web.cpp).
#include <emscripten/val.h>

#include "core/physics/state.hpp"
#include "scene/scene.hpp"

namespace nbody::web {

// { groups: [{name, kind, darkMatter, colour}] one a colour group, for the legend; slots: the 8 colour slots
// the sprites are drawn with (group % 8): {colour (linear RGB), darkMatter}; darkMatterLight: the share of its
// light dimmed dark matter keeps; topSpeed: the speed at the top of the colour map; speedBar: {title, left,
// right, unit}, the colour bar's words at that top speed; minSpritePx: the smallest sprite, in pixels, drawn
// at full light where above 1 (scenes of a few bodies); toneMap: the desktop's tone map for these bodies
// (tone_map_web.hpp) }.
emscripten::val scene_look(const SceneSpec& scene, const State& start);

}  // namespace nbody::web
