#pragma once
// The desktop's tone map as numbers for the page's WGSL twin (tone_map_web.cpp).
#include <cstddef>

#include <emscripten/val.h>

namespace nbody::web {

// { kneeSprites, whiteOverMeasured, adaptPerFrame, measureTexels, tileTexels, litFloorSprites: the curve's and
// the automatic exposure's constants; minWhiteSprites: how deep white is at least, for a frame of `bodies`;
// background: the empty sky (linear RGB) }. Light is in sprites: one body's peak light is 1.
emscripten::val tone_map_look(std::size_t bodies);

}  // namespace nbody::web
