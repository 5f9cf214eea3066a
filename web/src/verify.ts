// Forces of the WGSL kernels against the C++ float64 reference (in WebAssembly), on a Plummer sphere of n
// bodies from the core's own generator (or a running scene's state). Relative errors |a - a_ref| / |a_ref| a
// body (absolute where |a_ref| = 0, as for one body alone).
import { Core, SceneOk } from './core';
import { GpuSim } from './gpu_sim';
import { Variant } from './kernels';
import { ShapeChooser } from './shape';
import { TreeWalkShape } from './tree_kernel';
import { TreeSim } from './tree_sim';

function plummer(core: Core, n: number): SceneOk {
  const s = core.loadScene('plummer', '', n);
  if (!s.ok) throw new Error(s.error);
  return s;
}

// A direct-summation variant: the largest relative error over the bodies.
export async function accelerationErrors(device: GPUDevice, core: Core, v: Variant, n: number, eps: number, shapes: ShapeChooser) {
  const s = plummer(core, n);
  const sim = new GpuSim(device, shapes);
  sim.load(s.posMass, s.vel);
  const gpu = await sim.accelerations(v, { dt: 0, eps, G: 1 });
  const shape = sim.shapeFor(v).label;
  sim.destroy();
  const e = quantiles(core, s, gpu, eps, 1);
  return { n: s.n, maxRelativeError: e.max, finite: e.finite, shape };
}

// Sorted relative errors of accelerations `gpu` (4 floats a body) at the positions of `s`, and their median
// and 99th percentile by nearest rank (the desktop's tests' quantile).
function quantiles(core: Core, s: { posMass: Float32Array<ArrayBuffer>; n: number }, gpu: Float32Array, eps: number, G: number) {
  const ref = core.referenceAccelerations(s.posMass, eps, G);
  const e: number[] = [];
  for (let i = 0; i < s.n; ++i) {
    const d = Math.hypot(gpu[4 * i] - ref[3 * i], gpu[4 * i + 1] - ref[3 * i + 1], gpu[4 * i + 2] - ref[3 * i + 2]);
    const scale = Math.hypot(ref[3 * i], ref[3 * i + 1], ref[3 * i + 2]);
    e.push(scale > 0 ? d / scale : d);
  }
  e.sort((a, b) => a - b);
  const at = (q: number) => e[Math.min(e.length - 1, Math.floor(q * (e.length - 1) + 0.5))];
  return { median: at(0.5), p99: at(0.99), max: e[e.length - 1], finite: gpu.every(Number.isFinite) };
}

// The running tree path's last accelerations (after builds and refits) against float64 at the positions
// they were found at, and whether the last step's tree came from the worker (how many steps old, refitted).
export async function runningTreeErrors(core: Core, sim: TreeSim, eps: number, G: number) {
  const { pos, acc } = await sim.stateAccelerations();
  const t = sim.times;
  return {
    n: sim.n, refitted: t.refitted, gpuRefitted: t.refittedOnGpu, gpuRefitMs: t.gpuRefitMs, walkMs: t.walkMs,
    fromWorker: t.fromWorker, treeAge: t.treeAge, workerTrees: t.workerTrees, staleTrees: t.staleTrees, ...quantiles(core, { posMass: pos, n: sim.n }, acc, eps, G),
  };
}

// A fresh TreeSim's accelerations of the Plummer sphere `s` (G = 1), its list lengths, the walk's shape in
// words and, with timeStages, the stages' times.
async function treeRun(device: GPUDevice, core: Core, v: Variant, s: SceneOk, eps: number, shapes: ShapeChooser, theta: number, alpha: number, walk?: TreeWalkShape, timeStages = false) {
  const sim = new TreeSim(device, shapes, core, theta, alpha, walk);
  sim.timeStages = timeStages;
  sim.load(s.posMass, s.vel);
  const acc = await sim.accelerations(v, { dt: 0, eps, G: 1 });
  const lists = await sim.interactions();
  const run = { acc, lists, label: sim.label(), walk: sim.shapeFor(v).label, times: sim.times };
  sim.destroy();
  return run;
}

// The WGSL tree at the desktop's default opening tests (theta 1, alpha 0.001): the median and 99th-percentile
// relative errors, the desktop's tree tests' measure (their goal: 3e-4 and 3e-3), with the interactions a
// body and the stages' times.
export async function treeAccelerationErrors(device: GPUDevice, core: Core, v: Variant, n: number, eps: number, shapes: ShapeChooser, theta = 1, alpha = 0.001, walk?: TreeWalkShape) {
  const s = plummer(core, n);
  const r = await treeRun(device, core, v, s, eps, shapes, theta, alpha, walk, true); // the stages' times come back with the errors
  return {
    n: s.n, label: r.label, walk: r.walk, ...quantiles(core, s, r.acc, eps, 1),
    bodyBodyPerBody: r.lists.bodyBody / s.n, bodyCellPerBody: r.lists.bodyCell / s.n, times: r.times,
  };
}

