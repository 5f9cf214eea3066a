#version 450 core
// The small sprites without the rasterizer: each body's sprite (up to u_splat_max_px across) is added into a
// fixed-point light buffer, three integer atomics a covered pixel, so the sum is exact and the same in any
// order. Why: on GPUs whose graphics pipeline is a small part of the chip (H100 and H200 run vertex and
// pixel work on 2 of their TPCs), millions of point sprites are bound by it, while a compute pass runs on
// every SM. Bigger sprites are copied into a vertex buffer that particles.vert draws as points (their
// fragments added into the same buffer by sprite_add.frag), up to its capacity; past it they are added here
// too. The pixels covered and the profile are those of GL's point rasterization: every pixel whose centre
// lies in the square of the sprite's size around it, weighted by sprite_profile of its distance from the
// centre (gl_PointCoord's).
#define SPRITE_LIGHT_BUFFER
#include "sprite_light.glsl"
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer Positions { vec4 pos_mass[]; };
layout(std430, binding = 1) readonly buffer Previous { vec4 prev_pos[]; };
layout(std430, binding = 2) readonly buffer Groups { uint groups[]; };
layout(std430, binding = 3) readonly buffer Scalars { float scalars[]; };
struct BigSprite {  // particles.vert's attributes, 48 bytes
    vec4 pos_mass;
    vec4 prev_pos;
    uint group;
    float scalar;
    uint pad0, pad1;
};
layout(std430, binding = 5) writeonly buffer Big { BigSprite big[]; };
// The indirect draw of the big sprites: `wanted` counts the slots asked for, `count` the slots filled.
layout(std430, binding = 6) buffer BigDraw { uint count, instances, first, base_instance, wanted; };

uniform uint u_n;
uniform float u_splat_max_px;  // sprites up to this size are added here
uniform uint u_big_capacity;   // slots in Big

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
            atomicMax(count, slot + 1u);  // slots 0..slot are all taken
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
            if (a > 0.0) add_light(ivec2(x, y), s.light * a);
        }
    }
}
