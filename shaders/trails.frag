#version 450 core
// Trail lines, added into the HDR target with the sprites.
in vec3 v_colour;
out vec4 frag;

void main() {
    frag = vec4(v_colour, 1.0);
}
