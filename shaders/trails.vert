#version 450 core
// Trails: one line strip per body (gl_InstanceID), one vertex per past sample (gl_VertexID = age, 0 the
// newest). The samples live in a ring of u_length slots of u_n positions each (slot-major); the newest is in
// slot u_head, and age a in slot (u_head - a) mod u_length, so the ring is never re-ordered.
layout(std430, binding = 0) readonly buffer Ring { vec4 ring[]; };
layout(std430, binding = 1) readonly buffer Groups { uint groups[]; };

uniform mat4 u_view;
uniform mat4 u_proj;
uniform int u_n;                 // bodies
uniform int u_length;            // ring slots
uniform int u_head;              // slot of the newest sample
uniform int u_count;             // samples held: ages 0 .. u_count - 1
uniform float u_intensity;       // HDR radiance of the newest point of a trail
uniform int u_mode;              // 0 group, 1 speed, 2 depth (as the sprites)
uniform float u_inv_speed_span;  // 1 / (speed_max * sim time between samples): sample spacing -> [0, 1]
uniform vec2 u_depth_range;
uniform vec3 u_group_colours[8];
uniform float u_group_light[8];  // per group, as the sprites': 1, dimmed (dark matter) or 0 (hidden)
uniform sampler1D u_colormap;

out vec3 v_colour;

vec4 sample_at(int age) {
    int slot = ((u_head - age) % u_length + u_length) % u_length;
    return ring[slot * u_n + gl_InstanceID];
}

void main() {
    int age = gl_VertexID;
    vec4 p = sample_at(age);
    vec4 view_pos = u_view * vec4(p.xyz, 1.0);
    gl_Position = u_proj * view_pos;
    // A hidden component leaves no trail and dimmed dark matter a dimmed one, whatever the colour says.
    float group_light = u_group_light[groups[gl_InstanceID] % 8u];
    vec3 c;
    if (u_mode == 0) {
        c = u_group_colours[groups[gl_InstanceID] % 8u];
    } else if (u_mode == 1) {
        vec4 older = sample_at(min(age + 1, u_count - 1));
        vec4 newer = sample_at(max(age - 1, 0));
        float steps = float(min(age + 1, u_count - 1) - max(age - 1, 0));
        float t = steps > 0.0 ? length(newer.xyz - older.xyz) / steps * u_inv_speed_span : 0.0;
        c = texture(u_colormap, clamp(t, 0.0, 1.0)).rgb;
    } else {
        float t = (-view_pos.z - u_depth_range.x) / max(u_depth_range.y - u_depth_range.x, 1e-6);
        c = texture(u_colormap, 1.0 - clamp(t, 0.0, 1.0)).rgb;
    }
    // Fades with age: full at the newest sample, nothing at the oldest slot of the ring.
    float fade = 1.0 - float(age) / float(max(u_length, 1));
    v_colour = c * u_intensity * fade * fade * group_light;
}
