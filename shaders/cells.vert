#version 450 core
// Tree cells as wire boxes: one instance a cell (centre and half side in scene units, depth), 24 vertices an
// instance, the two ends of each of the box's 12 edges. Corner c (0..7) sits at centre + half * (x, y, z) with
// x = bit 2, y = bit 1, z = bit 0 of c mapped to -1 / +1; an edge joins two corners that differ in one bit.
layout(location = 0) in vec4 centre_half;
layout(location = 1) in int depth;

uniform mat4 u_view;
uniform mat4 u_proj;
uniform vec3 u_colours[9];  // display-space colour per depth (cell_renderer.cpp's cell_colour)
uniform float u_opacity;
uniform int u_max_depth;    // cells deeper than this are not drawn (the upload may hold more)

out vec4 v_colour;

const int kEdgeEnds[24] = int[24](0, 4, 1, 5, 2, 6, 3, 7,   // along x
                                  0, 2, 1, 3, 4, 6, 5, 7,   // along y
                                  0, 1, 2, 3, 4, 5, 6, 7);  // along z

void main() {
    int c = kEdgeEnds[gl_VertexID];
    vec3 corner = vec3(float((c >> 2) & 1), float((c >> 1) & 1), float(c & 1)) * 2.0 - 1.0;
    vec3 p = centre_half.xyz + centre_half.w * corner;
    gl_Position = u_proj * u_view * vec4(p, 1.0);
    // A cell past the depth asked for: both ends outside the clip volume, so its lines are clipped away.
    if (depth > u_max_depth) gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    v_colour = vec4(u_colours[clamp(depth, 0, 8)], u_opacity);
}
