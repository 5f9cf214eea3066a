// WGSL twins of the desktop's direct-summation step kernels (cuda/direct/step_kernel.cuh and
// shaders/compute/nbody_step.comp): j-bodies pass through workgroup-memory tiles; the three variants differ only
// in how the loops are unrolled (generated here, since WGSL has no preprocessor):
//   none: one i-body an invocation, the j loop one body at a time;
//   i:    K i-bodies an invocation (the i loop unrolled), the j loop one body at a time;
//   ij:   K i-bodies and U j-bodies an inner iteration (both loops unrolled).
// At small N, Q invocations share one i-body's j range (each sums every Q-th body of a tile) and add their
// sums in workgroup memory at the end, so a few thousand bodies still fill a large GPU's units.
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
}

export const VARIANTS: readonly Variant[] = [
  { name: 'none', label: 'none (no unrolling)' },
  { name: 'i', label: 'i (i-loop unrolled)' },
  { name: 'ij', label: 'ij (i and j unrolled)' },
];

export function variantByName(name: string): Variant | undefined {
  return VARIANTS.find((v) => v.name === name);
}

export const FLOPS_PER_INTERACTION = 20;
// Added to eps^2 so a body's own term (r = 0) stays a finite 0 with eps = 0 (src/cpu/force_f32.hpp).
export const SELF_INTERACTION_FLOOR = 1e-20;

// The kernel's shape for one variant and N, chosen by the core (web/src/shape.ts: the desktop GL backend's
// rules): the shaders/compute/nbody_step.comp parameters of the same names.
export interface KernelShape {
  k: number; // i-bodies an invocation keeps in registers
  u: number; // j-bodies an inner iteration reads (1: rolled)
  block: number; // invocations a workgroup
  q: number; // invocations sharing one i-body's j range (slices), reduced in workgroup memory at the end
  tileLoads: number; // j-bodies each invocation loads into a tile: a slice reads block x tileLoads / q
  label: string; // "ij-unrolled k 4 u 4 block 256 q 8"
}

// Bodies a workgroup updates.
export function bodiesPerWorkgroup(shape: KernelShape): number {
  return (shape.block / shape.q) * shape.k;
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
const lines = (n: number, line: (i: number) => string): string => range(n).map(line).join('\n');

// The sum over one tile: slice `slice` reads entries slice, slice + Q, ... (lanes with the same slice read
// one address: a broadcast), u at a time where unrolled.
function innerLoop(s: KernelShape): string {
  if (s.u === 1) {
    return `    for (var jj = 0u; jj < PER_SLICE; jj++) {
      let b = tile[jj * Q + slice];
${lines(s.k, (k) => `      a${k} = interact(x${k}, b, a${k});`)}
    }`;
  }
  return `    for (var jj = 0u; jj < PER_SLICE; jj += ${s.u}u) {
${lines(s.u, (u) => `      let b${u} = tile[(jj + ${u}u) * Q + slice];`)}
${lines(s.u, (u) => lines(s.k, (k) => `      a${k} = interact(x${k}, b${u}, a${k});`))}
    }`;
}

// Each body's sum: one invocation's (q = 1), or the q slices' added through the tile in slice order (the same
// total whichever invocation adds them); slice k % q updates body k, spreading the writes.
function finish(s: KernelShape): string {
  const body = (k: number) => `first + ${k}u * LANES`;
  if (s.q === 1) return lines(s.k, (k) => `  if (${body(k)} < P.n) { update(${body(k)}, a${k}); }`);
  return lines(s.k, (k) => `  tile[t] = vec4f(a${k}, 0.0);
  workgroupBarrier();
  if (slice == ${k % s.q}u && ${body(k)} < P.n) {
    var sum = vec3f(0.0);
    for (var s = 0u; s < Q; s++) { sum += tile[lane * Q + s].xyz; }
    update(${body(k)}, sum);
  }
  workgroupBarrier();`);
}

export function stepKernelSource(v: Variant, s: KernelShape): string {
  if (s.block % s.q !== 0 || ((s.block * s.tileLoads) / s.q) % s.u !== 0) throw new Error(`kernel shape ${s.label}: q must divide the block and u a slice's share of the tile`);
  return `// nbody-sandbox web: fused leap-frog step, variant ${v.name} (${s.label}, ${s.tileLoads} tile loads)
struct Params {
  n: u32, prime: u32, soft2: f32, G: f32,
  half_dt: f32, dt: f32, pad0: f32, pad1: f32,
}
@group(0) @binding(0) var<storage, read> pos_in: array<vec4f>;
@group(0) @binding(1) var<storage, read_write> pos_out: array<vec4f>;
@group(0) @binding(2) var<storage, read_write> vel: array<vec4f>;
@group(0) @binding(3) var<storage, read_write> acc: array<vec4f>;
@group(0) @binding(4) var<uniform> P: Params;

const WG = ${s.block}u;
const Q = ${s.q}u;
const LANES = WG / Q;  // i-lanes a workgroup; it updates LANES x ${s.k} bodies
const TILE = ${s.block * s.tileLoads}u;
const PER_SLICE = TILE / Q;  // a whole number of u-groups (checked when the source is written)

var<workgroup> tile: array<vec4f, TILE>;

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

@compute @workgroup_size(WG)
fn step(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) group: vec3u) {
  let lane = t / Q;
  let slice = t % Q;
  let first = group.x * ${(s.block / s.q) * s.k}u + lane;  // neighbouring lanes take neighbouring bodies
${lines(s.k, (k) => `  let x${k} = pos_in[min(first + ${k}u * LANES, P.n - 1u)].xyz;\n  var a${k} = vec3f(0.0);`)}
  // The next tile's bodies are read into registers while this one is summed (the loads' latency hides behind
  // a tile of arithmetic; zero-mass bodies pad the last tile).
${lines(s.tileLoads, (l) => `  var next${l} = load_j(${l}u * WG + t);`)}
  for (var base = 0u; base < P.n; base += TILE) {
${lines(s.tileLoads, (l) => `    tile[${l}u * WG + t] = next${l};`)}
    workgroupBarrier();
${lines(s.tileLoads, (l) => `    next${l} = load_j(base + TILE + ${l}u * WG + t);`)}
${innerLoop(s)}
    workgroupBarrier();
  }
${finish(s)}
}
`;
}
