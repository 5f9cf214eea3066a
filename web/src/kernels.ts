// WGSL twins of the desktop's direct-summation step kernels (cuda/direct/step_kernel.cuh and
// shaders/compute/nbody_step.comp): j-bodies pass through workgroup-memory tiles; the three variants differ only
// in how the loops are unrolled (generated here, since WGSL has no preprocessor):
//   none: one i-body an invocation, the j loop one body at a time;
//   i:    K i-bodies an invocation (the i loop unrolled), the j loop one body at a time;
//   ij:   K i-bodies and U j-bodies an inner iteration (both loops unrolled).
// One interaction: 3 sub (d), 3 fma (r2), inverseSqrt, 3 mul (m / r^3), 3 fma (a): 20 flops by NVIDIA's
// convention, as the CUDA and GLSL kernels count it.
//
// The step is leap-frog kick-drift-kick fused into one dispatch, as the GLSL kernel does it. Between steps:
// vel = v_n, acc = a_n, pos_in = x_{n+1} = x_n + (v_n + a_n h) dt (h = dt / 2). A step evaluates a_{n+1} at
// pos_in, writes v_{n+1} = (v_n + a_n h) + a_{n+1} h, acc = a_{n+1} and pos_out = x_{n+2}. With prime set it
// evaluates a_n at pos_in = x_n, keeps vel and writes pos_out = x_{n+1}. The renderer draws pos_in of the last
// step straight from its storage buffer (the buffers are ping-ponged, never copied).

export type VariantName = 'none' | 'i' | 'ij';

export interface Variant {
  name: VariantName;
  label: string;
  k: number; // i-bodies an invocation
  u: number; // j-bodies an inner iteration (1: rolled)
}

export const VARIANTS: readonly Variant[] = [
  { name: 'none', label: 'none (no unrolling)', k: 1, u: 1 },
  { name: 'i', label: 'i (i-loop unrolled)', k: 4, u: 1 },
  { name: 'ij', label: 'ij (i and j unrolled)', k: 4, u: 4 },
];

export function variantByName(name: string): Variant | undefined {
  return VARIANTS.find((v) => v.name === name);
}

export const FLOPS_PER_INTERACTION = 20;
// Added to eps^2 so a body's own term (r = 0) stays a finite 0 with eps = 0 (src/cpu/force_f32.hpp).
export const SELF_INTERACTION_FLOOR = 1e-20;

export interface KernelShape {
  workgroup: number; // invocations a workgroup; the tile holds that many j-bodies
}

// The workgroup from the adapter's limits: 128 where allowed (a tile of 2 KiB), else the largest it allows.
export function chooseShape(limits: GPUSupportedLimits): KernelShape {
  const byInvocations = Math.min(limits.maxComputeInvocationsPerWorkgroup, limits.maxComputeWorkgroupSizeX);
  const byStorage = Math.floor(limits.maxComputeWorkgroupStorageSize / 16);
  let wg = 128;
  while (wg > 1 && (wg > byInvocations || wg > byStorage)) wg /= 2;
  return { workgroup: wg };
}

// Bodies a workgroup updates.
export function bodiesPerWorkgroup(v: Variant, shape: KernelShape): number {
  return v.k * shape.workgroup;
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

function innerLoop(v: Variant, wg: number): string {
  const ks = range(v.k);
  if (v.u === 1) {
    return `    for (var jj = 0u; jj < ${wg}u; jj++) {
      let b = tile[jj];
${ks.map((k) => `      a${k} = interact(x${k}, b, a${k});`).join('\n')}
    }`;
  }
  const us = range(v.u);
  return `    for (var jj = 0u; jj < ${wg}u; jj += ${v.u}u) {
${us.map((u) => `      let b${u} = tile[jj + ${u}u];`).join('\n')}
${us.map((u) => ks.map((k) => `      a${k} = interact(x${k}, b${u}, a${k});`).join('\n')).join('\n')}
    }`;
}

export function stepKernelSource(v: Variant, shape: KernelShape): string {
  const wg = shape.workgroup;
  const ks = range(v.k);
  return `// nbody-sandbox web: fused leap-frog step, variant ${v.name} (K = ${v.k}, U = ${v.u}, workgroup ${wg})
struct Params {
  n: u32, prime: u32, soft2: f32, G: f32,
  half_dt: f32, dt: f32, pad0: f32, pad1: f32,
}
@group(0) @binding(0) var<storage, read> pos_in: array<vec4f>;
@group(0) @binding(1) var<storage, read_write> pos_out: array<vec4f>;
@group(0) @binding(2) var<storage, read_write> vel: array<vec4f>;
@group(0) @binding(3) var<storage, read_write> acc: array<vec4f>;
@group(0) @binding(4) var<uniform> P: Params;

var<workgroup> tile: array<vec4f, ${wg}>;

fn interact(xi: vec3f, bj: vec4f, a: vec3f) -> vec3f {
  let d = bj.xyz - xi;
  let r2 = fma(d.z, d.z, fma(d.y, d.y, fma(d.x, d.x, P.soft2)));
  let inv_r = inverseSqrt(r2);
  let s = bj.w * inv_r * inv_r * inv_r;  // zero-mass padding adds exactly nothing
  return fma(d, vec3f(s), a);
}

fn update(i: u32, sum: vec3f) {
  let a_new = P.G * sum;
  var v = vel[i];
  if (P.prime == 0u) {
    v = vec4f((v.xyz + acc[i].xyz * P.half_dt) + a_new * P.half_dt, v.w);
    vel[i] = v;
  }
  acc[i] = vec4f(a_new, 0.0);
  let p = pos_in[i];
  pos_out[i] = vec4f(p.xyz + (v.xyz + a_new * P.half_dt) * P.dt, p.w);
}

fn load_j(j: u32) -> vec4f {
  if (j < P.n) { return pos_in[j]; }
  return vec4f(0.0);
}

@compute @workgroup_size(${wg})
fn step(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) group: vec3u) {
  let first = group.x * ${wg * v.k}u + t;  // neighbouring invocations take neighbouring bodies
${ks.map((k) => `  let x${k} = pos_in[min(first + ${k * wg}u, P.n - 1u)].xyz;\n  var a${k} = vec3f(0.0);`).join('\n')}
  for (var base = 0u; base < P.n; base += ${wg}u) {
    tile[t] = load_j(base + t);
    workgroupBarrier();
${innerLoop(v, wg)}
    workgroupBarrier();
  }
${ks.map((k) => `  if (first + ${k * wg}u < P.n) { update(first + ${k * wg}u, a${k}); }`).join('\n')}
}
`;
}
