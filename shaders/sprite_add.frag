#version 450 core
// The big sprites' fragments, added into the fixed-point light buffer rather than blended: the sum is then
// exact and the same in any order (the points sprite_splat.comp sets aside come in no fixed order, and
// half-float blending rounds differently for each), so a frame's pixels depend on the bodies alone.
#define SPRITE_LIGHT_BUFFER
#include "sprite_light.glsl"
in vec3 v_colour;

void main() {
    vec2 d = gl_PointCoord * 2.0 - 1.0;
    float a = sprite_profile(dot(d, d));
    if (a > 0.0) add_light(ivec2(gl_FragCoord.xy), v_colour * a);
}
