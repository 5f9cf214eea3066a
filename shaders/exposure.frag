#version 450 core
// Automatic exposure, second pass: one fragment combines exposure_tiles.frag's tiles into the frame's
// brightest light (log2) and its lit share, and eases the stored value towards them (u_adapt of the way a
// frame) so a core moving into view does not make the picture flicker. Ping-pong: reads the last frame's
// 1 x 1 value, writes this frame's into the other. A store that never saw a lit frame takes it at once; an
// empty frame changes nothing.
out vec4 frag;
uniform sampler2D u_tiles;
uniform sampler2D u_previous;  // 1 x 1: (log2 brightest, lit share, -, -) of the frames so far
uniform float u_texels;        // texels of the measured mip level, for the lit share
uniform float u_adapt;         // 0..1; 1: forget the previous value

void main() {
    ivec2 size = textureSize(u_tiles, 0);
    float max_log = -126.0;
    float lit = 0.0;
    for (int y = 0; y < size.y; ++y) {
        for (int x = 0; x < size.x; ++x) {
            vec4 t = texelFetch(u_tiles, ivec2(x, y), 0);
            max_log = max(max_log, t.r);
            lit += t.g;
        }
    }
    vec4 previous = texelFetch(u_previous, ivec2(0, 0), 0);
    vec4 now = vec4(max_log, lit / u_texels, 0.0, 1.0);
    float a = previous.g <= 0.0 ? 1.0 : lit > 0.0 ? u_adapt : 0.0;
    frag = mix(previous, now, a);
}
