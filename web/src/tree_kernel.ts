// The WGSL tree walk: the desktop's group walk (src/cpu/tree/tree_walk.cpp, cuda/tree/tree_walk.cu) over the
// tree the desktop's own build made in WebAssembly (web/core/tree_web.cpp), with the leap-frog step of the
// direct kernel (web/src/kernels.ts) fused at its end.
//
// One workgroup of GROUP_LANES invocations a group (at most that many consecutive bodies in key order sharing
// one interaction list), one body a lane, as the desktop's CUDA walk (cuda/tree/tree_walk.cu) with a warp a
// group. The opening test reads only the group's box and its smallest last acceleration, so the decisions are
// the group's, and the lanes share them out as the CUDA walk's warp does: each round the lanes test different
// cells of the frontier (a stack of sibling ranges in workgroup memory, sorted by level; ROUND_CELLS a lane),
// then the accepted cells and the opened leaves go on lists there, the opened cells' children on the stack,
// and the next round's cells come off it (by lane 0, or by every lane at once: TreeWalkShape.everyLane). A walk that took one dependent load of a cell after another (every
// lane testing the same cell, redundantly) takes a round of up to ROUND independent loads instead. When a list
// could not take another round, or the walk ends, the batch is summed: cells, then the leaves' bodies end to
// end, TILE at a time through workgroup memory (each lane loads TILE_LOADS of them, then every lane sums over
// the tile: one read of a cell or body from the storage buffer for the whole group instead of one a lane). The
// decisions are the desktop's (tree/interactions.hpp's accept_cell: the guard r_open2 from theta, the
// acceleration criterion r_acc2 against d^2 |a_min|^(2/5), the far radius r_far2; never a cell holding a body
// of the group); the sums run in another order (a round's cells in reverse pop order, cells before bodies, not
// the CPU's breadth first), so the accelerations agree to float32 rounding, not bit for bit. The first
// barrier of the walk keeps the group's last accelerations (the criterion's input) read before any lane
// writes its new one.
//
// Where the optional `subgroups` feature is present, subgroup prefix sums (subgroupExclusiveAdd, as the CUDA
// walk's shuffles) would let every lane place its own results, instead of lane 0's loop over the round's
// cells; the page does not require it (not every browser has it).
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

// The walk's shape: bodies (or cells) each lane loads into a workgroup tile between barriers, and cells each
// lane tests in a round. A workgroup is one group of 32 lanes, one warp on NVIDIA, so a multiprocessor holds at
// most 32 of them (Hopper's blocks a multiprocessor) and only as many as its workgroup memory fits: the
// smallest shape (tiles of 32, rounds of 32: 6.7 KiB) keeps 32 resident where 4 and 2 (14.3 KiB) kept 15, and
// its walk of 1,048,576 Cartwheel bodies took 45 ms against 97 on an H200 through Dawn (tiles and rounds 2 and
// 1: 58 ms; 4 and 1: 70; 1 and 2: 71; 2026-11-29). On a GPU that runs on the CPU (SwiftShader) every barrier
// switches every invocation in turn, so there the larger tiles and rounds, which take fewer barriers, stay.
//
// Each round's results go into the lists and the stack, and the next round's cells come off it, either by lane 0
// alone (a loop over the round: the other lanes wait) or, with `everyLane` (rounds of one cell a lane), by every
// lane at once: each places its own result at offsets from a sum over the lanes after it in workgroup memory
// (log2 32 = 5 steps, a barrier each), and takes its share of the next round from a sum over the stack's top
// ranges. The same lists, in the same order, and the same stack as lane 0 makes: the same accelerations to the
// bit. On SwiftShader every barrier switches every invocation in turn, so there lane 0 keeps the work.
export interface TreeWalkShape {
  tileLoads: number;
  roundCells: number;
  everyLane: boolean;
}
export const TREE_WALK_ON_GPU: TreeWalkShape = { tileLoads: 1, roundCells: 1, everyLane: true };
export const TREE_WALK_ON_CPU: TreeWalkShape = { tileLoads: 4, roundCells: 2, everyLane: false };
export const treeWalkShapeFor = (gpuOnCpu: boolean): TreeWalkShape => (gpuOnCpu ? TREE_WALK_ON_CPU : TREE_WALK_ON_GPU);
export const treeWalkLabel = (s: TreeWalkShape): string =>
  `tiles ${GROUP_LANES * s.tileLoads}, rounds ${GROUP_LANES * s.roundCells}${s.everyLane ? ', lists by every lane' : ''}`;


