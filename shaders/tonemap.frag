#version 450 core
// HDR -> display. A glow from coarse mip levels of the light makes dense cores bloom; each level is read
// with a 3x3 tent of bilinear taps one texel of that level apart, so the coarse levels' blocks do not show
// as squares. Exponential exposure keeps bright cores from clipping hard; then sRGB gamma.
in vec2 v_uv;
out vec4 frag;
uniform sampler2D u_hdr;
uniform float u_exposure;
uniform float u_glow;       // 0: none
uniform vec3 u_background;  // linear RGB

vec3 tent(float lod) {
    vec2 texel = 1.0 / vec2(textureSize(u_hdr, int(lod)));
    vec3 sum = vec3(0.0);
    for (int y = -1; y <= 1; ++y)
        for (int x = -1; x <= 1; ++x) {
            float w = float((2 - abs(x)) * (2 - abs(y)));  // 1 2 1 / 2 4 2 / 1 2 1
            sum += w * textureLod(u_hdr, v_uv + vec2(x, y) * texel, lod).rgb;
        }
    return sum / 16.0;
}

void main() {
    vec3 hdr = textureLod(u_hdr, v_uv, 0.0).rgb;
    if (u_glow > 0.0) hdr += u_glow * (0.5 * tent(1.0) + 0.3 * tent(2.0) + 0.2 * tent(3.0));
    vec3 mapped = vec3(1.0) - exp(-hdr * u_exposure);
    vec3 c = u_background + mapped * (vec3(1.0) - u_background);
    frag = vec4(pow(c, vec3(1.0 / 2.2)), 1.0);
}
