// The WGSL tree walk: the desktop's group walk (src/cpu/tree/tree_walk.cpp, cuda/tree/tree_walk.cu) over the
// tree the desktop's own build made in WebAssembly (web/core/tree_web.cpp), with the leap-frog step of the
// direct kernel (web/src/kernels.ts) fused at its end.
//
// One workgroup of GROUP_LANES invocations a group (at most that many consecutive bodies in key order sharing
// one interaction list), one body a lane. The opening test reads only the group's box and its smallest last
// acceleration, so every lane makes the same decisions: each walks the tree itself, depth first with an
// explicit stack of sibling ranges (one a level: at most 21, tree_defs.hpp's kMaxLevel), in lockstep with the
// others, and adds its own body's interactions as it goes. No workgroup memory and no barrier inside the walk;
// the one barrier keeps the group's last accelerations (the criterion's input) read before any lane writes
// its new one. The decisions are the desktop's (tree/interactions.hpp's accept_cell: the guard r_open2 from
// theta, the acceleration criterion r_acc2 against d^2 |a_min|^(2/5), the far radius r_far2; never a cell
// holding a body of the group); the sums run in another order (depth first, not the CPU's breadth first), so
// the accelerations agree to float32 rounding, not bit for bit.
//
// Interactions, as the desktop counts them: body-body 20 flops (3 sub, 3 fma r^2, inverseSqrt, 3 mul m/r^3,
// 3 fma), body-cell (monopole + quadrupole + the softened trace term) 54 flops = 2.7 body-body.
//
// Modes (Params.mode): 0 writes the accelerations only (the force test, and the first walk of a fresh start
// under theta alone, which finds the last accelerations the criterion reads, as the desktop's evaluate does);
// 1 primes (a_n at x_n, x_{n+1} written, v kept); 2 steps (v_{n+1} = v_n + (a_n + a_{n+1}) dt / 2 and
// x_{n+2} written): the direct kernel's update, so the state between steps is the same as on that path.

// Bodies a group holds at most: the desktop's default group (TreeParams.group), one lane each.
export const GROUP_LANES = 32;
// Workgroups a dispatch dimension takes at most (WebGPU's default maxComputeWorkgroupsPerDimension); more
// groups go on in y.
export const MAX_GROUPS_X = 65535;

