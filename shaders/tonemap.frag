#version 450 core
// HDR -> display. A glow from coarse mip levels (2 to 8 pixels across) of the light makes dense cores
// bloom; each level is read through a 3x3 tent (four bilinear taps) so its blocks do not show as squares.
// The curve (Lupton et al. 2004's asinh stretch): t = asinh(I / knee) / asinh(white / knee) on the
// brightest channel I, the colour scaled by t / I so its hue survives. Below the knee (a tenth of one
// sprite's light) it is linear; above, logarithmic: one to 10^5 overlapping bodies share the display range,
// so a core keeps its gradient and a lone body in a tail still shows. white: the frame's brightest light
// (measured by exposure.frag), or 1 / exposure by hand. Past t = 0.85 a shoulder eases towards 1 without
// reaching it (8-bit white needs t > 1.5: light 100x the measured brightest at 2M bodies), and the
// brightest part whitens a little, as a photograph's core does. About 30 flops a pixel.
in vec2 v_uv;
out vec4 frag;
uniform sampler2D u_hdr;
uniform sampler2D u_measured;    // 1 x 1: (log2 of the brightest light, lit share, -, -)
uniform bool u_auto;
uniform float u_knee;            // light where the curve turns from linear to logarithmic
uniform float u_white_scale;     // auto: white = scale * measured brightest; manual: white itself
uniform float u_min_white;       // auto: white is at least this (a sparse frame's lone bodies are not white)
uniform float u_glow;            // 0: none
uniform vec3 u_background;       // display RGB (0..1, gamma-encoded) of empty sky

vec3 tent(float lod) {
    // Four bilinear taps half a texel off centre weigh the 3x3 neighbourhood 1 2 1 / 2 4 2 / 1 2 1.
    vec2 h = 0.5 / vec2(textureSize(u_hdr, int(lod)));
    return 0.25 * (textureLod(u_hdr, v_uv + vec2(-h.x, -h.y), lod).rgb +
                   textureLod(u_hdr, v_uv + vec2(h.x, -h.y), lod).rgb +
                   textureLod(u_hdr, v_uv + vec2(-h.x, h.y), lod).rgb +
                   textureLod(u_hdr, v_uv + vec2(h.x, h.y), lod).rgb);
}

float white_light() {
    if (!u_auto) return u_white_scale;
    vec4 m = texelFetch(u_measured, ivec2(0, 0), 0);
    return m.g > 0.0 ? max(u_white_scale * exp2(m.r), u_min_white) : u_min_white;
}

float shoulder(float t) {
    return t < 0.85 ? t : 0.85 + 0.15 * (1.0 - exp(-(t - 0.85) / 0.15));
}

void main() {
    vec3 hdr = textureLod(u_hdr, v_uv, 0.0).rgb;
    if (u_glow > 0.0) hdr += u_glow * (0.5 * tent(1.0) + 0.3 * tent(2.0) + 0.2 * tent(3.0));
    hdr = max(hdr, vec3(0.0));
    float i = max(hdr.r, max(hdr.g, hdr.b));
    vec3 c = u_background;
    if (i > 0.0) {
        float t = shoulder(asinh(i / u_knee) / asinh(white_light() / u_knee));
        vec3 hue = pow(hdr / i, vec3(1.0 / 2.2));  // the colour as a display shows it (sRGB-like gamma)
        vec3 mapped = t * mix(hue, vec3(1.0), 0.6 * smoothstep(0.75, 1.0, t));
        c = u_background + mapped * (vec3(1.0) - u_background);
    }
    frag = vec4(c, 1.0);
}
