// The tree's refit on the GPU: the desktop's refit (src/core/tree/sub_step_rule.hpp; src/cpu/tree/cpu_tree.cpp's
// refit_tree) in WGSL, so a step between builds needs no copy back and no WebAssembly. The cells, key order and
// groups of the last build (web/core/tree_web.cpp) stay; every cell's multipoles and box are made anew from the
// positions the last step wrote, in one command encoder:
//   gather   sorted[k] = pos[order[k]]                                  (one invocation a body)
//   leaves   each leaf's moments from its bodies (tree/multipoles.hpp's leaf_moments)  (one a cell)
//   parents  the internal cells of one level from their children's (parent_moments_of), one dispatch a level,
//            the deepest first
// and each cell's 64-byte tree::CellMoments row for the walk (walk_moments) as soon as its moments are done.
// WebGPU orders the dispatches of a pass (a dispatch's storage writes are seen by the next), so a level a
// dispatch needs no barrier across workgroups: a cell reads only its children, one level deeper and written
// by an earlier dispatch (or by the leaves').
//
// WGSL has no f64, so the sums the C++ does in double are float32 here, and taken where float32 keeps its
// digits, as the C++ takes them: the centre of mass about the cell's geometric centre (tree::cell_box), the
// quadrupole about the centre of mass, a child's moments shifted by the parallel-axis term from its own centre
// of mass. web/tests/page.mjs holds the rows to the WebAssembly refit's (docs/web.md: the errors measured).
//
// Flops: a body in its leaf 51 (box 6, centre of mass 10, quadrupole 35, add_point's 32 of them); a child in
// its parent 58; a cell's row about 30 and one pow. Bytes a body: 20 read and 16 written by the gather, 32 read
// by its leaf; a cell: 80 written and read once by its parent, and its walk row's 64 written.

// Invocations a workgroup, and workgroups a dispatch dimension at most (WebGPU's default
// maxComputeWorkgroupsPerDimension; more go on in y).
const WORKGROUP = 64;
const MAX_X = 65535;
// Uniform slots: the gather, the leaves, then one a level of internal cells (kMaxLevel 21 below the root: at
// most 21 levels hold internal cells). A slot is 256 bytes, WebGPU's minUniformBufferOffsetAlignment.
const SLOT = 256;
const SLOTS = 24;
// The far radius's opening angle (tree/multipoles.hpp's kFarTheta).
const FAR_THETA = 0.35;
// Rows a cell of the refit's own moments (mass and centre of mass, diagonal quadrupole and trace,
// off-diagonal, box low, box high).
const FULL_ROWS = 5;