export const TREE_WALK_SOURCE = `// nbody-sandbox web: tree walk and fused leap-frog step
struct Params {
  n: u32, mode: u32, soft2: f32, G: f32,
  half_dt: f32, dt: f32, use_last: u32, groups: u32,
  groups_x: u32, pad0: u32, pad1: u32, pad2: u32,
}
@group(0) @binding(0) var<storage, read_write> pos_out: array<vec4f>;   // input order
@group(0) @binding(1) var<storage, read_write> vel: array<vec4f>;       // input order
@group(0) @binding(2) var<storage, read_write> acc: array<vec4f>;       // input order
@group(0) @binding(3) var<uniform> P: Params;
@group(0) @binding(4) var<storage, read> cells: array<vec4u>;           // first body, count, first child, children
@group(0) @binding(5) var<storage, read> mom: array<vec4f>;             // 4 rows a cell: tree::CellMoments
@group(0) @binding(6) var<storage, read> sorted: array<vec4f>;          // x, y, z, m in key order
@group(0) @binding(7) var<storage, read> order: array<u32>;             // key order -> input order
@group(0) @binding(8) var<storage, read_write> groups: array<vec4u>;    // first body, count; lists written back

const LANES = ${GROUP_LANES}u;
const LEVELS = 24u;  // stack entries: one a level below the root, 21 at most

// Barnes's guard and the acceleration criterion (tree/interactions.hpp's accept_cell; 15 flops for the box
// distance). r_open2 and r_far2 of a leaf of one or two bodies are the largest float (never accepted).
fn accept(lo: vec3f, hi: vec3f, gb: u32, ge: u32, c: vec4u, ci: u32, factor: f32) -> bool {
  if (c.x < ge && gb < c.x + c.y) { return false; }
  let r0 = mom[4u * ci];
  let r3 = mom[4u * ci + 3u];
  let d = max(max(lo - r0.xyz, r0.xyz - hi), vec3f(0.0));
  let d2 = d.x * d.x + d.y * d.y + d.z * d.z;
  return d2 > r0.w && (d2 * factor > r3.x || d2 > r3.y);
}

// Body-body: m d / (|d|^2 + soft2)^(3/2), d = x_j - x_i: 20 flops.
fn body_body(xi: vec3f, bj: vec4f, a: vec3f) -> vec3f {
  let d = bj.xyz - xi;
  let r2 = fma(d.z, d.z, fma(d.y, d.y, fma(d.x, d.x, P.soft2)));
  let inv_r = inverseSqrt(r2);
  return fma(d, vec3f(bj.w * inv_r * inv_r * inv_r), a);
}

// Body-cell: a = M d / r^3 - Q d / r^5 + (5/2) (d.Q.d - soft2 tr) d / r^7, d = com - x_i, r^2 = |d|^2 + soft2
// (tree/interactions.hpp's add_body_cell): 54 flops.
fn body_cell(xi: vec3f, ci: u32, a: vec3f) -> vec3f {
  let r0 = mom[4u * ci];
  let r1 = mom[4u * ci + 1u];  // m, qxx, qyy, qzz
  let r2v = mom[4u * ci + 2u]; // qxy, qxz, qyz, tr
  let d = r0.xyz - xi;
  let r2 = fma(d.z, d.z, fma(d.y, d.y, fma(d.x, d.x, P.soft2)));
  let inv_r = inverseSqrt(r2);
  let inv_r2 = inv_r * inv_r;
  let inv_r3 = inv_r * inv_r2;
  let inv_r5 = inv_r3 * inv_r2;
  let q = vec3f(fma(r2v.y, d.z, fma(r2v.x, d.y, r1.y * d.x)),
                fma(r2v.z, d.z, fma(r1.z, d.y, r2v.x * d.x)),
                fma(r1.w, d.z, fma(r2v.z, d.y, r2v.y * d.x)));
  let dqd = fma(d.z, q.z, fma(d.y, q.y, fma(d.x, q.x, -P.soft2 * r2v.w)));
  let s = fma(2.5 * dqd, inv_r5 * inv_r2, r1.x * inv_r3);
  return fma(vec3f(-inv_r5), q, fma(vec3f(s), d, a));
}

// The direct kernel's update (web/src/kernels.ts), by mode.
fn update(i: u32, p: vec4f, sum: vec3f) {
  let a_new = P.G * sum;
  if (P.mode == 0u) {
    acc[i] = vec4f(a_new, 0.0);
    return;
  }
  var v = vel[i];
  if (P.mode == 2u) {
    v = vec4f((v.xyz + acc[i].xyz * P.half_dt) + a_new * P.half_dt, v.w);
    vel[i] = v;
  }
  acc[i] = vec4f(a_new, 0.0);
  pos_out[i] = vec4f(p.xyz + (v.xyz + a_new * P.half_dt) * P.dt, p.w);
}

@compute @workgroup_size(LANES)
fn walk(@builtin(local_invocation_index) lane: u32, @builtin(workgroup_id) wg: vec3u) {
  let g = wg.x + wg.y * P.groups_x;
  if (g >= P.groups) { return; }
  let grp = groups[g];
  let gb = grp.x;
  let ge = grp.x + grp.y;
  // The group's box and smallest last |a|^2, the same in every lane (LANES reads of the group's bodies,
  // repeating the last one past its end).
  var lo = sorted[gb].xyz;
  var hi = lo;
  var amin2 = 3.4e38;
  for (var j = 0u; j < LANES; j++) {
    let k = min(gb + j, ge - 1u);
    let p = sorted[k].xyz;
    lo = min(lo, p);
    hi = max(hi, p);
    if (P.use_last != 0u) {
      let a = acc[order[k]].xyz;
      amin2 = min(amin2, a.x * a.x + a.y * a.y + a.z * a.z);
    }
  }
  // |a_min|^(2/5) (tree/interactions.hpp's group_accel_factor, here in float32); without last accelerations
  // the criterion passes every cell Barnes's guard does (its d^2 x inf), written as the largest float.
  var factor = 3.4e38;
  if (P.use_last != 0u) {
    factor = select(0.0, pow(amin2, 0.2), amin2 > 0.0);
  }
  workgroupBarrier();  // the members' last accelerations are read before any lane writes its new one

  let k = min(gb + lane, ge - 1u);
  let self_pos = sorted[k];
  let xi = self_pos.xyz;
  var a = vec3f(0.0);
  var n_cells = 0u;
  var n_bodies = 0u;
  var stack: array<vec2u, LEVELS>;  // per level below: (next sibling, one past the last)
  var sp = 0u;
  var ci = 0u;
  loop {
    let c = cells[ci];
    if (accept(lo, hi, gb, ge, c, ci, factor)) {
      a = body_cell(xi, ci, a);
      n_cells++;
    } else if (c.w == 0u) {
      for (var j = c.x; j < c.x + c.y; j++) { a = body_body(xi, sorted[j], a); }
      n_bodies += c.y;
    } else {
      stack[sp] = vec2u(c.z, c.z + c.w);
      sp++;
    }
    // The next cell: the next sibling at the deepest level that has one left.
    loop {
      if (sp == 0u || stack[sp - 1u].x < stack[sp - 1u].y) { break; }
      sp--;
    }
    if (sp == 0u) { break; }
    ci = stack[sp - 1u].x;
    stack[sp - 1u].x++;
  }
  if (gb + lane < ge) { update(order[k], self_pos, a); }
  // The group's list lengths (cells, bodies), for the interaction count.
  if (lane == 0u) { groups[g] = vec4u(grp.x, grp.y, n_cells, n_bodies); }
}
`;
