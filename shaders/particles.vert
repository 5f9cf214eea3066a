#version 450 core
// One point sprite per body (sprite_light.glsl decides its size and light). Draws every body, or, when the
// small sprites were added by sprite_splat.comp, the big ones it set aside.
#include "sprite_light.glsl"
layout(location = 0) in vec4 pos_mass;
layout(location = 1) in vec4 prev_pos;
layout(location = 2) in uint group;
layout(location = 3) in float scalar;

out vec3 v_colour;

void main() {
    Sprite s = sprite_of(pos_mass, prev_pos, group, scalar);
    if (!s.drawn) {  // hidden: outside the clip volume, so it costs no fragments
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
        gl_PointSize = 1.0;
        v_colour = vec3(0.0);
        return;
    }
    gl_Position = s.clip;
    gl_PointSize = s.size;
    v_colour = s.light;
}
