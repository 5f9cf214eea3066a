#version 450 core
// Soft Gaussian sprite, added into a float (HDR) target: dense cores sum up and glow, sparse tails stay visible.
#include "sprite_light.glsl"
in vec3 v_colour;
out vec4 frag;

void main() {
    vec2 d = gl_PointCoord * 2.0 - 1.0;
    float r2 = dot(d, d);
    if (r2 > 1.0) discard;
    frag = vec4(v_colour * sprite_profile(r2), 1.0);
}
