// What a body looks like on screen: where its sprite is, how big, and how much light of which colour it adds.
// Included by particles.vert (the rasterized sprites) and sprite_splat.comp (small sprites added by atomics),
// so both ways of drawing a body give it the same size and light.
// pos_mass: x, y, z, mass (scene units). prev_pos: the same body one update earlier, so speed colouring needs
// no velocity upload. group: the scene component the body came from. scalar: the body's potential
// ((length/time)^2), refreshed now and then on the CPU.
uniform mat4 u_view;
uniform mat4 u_proj;
uniform float u_point_size;      // pixels, for a body at the camera's target distance
uniform float u_target_distance; // scene units
uniform float u_intensity;       // HDR radiance of one body at the sprite centre
uniform int u_mode;              // 0 group, 1 speed, 2 depth, 3 density, 4 potential
uniform float u_min_size;        // pixels: the smallest sprite (few-body scenes), drawn at full light
uniform float u_inv_speed_span;  // 1 / (speed_max * sim time between updates): displacement -> [0, 1]
uniform vec2 u_depth_range;      // view distance mapped to 0 (near) .. 1 (far)
uniform vec3 u_group_colours[8];
uniform float u_group_light[8];  // per group: 1, dimmed (dark matter), or 0 (hidden)
uniform sampler1D u_colormap;
uniform sampler3D u_density;       // mass / length^3 on a grid over a box around the camera target
uniform vec3 u_grid_lo;            // the box's low corner (scene units)
uniform float u_grid_inv_size;     // 1 / its edge
uniform vec2 u_log_density_range;  // log10 density at the ramp's bottom and top
uniform vec2 u_scalar_range;       // potential: the deepest (top of the ramp) and the shallowest (bottom)

struct Sprite {
    bool drawn;    // false: its group is hidden
    vec4 clip;     // clip-space position of its centre
    float size;    // pixels across, 1..64
    vec3 light;    // HDR radiance at its centre
};

Sprite sprite_of(vec4 pos_mass, vec4 prev_pos, uint group, float scalar) {
    Sprite s;
    float group_light = u_group_light[group % 8u];
    s.drawn = group_light > 0.0;
    vec4 view_pos = u_view * vec4(pos_mass.xyz, 1.0);
    s.clip = u_proj * view_pos;
    float depth = -view_pos.z;
    // Perspective-correct size, clamped so far bodies stay visible and near ones do not cover the screen.
    float raw_size = u_point_size * u_target_distance / max(depth, 1e-6);
    s.size = clamp(max(raw_size, u_min_size), 1.0, 64.0);
    vec3 c;
    if (u_mode == 0) {
        c = u_group_colours[group % 8u];
    } else if (u_mode == 1) {
        float t = length(pos_mass.xyz - prev_pos.xyz) * u_inv_speed_span;
        c = textureLod(u_colormap, clamp(t, 0.0, 1.0), 0.0).rgb;
    } else if (u_mode == 3) {
        float rho = textureLod(u_density, (pos_mass.xyz - u_grid_lo) * u_grid_inv_size, 0.0).r;
        float t = (log2(max(rho, 1e-30)) * 0.30103 - u_log_density_range.x) /
                  max(u_log_density_range.y - u_log_density_range.x, 1e-6);
        c = textureLod(u_colormap, clamp(t, 0.0, 1.0), 0.0).rgb;
    } else if (u_mode == 4) {
        float t = (u_scalar_range.y - scalar) / (u_scalar_range.y - u_scalar_range.x);  // deep is bright
        c = textureLod(u_colormap, clamp(t, 0.0, 1.0), 0.0).rgb;
    } else {
        float t = (depth - u_depth_range.x) / max(u_depth_range.y - u_depth_range.x, 1e-6);
        c = textureLod(u_colormap, 1.0 - clamp(t, 0.0, 1.0), 0.0).rgb;  // near is bright
    }
    // Sprites clamped up to 1 px (far away) keep the light of their true area, not the peak of a bigger one.
    // A few-body scene's floor (u_min_size > 1) draws every sprite at its full light.
    float shrink = u_min_size > 1.0 ? 1.0 : min(raw_size * raw_size, 1.0);
    s.light = c * u_intensity * shrink * group_light;
    return s;
}

// The sprite's profile at a point r2 = (distance from its centre / its radius)^2: a soft Gaussian
// (sigma = 0.35 of the radius, 2% left at the edge), nothing outside the disc.
float sprite_profile(float r2) {
    return r2 > 1.0 ? 0.0 : exp(-r2 * 4.0);
}

#ifdef SPRITE_LIGHT_BUFFER
// The fixed-point light buffer that sprite_splat.comp and sprite_add.frag add into and sprite_resolve.comp
// writes into the HDR image: r, g, b a pixel, rows from the bottom. Integer sums are exact and the same in any
// order.
layout(std430, binding = 4) buffer Light { uint light[]; };
uniform ivec2 u_viewport;     // pixels
uniform float u_light_scale;  // fixed-point units per unit of light

void add_light(ivec2 p, vec3 c) {
    uvec3 u = uvec3(c * u_light_scale + 0.5);
    uint at = 3u * (uint(p.y) * uint(u_viewport.x) + uint(p.x));
    if (u.r != 0u) atomicAdd(light[at], u.r);
    if (u.g != 0u) atomicAdd(light[at + 1u], u.g);
    if (u.b != 0u) atomicAdd(light[at + 2u], u.b);
}
#endif
