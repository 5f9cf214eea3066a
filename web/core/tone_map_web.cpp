// The desktop's tone map (src/render/tone_map.cpp, shaders/tonemap.frag and the exposure shaders) as numbers
// the page's WGSL twin (web/src/tone_map.ts) reads, so both map light to the screen alike.
//
// The white-depth rules and the sky come from the desktop's headers: ToneMapInput::min_white_sprites (8: a
// galaxy's lone bodies are not white), kFewBodies and kFewBodyWhiteSprites (1.25 for scenes of a few bodies)
// and RenderSettings::background; the exposure and glow are the View panel's (view_controls_web.cpp). The
// knee, white over the measured brightest, the adaptation a frame, the measured mip level's size, its tiles
// and the lit floor are constants inside tone_map.cpp, a file that needs GL and is not in the web build: they
// are repeated here, this one place; keep them in step.
#include "tone_map_web.hpp"

#include <vector>

#include "render/particle_renderer.hpp"
#include "render/tone_map.hpp"

namespace nbody::web {
namespace {
using emscripten::val;

// src/render/tone_map.cpp: kKneeSprites, kWhiteOverMeasured, kAdaptPerFrame, kMeasureTexels, kTile, and the lit
// floor of ToneMapper::measure (a hundredth of one sprite's peak, per pixel of the measured texel).
constexpr double kKneeSprites = 0.03;
constexpr double kWhiteOverMeasured = 3.0;
constexpr double kAdaptPerFrame = 0.1;
constexpr int kMeasureTexels = 256;
constexpr int kTile = 8;
constexpr double kLitFloorSprites = 0.01;
}  // namespace

val tone_map_look(std::size_t bodies) {
    // `groups` given so that default_group_styles (particle_renderer.cpp, GL) is not called.
    const RenderSettings desktop{.groups = {}};
    val t = val::object();
    t.set("kneeSprites", kKneeSprites);
    t.set("whiteOverMeasured", kWhiteOverMeasured);
    t.set("adaptPerFrame", kAdaptPerFrame);
    t.set("measureTexels", kMeasureTexels);
    t.set("tileTexels", kTile);
    t.set("litFloorSprites", kLitFloorSprites);
    // src/render/particle_renderer.cpp, draw: few-body scenes white at kFewBodyWhiteSprites, else the default.
    t.set("minWhiteSprites", bodies <= kFewBodies ? kFewBodyWhiteSprites : ToneMapInput{}.min_white_sprites);
    const glm::vec3 bg = desktop.background;
    t.set("background", val::array(std::vector<double>{bg.x, bg.y, bg.z}));
    return t;
}

}  // namespace nbody::web
