#version 450 core
// HDR -> display. A glow from coarse mip levels (2 to 8 pixels across) of the light makes dense cores
// bloom; each level is read through a 3x3 tent (four bilinear taps) so its blocks do not show as squares.
// Exponential exposure keeps bright cores from clipping hard; then sRGB gamma.
in vec2 v_uv;
out vec4 frag;
uniform sampler2D u_hdr;
uniform float u_exposure;
uniform float u_glow;       // 0: none
uniform vec3 u_background;  // linear RGB

vec3 tent(float lod) {
    // Four bilinear taps half a texel off centre weigh the 3x3 neighbourhood 1 2 1 / 2 4 2 / 1 2 1.
    vec2 h = 0.5 / vec2(textureSize(u_hdr, int(lod)));
    return 0.25 * (textureLod(u_hdr, v_uv + vec2(-h.x, -h.y), lod).rgb +
                   textureLod(u_hdr, v_uv + vec2(h.x, -h.y), lod).rgb +
                   textureLod(u_hdr, v_uv + vec2(-h.x, h.y), lod).rgb +
                   textureLod(u_hdr, v_uv + vec2(h.x, h.y), lod).rgb);
}

void main() {
    vec3 hdr = textureLod(u_hdr, v_uv, 0.0).rgb;
    if (u_glow > 0.0) hdr += u_glow * (0.5 * tent(1.0) + 0.3 * tent(2.0) + 0.2 * tent(3.0));
    vec3 mapped = vec3(1.0) - exp(-hdr * u_exposure);
    vec3 c = u_background + mapped * (vec3(1.0) - u_background);
    frag = vec4(pow(c, vec3(1.0 / 2.2)), 1.0);
}
