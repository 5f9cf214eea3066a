#version 450 core
// After sprite_splat.comp and the big sprites' points (sprite_add.frag): each pixel's fixed-point light into
// the HDR target (this replaces its clear; the trails are added over it), and the light buffer zeroed for
// the next frame.
layout(local_size_x = 16, local_size_y = 16) in;
layout(rgba16f, binding = 0) writeonly uniform image2D u_hdr;
layout(std430, binding = 4) buffer Light { uint light[]; };

uniform ivec2 u_viewport;
uniform float u_inv_light_scale;  // light per fixed-point unit

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(p, u_viewport))) return;
    uint at = 3u * (uint(p.y) * uint(u_viewport.x) + uint(p.x));
    vec3 c = vec3(light[at], light[at + 1u], light[at + 2u]) * u_inv_light_scale;
    light[at] = 0u;
    light[at + 1u] = 0u;
    light[at + 2u] = 0u;
    imageStore(u_hdr, p, vec4(c, 0.0));
}
