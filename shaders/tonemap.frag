#version 450 core
// HDR -> display: exponential exposure keeps bright cores from clipping hard, then sRGB gamma.
in vec2 v_uv;
out vec4 frag;
uniform sampler2D u_hdr;
uniform float u_exposure;
uniform vec3 u_background;  // linear RGB

void main() {
    vec3 hdr = texture(u_hdr, v_uv).rgb;
    vec3 mapped = vec3(1.0) - exp(-hdr * u_exposure);
    vec3 c = u_background + mapped * (vec3(1.0) - u_background);
    frag = vec4(pow(c, vec3(1.0 / 2.2)), 1.0);
}