// The round's results into the lists and the stack by lane 0 alone, last lane first: the round's cells were
// popped top down (lane 0 the deepest), so their children go on in the reverse order to keep the stack sorted
// by level, shallowest at the bottom. Then the next round: ROUND cells off the top (the last range taken may
// be split, its rest left on top).
const LANE_ZERO_BOOKKEEPING = `    if (lane == 0u) {
      for (var l = taken; l > 0u; l--) {
        let f = found[l - 1u];
        if (f.y == ACCEPTED) {
          list_cell[nc] = f.x;
          nc++;
        } else if (f.y == OPENED) {
          stack[size] = f.x;
          size++;
        } else {
          leaf_first[nl] = f.x;
          leaf_start[nl] = nb;
          nl++;
          nb += f.y;
        }
      }
      var t = 0u;
      loop {
        if (size == 0u || t == ROUND) { break; }
        let e = stack[size - 1u];
        let n = (e & 7u) + 1u;
        let take = min(n, ROUND - t);
        for (var j = 0u; j < take; j++) { round_cell[t + j] = (e >> 3u) + j; }
        t += take;
        if (take == n) {
          size--;
        } else {
          stack[size - 1u] = ((e >> 3u) + take) * 8u + n - take - 1u;
        }
      }
      state = vec4u(t, nc, nl, nb);
    }
  `;

// The same by every lane (rounds of one cell a lane): the sums over lanes go through `found`, whose entry a
// lane has read before it writes it, and the stack's height through stack_top.
const EVERY_LANE_DECLARATIONS = `var<workgroup> stack_top: u32;  // ranges on the stack after a round, for every lane

// Sums of v over this lane and every lane after it (from the last lane down), in five steps through \`found\`,
// whose entry this lane has already read; found[0] is then the sum over all lanes. Every lane calls it.
fn sum_from_here(lane: u32, v: vec2u) -> vec2u {
  var s = v;
  found[lane] = s;
  for (var step = 1u; step < LANES; step <<= 1u) {
    workgroupBarrier();
    if (lane + step < LANES) { s += found[lane + step]; }
    workgroupBarrier();
    found[lane] = s;
  }
  workgroupBarrier();
  return s;
}
`;
const EVERY_LANE_BOOKKEEPING = `    size = stack_top;
    // This lane's result, counted: accepted cells | pushed ranges << 8 | leaves << 16, and leaf bodies. It
    // goes after the results of the lanes after it (last lane first, as lane 0's loop places them).
    var f = vec2u(0u, ACCEPTED);
    var mine = vec2u(0u);
    if (lane < taken) {
      f = found[lane];
      if (f.y == ACCEPTED) {
        mine.x = 1u;
      } else if (f.y == OPENED) {
        mine.x = 1u << 8u;
      } else {
        mine = vec2u(1u << 16u, f.y);
      }
    }
    let after = sum_from_here(lane, mine) - mine;
    let all = found[0];
    if (lane < taken) {
      if (f.y == ACCEPTED) {
        list_cell[nc + (after.x & 0xffu)] = f.x;
      } else if (f.y == OPENED) {
        stack[size + ((after.x >> 8u) & 0xffu)] = f.x;
      } else {
        let at = nl + (after.x >> 16u);
        leaf_first[at] = f.x;
        leaf_start[at] = nb + after.y;
      }
    }
    nc += all.x & 0xffu;
    nl += all.x >> 16u;
    nb += all.y;
    let height = size + ((all.x >> 8u) & 0xffu);
    workgroupBarrier();  // the pushed ranges written, and found[0] read, before the next sums
    // The next round: lane l takes the l-th range from the top, its cells after those of the ranges above it,
    // up to ROUND (the last range taken may be split, its rest left on top).
    var e = 0u;
    var n = 0u;
    if (lane < height) {
      e = stack[height - 1u - lane];
      n = (e & 7u) + 1u;
    }
    let upto = sum_from_here(LANES - 1u - lane, vec2u(n, 0u)).x;  // cells of the ranges from the top to this one
    let above = upto - n;  // cells of the ranges above this one
    if (n > 0u && above < ROUND) {
      let take = min(n, ROUND - above);
      for (var j = 0u; j < take; j++) { round_cell[above + j] = (e >> 3u) + j; }
      if (take < n) { stack[height - 1u - lane] = ((e >> 3u) + take) * 8u + n - take - 1u; }
    }
    // One lane says what the round took: the one whose range passes ROUND (it stays on the stack, split or
    // whole), else the last lane with a range (all of them taken), else lane 0 (an empty stack: the walk ends).
    let ranges = min(height, LANES);
    if (n > 0u && above <= ROUND && upto > ROUND) {
      stack_top = height - lane;
      state = vec4u(ROUND, nc, nl, nb);
    } else if (ranges > 0u && lane == ranges - 1u && upto <= ROUND) {
      stack_top = height - ranges;
      state = vec4u(upto, nc, nl, nb);
    } else if (ranges == 0u && lane == 0u) {
      stack_top = 0u;
      state = vec4u(0u, nc, nl, nb);
    }`;

