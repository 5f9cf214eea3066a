#version 450 core
// The measuring tools' triangles, already in window pixels (origin top left, y down): to clip space.
layout(location = 0) in vec2 a_px;
layout(location = 1) in vec4 a_colour;

uniform vec2 u_size;  // the picture's width and height in pixels

out vec4 v_colour;

void main() {
    gl_Position = vec4(a_px.x / u_size.x * 2.0 - 1.0, 1.0 - a_px.y / u_size.y * 2.0, 0.0, 1.0);
    v_colour = a_colour;
}