export const TREE_REFIT_SOURCE = `// nbody-sandbox web: the tree's refit
struct Pass { begin: u32, count: u32, inv_theta: f32, alpha: f32 }
@group(0) @binding(0) var<uniform> P: Pass;
@group(0) @binding(1) var<storage, read> pos: array<vec4f>;            // x, y, z, m in input order
@group(0) @binding(2) var<storage, read> order: array<u32>;            // key order -> input order
@group(0) @binding(3) var<storage, read_write> sorted: array<vec4f>;   // x, y, z, m in key order
@group(0) @binding(4) var<storage, read> cells: array<vec4u>;          // first body, count, first child, children
@group(0) @binding(5) var<storage, read> centres: array<vec4f>;        // geometric centre, side
@group(0) @binding(6) var<storage, read_write> full: array<vec4f>;     // ${FULL_ROWS} rows a cell: Moments
@group(0) @binding(7) var<storage, read_write> mom: array<vec4f>;      // 4 rows a cell: tree::CellMoments

const WG = ${WORKGROUP}u;
const FLT_MAX = 0x1.fffffep+127f; // the largest float
const FAR_INV_THETA = ${1 / FAR_THETA};

// tree::MomentsD in float32: mass, centre of mass, traceless quadrupole about it (xx yy zz, xy xz yz), its
// trace sum m r^2, and the float32 box of the bodies.
struct Moments { m: f32, com: vec3f, qd: vec3f, qo: vec3f, tr: f32, lo: vec3f, hi: vec3f }

fn index(wid: vec3u, nwg: vec3u, lid: u32) -> u32 { return (wid.y * nwg.x + wid.x) * WG + lid; }

// m (3 s_a s_b - |s|^2 delta_ab) and m |s|^2: a point mass at offset s (add_point_quadrupole), 13 flops.
fn add_point(q: ptr<function, Moments>, m: f32, s: vec3f) {
  let s2 = dot(s, s);
  (*q).tr += m * s2;
  (*q).qd += m * (3.0 * s * s - vec3f(s2));
  (*q).qo += (3.0 * m) * (s.xxy * s.yzz);
}

// (l / theta + delta)^2; the largest float for a leaf of one or two bodies (never accepted) and where the
// square would overflow: tree_web.cpp's pack() stands it for the C++'s infinity.
fn radius2(l: f32, inv: f32, delta: f32, tiny: bool) -> f32 {
  let r = l * inv + delta;
  return select(r * r, FLT_MAX, tiny || r >= 1.8446743e19);
}

// Stores the cell's moments for its parent and its row for the walk (walk_moments).
fn finish(i: u32, c: vec4u, q: Moments) {
  full[${FULL_ROWS}u * i] = vec4f(q.com, q.m);
  full[${FULL_ROWS}u * i + 1u] = vec4f(q.qd, q.tr);
  full[${FULL_ROWS}u * i + 2u] = vec4f(q.qo, 0.0);
  full[${FULL_ROWS}u * i + 3u] = vec4f(q.lo, 0.0);
  full[${FULL_ROWS}u * i + 4u] = vec4f(q.hi, 0.0);
  let tiny = c.w == 0u && c.y <= 2u;
  let e = q.hi - q.lo;
  let l = max(e.x, max(e.y, e.z));
  let delta = length(q.com - 0.5 * (q.lo + q.hi));
  // (M l^3 / alpha)^(2/5); 0 with the criterion off, and for coincident bodies (l = 0) as the C++'s pow(0, 0.4)
  let acc = q.m * l * l * l / P.alpha;
  let r_acc2 = select(0.0, pow(acc, 0.4), P.alpha > 0.0 && acc > 0.0);
  mom[4u * i] = vec4f(q.com, radius2(l, P.inv_theta, delta, tiny));
  mom[4u * i + 1u] = vec4f(q.m, q.qd);
  mom[4u * i + 2u] = vec4f(q.qo, q.tr);
  mom[4u * i + 3u] = vec4f(r_acc2, radius2(l, FAR_INV_THETA, delta, tiny), 0.0, 0.0);
}

@compute @workgroup_size(WG)
fn gather(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {
  let k = index(wid, nwg, lid);
  if (k >= P.count) { return; }
  sorted[k] = pos[order[k]];
}

// Every leaf, whatever its level: two passes over its bodies (the centre of mass, then the quadrupole about it).
@compute @workgroup_size(WG)
fn leaves(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {
  let i = index(wid, nwg, lid);
  if (i >= P.count) { return; }
  let c = cells[i];
  if (c.w != 0u) { return; }
  let centre = centres[i].xyz;
  var q: Moments;
  q.lo = sorted[c.x].xyz;
  q.hi = q.lo;
  var s = vec3f(0.0);
  for (var k = c.x; k < c.x + c.y; k++) {
    let b = sorted[k];
    q.lo = min(q.lo, b.xyz);
    q.hi = max(q.hi, b.xyz);
    q.m += b.w;
    s += b.w * (b.xyz - centre);
  }
  q.com = centre + s * select(0.0, 1.0 / q.m, q.m > 0.0);
  for (var k = c.x; k < c.x + c.y; k++) {
    let b = sorted[k];
    add_point(&q, b.w, b.xyz - q.com);
  }
  finish(i, c, q);
}

// The internal cells among [begin, begin + count), one level: each from its children's moments, their
// quadrupoles moved to its centre of mass by the parallel-axis term.
@compute @workgroup_size(WG)
fn parents(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {
  let j = index(wid, nwg, lid);
  if (j >= P.count) { return; }
  let i = P.begin + j;
  let c = cells[i];
  if (c.w == 0u) { return; }
  let centre = centres[i].xyz;
  var q: Moments;
  q.lo = full[${FULL_ROWS}u * c.z + 3u].xyz;
  q.hi = full[${FULL_ROWS}u * c.z + 4u].xyz;
  var s = vec3f(0.0);
  for (var k = c.z; k < c.z + c.w; k++) {
    let r0 = full[${FULL_ROWS}u * k];
    q.lo = min(q.lo, full[${FULL_ROWS}u * k + 3u].xyz);
    q.hi = max(q.hi, full[${FULL_ROWS}u * k + 4u].xyz);
    q.m += r0.w;
    s += r0.w * (r0.xyz - centre);
  }
  q.com = centre + s * select(0.0, 1.0 / q.m, q.m > 0.0);
  for (var k = c.z; k < c.z + c.w; k++) {
    let r0 = full[${FULL_ROWS}u * k];
    let r1 = full[${FULL_ROWS}u * k + 1u];
    q.qd += r1.xyz;
    q.tr += r1.w;
    q.qo += full[${FULL_ROWS}u * k + 2u].xyz;
    add_point(&q, r0.w, r0.xyz - q.com);
  }
  finish(i, c, q);
}
`;

