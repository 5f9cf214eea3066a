#version 450 core
// HDR -> display. A glow from coarse mip levels of the light (4 to 64 pixels across) makes dense cores
// bloom; exponential exposure keeps them from clipping hard; then sRGB gamma.
in vec2 v_uv;
out vec4 frag;
uniform sampler2D u_hdr;
uniform float u_exposure;
uniform float u_glow;       // 0: none
uniform vec3 u_background;  // linear RGB

void main() {
    vec3 hdr = textureLod(u_hdr, v_uv, 0.0).rgb;
    if (u_glow > 0.0) {
        vec3 halo = 0.4 * textureLod(u_hdr, v_uv, 2.0).rgb + 0.3 * textureLod(u_hdr, v_uv, 3.5).rgb +
                    0.2 * textureLod(u_hdr, v_uv, 5.0).rgb + 0.1 * textureLod(u_hdr, v_uv, 6.0).rgb;
        hdr += u_glow * halo;
    }
    vec3 mapped = vec3(1.0) - exp(-hdr * u_exposure);
    vec3 c = u_background + mapped * (vec3(1.0) - u_background);
    frag = vec4(pow(c, vec3(1.0 / 2.2)), 1.0);
}
