#version 450 core
// Density colouring, pass 1: each body adds its mass (fixed point, so integer atomics sum it exactly and in
// any order) to the grid cell it lies in; bodies outside the grid's box add nothing. One atomic a body.
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer Bodies { vec4 pos_mass[]; };  // x, y, z, mass (scene units)
layout(std430, binding = 1) buffer Cells { uint cell_mass[]; };          // fixed-point mass a cell

uniform uint u_n;
uniform int u_grid;          // cells along an edge
uniform vec3 u_lo;           // the box's low corner (scene units)
uniform float u_inv_cell;    // cells per length unit
uniform float u_mass_scale;  // fixed-point units per mass unit

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= u_n) return;
    vec4 b = pos_mass[i];
    ivec3 c = ivec3(floor((b.xyz - u_lo) * u_inv_cell));
    if (any(lessThan(c, ivec3(0))) || any(greaterThanEqual(c, ivec3(u_grid)))) return;
    // At least one unit: a light body in a cell is never lost to rounding.
    uint m = max(uint(b.w * u_mass_scale + 0.5), 1u);
    atomicAdd(cell_mass[(c.z * u_grid + c.y) * u_grid + c.x], m);
}