const ENTRIES = ['gather', 'leaves', 'parents'] as const;
type Entry = (typeof ENTRIES)[number];
interface Pipelines {
  layout: GPUBindGroupLayout;
  pipelines: Map<Entry, GPUComputePipeline>;
  pending: Promise<void>;
}
const PIPELINES = new WeakMap<GPUDevice, Pipelines>();

// The tree of the last build as the refit reads and writes it: the buffers the walk reads (the build's
// uploads) and the page's own.
export interface RefitTree {
  n: number;
  cells: GPUBuffer;
  moments: GPUBuffer;
  sorted: GPUBuffer;
  order: GPUBuffer;
  cellCentres: Float32Array<ArrayBuffer>; // tree_web.cpp's centres(): 4 f32 a cell
  levelStarts: Uint32Array<ArrayBuffer>; // tree_web.cpp's levels()
}

export class TreeRefit {
  private uniforms: GPUBuffer;
  private centres: GPUBuffer | null = null;
  private full: GPUBuffer | null = null;
  private tree: RefitTree | null = null;
  private passes: { entry: Entry; count: number }[] = [];
  private bindGroups = new Map<GPUBuffer, GPUBindGroup[]>(); // by the position buffer read

  constructor(readonly device: GPUDevice, private theta: number, private alpha: number) {
    this.uniforms = device.createBuffer({ size: SLOT * SLOTS, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  }

  destroy(): void {
    for (const b of [this.uniforms, this.centres, this.full]) b?.destroy();
    this.tree = null;
  }

  // Compiles the three pipelines once a device.
  prepare(): Promise<void> {
    let p = PIPELINES.get(this.device);
    if (!p) {
      const entry = (binding: number, type: GPUBufferBindingType): GPUBindGroupLayoutEntry => ({ binding, visibility: GPUShaderStage.COMPUTE, buffer: { type } });
      const layout = this.device.createBindGroupLayout({
        label: 'tree refit',
        entries: [entry(0, 'uniform'), entry(1, 'read-only-storage'), entry(2, 'read-only-storage'), entry(3, 'storage'),
          entry(4, 'read-only-storage'), entry(5, 'read-only-storage'), entry(6, 'storage'), entry(7, 'storage')],
      });
      const module = this.device.createShaderModule({ code: TREE_REFIT_SOURCE, label: 'tree refit' });
      const pipelineLayout = this.device.createPipelineLayout({ bindGroupLayouts: [layout] });
      const pipelines = new Map<Entry, GPUComputePipeline>();
      const pending = Promise.all(ENTRIES.map(async (name) => {
        pipelines.set(name, await this.device.createComputePipelineAsync({ layout: pipelineLayout, compute: { module, entryPoint: name } }));
      })).then(() => undefined);
      p = { layout, pipelines, pending };
      PIPELINES.set(this.device, p);
    }
    return p.pending;
  }

  ready(): boolean {
    return PIPELINES.get(this.device)?.pipelines.size === ENTRIES.length;
  }

  // After each build: the new tree's buffers, centres and levels (the uploads of a refit step are none).
  setTree(tree: RefitTree): void {
    const cells = tree.cellCentres.length / 4, levels = tree.levelStarts.length - 1;
    if (levels < 1 || tree.levelStarts[levels] !== cells) throw new Error(`tree refit: ${levels + 1} level starts for ${cells} cells`);
    // Internal cells sit above the deepest level only.
    if (2 + levels - 1 > SLOTS) throw new Error(`tree refit: ${levels} levels, more than the ${SLOTS - 1} it has room for`);
    this.centres = this.grow(this.centres, tree.cellCentres.byteLength);
    this.full = this.grow(this.full, cells * FULL_ROWS * 16);
    this.device.queue.writeBuffer(this.centres, 0, tree.cellCentres);
    this.passes = [{ entry: 'gather', count: tree.n }, { entry: 'leaves', count: cells }];
    const u = new ArrayBuffer(SLOT * SLOTS);
    const slot = (k: number, begin: number, count: number) => {
      new Uint32Array(u, SLOT * k, 2).set([begin, count]);
      new Float32Array(u, SLOT * k + 8, 2).set([1 / this.theta, this.alpha]);
    };
    slot(0, 0, tree.n);
    slot(1, 0, cells);
    for (let level = levels - 2; level >= 0; --level) {
      const begin = tree.levelStarts[level], count = tree.levelStarts[level + 1] - begin;
      slot(this.passes.length, begin, count);
      this.passes.push({ entry: 'parents', count });
    }
    this.device.queue.writeBuffer(this.uniforms, 0, u);
    this.tree = tree;
    this.bindGroups.clear();
  }

  // True once a tree was set for n bodies.
  holds(n: number): boolean {
    return this.tree !== null && this.tree.n === n;
  }

  // The refit's passes from the positions in `pos` (input order), into enc.
  encode(enc: GPUCommandEncoder, pos: GPUBuffer): void {
    const p = PIPELINES.get(this.device)!;
    const groups = this.bindGroupsFor(pos, p.layout);
    const pass = enc.beginComputePass({ label: 'tree refit' });
    this.passes.forEach(({ entry, count }, k) => {
      if (count === 0) return;
      const workgroups = Math.ceil(count / WORKGROUP), x = Math.min(workgroups, MAX_X);
      pass.setPipeline(p.pipelines.get(entry)!);
      pass.setBindGroup(0, groups[k]);
      pass.dispatchWorkgroups(x, Math.ceil(workgroups / x));
    });
    pass.end();
  }

  private bindGroupsFor(pos: GPUBuffer, layout: GPUBindGroupLayout): GPUBindGroup[] {
    let g = this.bindGroups.get(pos);
    if (!g) {
      const t = this.tree!;
      const buffers = [pos, t.order, t.sorted, t.cells, this.centres!, this.full!, t.moments];
      g = this.passes.map((_, k) => this.device.createBindGroup({
        layout,
        entries: [{ binding: 0, resource: { buffer: this.uniforms, offset: SLOT * k, size: 16 } },
          ...buffers.map((buffer, b) => ({ binding: b + 1, resource: { buffer } }))],
      }));
      this.bindGroups.set(pos, g);
    }
    return g;
  }

  private grow(b: GPUBuffer | null, bytes: number): GPUBuffer {
    if (b && b.size >= bytes) return b;
    b?.destroy();
    const size = Math.max(64, Math.ceil((bytes * 1.25) / 16) * 16);
    return this.device.createBuffer({ size, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC });
  }
}
