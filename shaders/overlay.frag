#version 450 core
// The measuring tools, alpha-blended over the tone-mapped image (display space, as the tone map wrote it).
in vec4 v_colour;
out vec4 frag;

void main() {
    frag = v_colour;
}
