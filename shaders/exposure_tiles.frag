#version 450 core
// Automatic exposure, first of two passes (no read-back to the CPU): each fragment of a small target walks
// one tile of u_tile x u_tile texels of a coarse mip level of the HDR light (at 1280 x 720: level 3, each
// texel the mean of 8 x 8 pixels) and writes the brightest texel's log2 light and how many texels are lit.
// Loops and texel reads only, so the WGSL version is a line-by-line copy.
out vec4 frag;
uniform sampler2D u_hdr;
uniform int u_level;
uniform int u_tile;
uniform float u_lit_floor;  // light below this is empty sky

void main() {
    ivec2 size = textureSize(u_hdr, u_level);
    ivec2 first = ivec2(gl_FragCoord.xy) * u_tile;
    float max_log = -126.0;
    float lit = 0.0;
    for (int y = first.y; y < min(first.y + u_tile, size.y); ++y) {
        for (int x = first.x; x < min(first.x + u_tile, size.x); ++x) {
            vec3 c = texelFetch(u_hdr, ivec2(x, y), u_level).rgb;
            float light = max(c.r, max(c.g, c.b));
            if (light > u_lit_floor) {
                max_log = max(max_log, log2(light));
                lit += 1.0;
            }
        }
    }
    frag = vec4(max_log, lit, 0.0, 1.0);
}
