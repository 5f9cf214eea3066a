#version 450 core
// Density colouring, pass 2, one invocation a cell: the cell's density (mass / length^3) into the 3D texture
// the sprites sample (trilinearly), and, when asked, its mass into a histogram of log10(density), from which
// the CPU chooses the colour ramp's range (quantiles by mass).
layout(local_size_x = 4, local_size_y = 4, local_size_z = 4) in;
layout(std430, binding = 1) readonly buffer Cells { uint cell_mass[]; };
layout(std430, binding = 2) buffer Histogram { uint bins[]; };
layout(r32f, binding = 0) uniform writeonly image3D u_density;

uniform int u_grid;
uniform float u_density_per_unit;  // density of one fixed-point unit in a cell: 1 / (mass scale * cell volume)
uniform vec2 u_log_span;           // log10 density at the histogram's first bin's low edge and last's high
uniform int u_bins;
uniform int u_histogram;           // 0: leave the histogram alone (a read-back of it is under way)

void main() {
    ivec3 c = ivec3(gl_GlobalInvocationID);
    if (any(greaterThanEqual(c, ivec3(u_grid)))) return;
    uint m = cell_mass[(c.z * u_grid + c.y) * u_grid + c.x];
    float rho = float(m) * u_density_per_unit;
    imageStore(u_density, c, vec4(rho));
    if (m == 0u || u_histogram == 0) return;
    float x = (log(rho) / log(10.0) - u_log_span.x) / (u_log_span.y - u_log_span.x) * float(u_bins);
    atomicAdd(bins[clamp(int(x), 0, u_bins - 1)], m);
}
