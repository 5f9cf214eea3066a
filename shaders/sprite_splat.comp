#version 450 core
// The small sprites without the rasterizer: each body's sprite (up to u_splat_max_px across) is added into a
// fixed-point light buffer, three integer atomics a covered pixel, so the sum is exact and the same in any
// order. Why: on GPUs whose graphics pipeline is a small part of the chip (H100 and H200 run vertex and
// pixel work on 2 of their TPCs), millions of point sprites are bound by it, while a compute pass runs on
// every SM. Bigger sprites are copied into a vertex buffer that particles.vert draws as points, up to its
// capacity; past it they are added here too. The pixels covered and the profile are those of GL's point
// rasterization: every pixel whose centre lies in the square of the sprite's size around it, weighted by
// sprite_profile of its distance from the centre (gl_PointCoord's).
#include "sprite_light.glsl"
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer Positions { vec4 pos_mass[]; };
layout(std430, binding = 1) readonly buffer Previous { vec4 prev_pos[]; };
layout(std430, binding = 2) readonly buffer Groups { uint groups[]; };
layout(std430, binding = 3) readonly buffer Scalars { float scalars[]; };
layout(std430, binding = 4) buffer Light { uint light[]; };  // r, g, b a pixel, row by row
struct BigSprite {  // particles.vert's attributes, 48 bytes
    vec4 pos_mass;
    vec4 prev_pos;
    uint group;
    float scalar;
    uint pad0, pad1;
};
layout(std430, binding = 5) writeonly buffer Big { BigSprite big[]; };
// The indirect draw of the big sprites; `wanted` counts the slots asked for, sprite_resolve.comp sets `count`.
layout(std430, binding = 6) buffer BigDraw { uint count, instances, first, base_instance, wanted; };

uniform uint u_n;
uniform ivec2 u_viewport;      // pixels
uniform float u_splat_max_px;  // sprites up to this size are added here
uniform uint u_big_capacity;   // slots in Big
uniform float u_light_scale;   // fixed-point units per unit of light

void add_light(int x, int y, vec3 c) {
    uvec3 u = uvec3(c * u_light_scale + 0.5);
    uint at = 3u * (uint(y) * uint(u_viewport.x) + uint(x));
    if (u.r != 0u) atomicAdd(light[at], u.r);
    if (u.g != 0u) atomicAdd(light[at + 1u], u.g);
    if (u.b != 0u) atomicAdd(light[at + 2u], u.b);
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= u_n) return;
    vec4 p = pos_mass[i];
    Sprite s = sprite_of(p, prev_pos[i], groups[i], scalars[i]);
    // GL draws a point only when its centre is inside the clip volume.
    if (!s.drawn || s.clip.w <= 0.0 || any(greaterThan(abs(s.clip.xyz), vec3(s.clip.w)))) return;
    if (s.size > u_splat_max_px) {
        uint slot = atomicAdd(wanted, 1u);
        if (slot < u_big_capacity) {
            big[slot] = BigSprite(p, prev_pos[i], groups[i], scalars[i], 0u, 0u);
            return;
        }
    }
    vec2 centre = (s.clip.xy / s.clip.w * 0.5 + 0.5) * vec2(u_viewport);
    float radius = 0.5 * s.size;
    // Pixel (x, y) has its centre at (x + 0.5, y + 0.5); covered when it lies in [centre - r, centre + r).
    ivec2 lo = max(ivec2(ceil(centre - radius - 0.5)), ivec2(0));
    ivec2 hi = min(ivec2(ceil(centre + radius - 0.5)) - 1, u_viewport - 1);
    for (int y = lo.y; y <= hi.y; ++y) {
        for (int x = lo.x; x <= hi.x; ++x) {
            vec2 d = (vec2(x, y) + 0.5 - centre) / radius;
            float a = sprite_profile(dot(d, d));
            if (a > 0.0) add_light(x, y, s.light * a);
        }
    }
}