// The walk in two shapes over the same tree (a Plummer sphere, theta 1, alpha 0.001): how many acceleration
// components differ in any bit, and each shape's list lengths.
export async function treeWalksDiffer(device: GPUDevice, core: Core, v: Variant, n: number, eps: number, shapes: ShapeChooser, a: TreeWalkShape, b: TreeWalkShape) {
  const s = plummer(core, n);
  const x = await treeRun(device, core, v, s, eps, shapes, 1, 0.001, a), y = await treeRun(device, core, v, s, eps, shapes, 1, 0.001, b);
  let differ = 0;
  for (let i = 0; i < x.acc.length; ++i) if (!Object.is(x.acc[i], y.acc[i])) ++differ;
  return { n: s.n, differ, finite: x.acc.every(Number.isFinite), lists: [x.lists, y.lists], labels: [x.walk, y.walk] };
}

// The GPU refit (tree_refit.ts) against the WebAssembly refit for the same positions: a scene's bodies moved
// `drift` of its steps along their velocities off the tree built where they started. Each cell's error by
// field, scaled by the cell: the mass and r_acc2 relative; the centre of mass and the square roots of r_open2
// and r_far2 in units of h; the quadrupole and its trace in units of m h^2. h: twice the largest distance of
// one of the cell's bodies from its geometric centre along an axis, the span the float32 sums run over.
export async function refitErrors(device: GPUDevice, core: Core, v: Variant, shapes: ShapeChooser, scene: string, n: number, drift: number) {
  const s = core.loadScene(scene, '', n);
  if (!s.ok) throw new Error(s.error);
  const moved = s.posMass.slice();
  for (let i = 0; i < s.n; ++i) for (let a = 0; a < 3; ++a) moved[4 * i + a] += s.vel[4 * i + a] * drift * s.dt;
  const sim = new TreeSim(device, shapes, core);
  sim.load(s.posMass, s.vel);
  const r = await sim.refitBoth(v, moved, 3);
  sim.destroy();
  const g = r.gpu.moments, w = r.wasm.moments, sorted = r.wasm.sorted;
  const worst = { mass: 0, centre: 0, quadrupole: 0, radii: 0, rAcc: 0 };
  const raise = (field: keyof typeof worst, e: number) => { worst[field] = Math.max(worst[field], Number.isNaN(e) ? Infinity : e); };
  let outside = 0;
  for (let c = 0; c < r.cells.length / 4; ++c) {
    const begin = r.cells[4 * c], count = r.cells[4 * c + 1], leaf = r.cells[4 * c + 3] === 0;
    let h = 0; // a lone body at the centre: the cell's side
    for (let k = begin; k < begin + count; ++k) {
      let far = 0;
      for (let a = 0; a < 3; ++a) far = Math.max(far, Math.abs(sorted[4 * k + a] - r.centres[4 * c + a]));
      h = Math.max(h, 2 * far);
      if (leaf && far > r.centres[4 * c + 3] / 2) ++outside;
    }
    if (h === 0) h = r.centres[4 * c + 3];
    const at = (row: number) => 16 * c + row, m = w[at(4)];
    raise('mass', Math.abs(g[at(4)] - m) / m);
    raise('centre', Math.hypot(g[at(0)] - w[at(0)], g[at(1)] - w[at(1)], g[at(2)] - w[at(2)]) / h);
    for (const row of [5, 6, 7, 8, 9, 10, 11]) raise('quadrupole', Math.abs(g[at(row)] - w[at(row)]) / (m * h * h));
    for (const row of [3, 13]) raise('radii', Math.abs(Math.sqrt(g[at(row)]) - Math.sqrt(w[at(row)])) / h);
    raise('rAcc', w[at(12)] > 0 ? Math.abs(g[at(12)] - w[at(12)]) / w[at(12)] : Math.abs(g[at(12)]));
  }
  const sortedSame = r.gpu.sorted.length >= sorted.length && sorted.every((x, k) => Object.is(x, r.gpu.sorted[k]));
  return { n: s.n, cells: r.cells.length / 4, sortedSame, outsideLeaves: outside / s.n, worst, gpuMs: r.gpuMs, wasmMs: r.wasmMs, times: r.times };
}