export const treeWalkSource = ({ tileLoads: TILE_LOADS, roundCells: ROUND_CELLS, everyLane }: TreeWalkShape): string => {
  if (everyLane && ROUND_CELLS !== 1) throw new Error("the walk's lists by every lane take rounds of one cell a lane");
  return `// nbody-sandbox web: tree walk and fused leap-frog step
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
const ROUND_CELLS = ${ROUND_CELLS}u;  // cells a lane tests a round
const ROUND = LANES * ROUND_CELLS;
const LEVELS = 22u;  // tree levels: the root and 21 below it at most (tree_defs.hpp's kMaxLevel)
const TILE_LOADS = ${TILE_LOADS}u;

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
// r0, r1, r2v: the cell's rows 0 (centre of mass), 1 (m, qxx, qyy, qzz) and 2 (qxy, qxz, qyz, tr).
fn body_cell(xi: vec3f, r0: vec4f, r1: vec4f, r2v: vec4f, a: vec3f) -> vec3f {
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

// The walk's workgroup memory, of WebGPU's default 16 KiB: tiles and rounds of 128 and 64 (TREE_WALK_ON_CPU)
// 14.3 KiB (stack 5.5, lists 2, the round 0.8, tiles 6); of 32 and 32 (TREE_WALK_ON_GPU) 6.7 KiB (stack 2.75,
// lists 2, the round 0.4, tiles 1.5).
//
// The frontier: a stack of sibling ranges (a cell's children are consecutive: first child and count, 1-8,
// packed as first * 8 + count - 1; cell indices below 2^29), popped a round at a time: the top ranges whose
// cells add up to at most ROUND (a range split where the round ends), ROUND_CELLS a lane. A round's opened
// cells push their children's ranges, at most ROUND. Why it cannot overflow (the CUDA walk's argument,
// cuda/tree/tree_walk.cu, in ranges instead of cells): the stack is sorted by level, deepest on top (a round
// pops the top cells, levels a..b, leaving only levels <= a, and pushes ranges of levels a+1..b+1, shallowest
// first), so what one round pushed lies wholly above what is left of earlier rounds, and each level's ranges
// came from a single round. The stack is thus at most one round's pushes (ROUND) a level, LEVELS levels:
// 1,408 ranges, 5.5 KiB.
const STACK_CAP = ROUND * LEVELS;
// The lists of one batch: accepted cells, and opened leaves as their first body (key order) and where their
// bodies start in the batch's body list. A round adds at most ROUND to each, so a batch is summed (and the
// lists emptied) before a round that might not fit: the lists never overflow.
const CELL_CAP = 256u;
const LEAF_CAP = 128u;
const TILE = LANES * TILE_LOADS;  // bodies or cells a tile: each lane loads TILE_LOADS
var<workgroup> stack: array<u32, STACK_CAP>;
var<workgroup> list_cell: array<u32, CELL_CAP>;
var<workgroup> leaf_first: array<u32, LEAF_CAP>;
var<workgroup> leaf_start: array<u32, LEAF_CAP>;
// A round: the cells the lanes test, and what each found: the cell and ACCEPTED, the children's range and
// OPENED, or a leaf's first body and body count.
const ACCEPTED = 0xffffffffu;
const OPENED = 0xfffffffeu;
var<workgroup> round_cell: array<u32, ROUND>;
var<workgroup> found: array<vec2u, ROUND>;
// The walk's state after a round, read as one uniform value: cells the next round tests (0: the walk is
// done), listed cells, leaves, bodies.
var<workgroup> state: vec4u;
${everyLane ? EVERY_LANE_DECLARATIONS : ''}var<workgroup> tile: array<vec4f, 3u * TILE>;

// The batch's cells, then its bodies (leaves end to end), TILE at a time through workgroup memory, added to a:
// one read of a cell or body from the storage buffer for the whole group instead of one a lane. The counts are
// uniform (the barriers need it).
fn sum_batch(lane: u32, xi: vec3f, a_in: vec3f, cells_n: u32, leaves_n: u32, bodies_n: u32) -> vec3f {
  var a = a_in;
  for (var base = 0u; base < cells_n; base += TILE) {
    let m = min(TILE, cells_n - base);
    for (var l = lane; l < m; l += LANES) {
      let c = 4u * list_cell[base + l];
      tile[l] = mom[c];
      tile[TILE + l] = mom[c + 1u];
      tile[2u * TILE + l] = mom[c + 2u];
    }
    workgroupBarrier();
    for (var j = 0u; j < m; j++) { a = body_cell(xi, tile[j], tile[TILE + j], tile[2u * TILE + j], a); }
    workgroupBarrier();
  }
  // Body q of the list is in the last leaf starting at or before q (a binary search over the leaves' starts).
  for (var base = 0u; base < bodies_n; base += TILE) {
    let m = min(TILE, bodies_n - base);
    for (var l = lane; l < m; l += LANES) {
      let q = base + l;
      var lo_leaf = 0u;
      var hi_leaf = leaves_n;
      while (hi_leaf - lo_leaf > 1u) {
        let mid = (lo_leaf + hi_leaf) / 2u;
        if (leaf_start[mid] <= q) { lo_leaf = mid; } else { hi_leaf = mid; }
      }
      tile[l] = sorted[leaf_first[lo_leaf] + q - leaf_start[lo_leaf]];
    }
    workgroupBarrier();
    for (var j = 0u; j < m; j++) { a = body_body(xi, tile[j], a); }
    workgroupBarrier();
  }
  return a;
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

  let k = min(gb + lane, ge - 1u);
  let self_pos = sorted[k];
  let xi = self_pos.xyz;
  var a = vec3f(0.0);
  var cells_listed = 0u;
  var bodies_listed = 0u;
  // The walk, shared: each round the lanes test up to ROUND cells of the frontier at once (as the CUDA walk's
  // warp does), then the results go on the lists and the stack and the next round comes off it: by lane 0
  // alone, a loop over the round (two barriers a round, fewest for SwiftShader), or by every lane with sums
  // over the lanes in five barrier steps (a real GPU's shape: 1.3x faster walks on the H200). The state's
  // uniform load orders those writes before the next round reads them, and, the first time, the members'
  // last accelerations read above before any lane writes its new one.
  var size = 0u;  // ranges on the stack: lane 0's${everyLane ? ', and every lane\'s from stack_top' : ''}
  if (lane == 0u) {
    round_cell[0] = 0u;  // the root
    state = vec4u(1u, 0u, 0u, 0u);${everyLane ? '\n    stack_top = 0u;' : ''}
  }
  loop {
    let st = workgroupUniformLoad(&state);
    let taken = st.x;
    var nc = st.y;
    var nl = st.z;
    var nb = st.w;
    if (taken == 0u || nc + ROUND > CELL_CAP || nl + ROUND > LEAF_CAP) {
      a = sum_batch(lane, xi, a, nc, nl, nb);
      cells_listed += nc;
      bodies_listed += nb;
      nc = 0u;
      nl = 0u;
      nb = 0u;
    }
    if (taken == 0u) { break; }
    for (var r = lane; r < taken; r += LANES) {
      let ci = round_cell[r];
      let c = cells[ci];
      if (accept(lo, hi, gb, ge, c, ci, factor)) {
        found[r] = vec2u(ci, ACCEPTED);
      } else if (c.w == 0u) {
        found[r] = vec2u(c.x, c.y);
      } else {
        found[r] = vec2u(c.z * 8u + c.w - 1u, OPENED);
      }
    }
    workgroupBarrier();  // the round's results written (and its cells read) before they are placed
${everyLane ? EVERY_LANE_BOOKKEEPING : LANE_ZERO_BOOKKEEPING}
  }
  if (gb + lane < ge) { update(order[k], self_pos, a); }
  // The group's list lengths (cells, bodies), for the interaction count.
  if (lane == 0u) { groups[g] = vec4u(grp.x, grp.y, cells_listed, bodies_listed); }
}
`;
};
