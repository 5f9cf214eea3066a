// Forces of the WGSL kernels against the C++ float64 reference (in WebAssembly), on a Plummer sphere of n
// bodies from the core's own generator (or a running scene's state). Relative errors |a - a_ref| / |a_ref| a
// body (absolute where |a_ref| = 0, as for one body alone).
import { Core, SceneOk } from './core';
import { GpuSim } from './gpu_sim';
import { Variant } from './kernels';
import { ShapeChooser } from './shape';
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
// they were found at.
export async function runningTreeErrors(core: Core, sim: TreeSim, eps: number, G: number) {
  const { pos, acc } = await sim.stateAccelerations();
  return { n: sim.n, refitted: sim.times.build?.refitted ?? false, ...quantiles(core, { posMass: pos, n: sim.n }, acc, eps, G) };
}

// The WGSL tree at the desktop's default opening tests (theta 1, alpha 0.001): the median and 99th-percentile
// relative errors, the desktop's tree tests' measure (their goal: 3e-4 and 3e-3), with the interactions a
// body and the stages' times.
export async function treeAccelerationErrors(device: GPUDevice, core: Core, v: Variant, n: number, eps: number, shapes: ShapeChooser, theta = 1, alpha = 0.001) {
  const s = plummer(core, n);
  const sim = new TreeSim(device, shapes, core, theta, alpha);
  sim.load(s.posMass, s.vel);
  const gpu = await sim.accelerations(v, { dt: 0, eps, G: 1 });
  const lists = await sim.interactions();
  const label = sim.label(), times = sim.times;
  sim.destroy();
  return {
    n: s.n, label, ...quantiles(core, s, gpu, eps, 1),
    bodyBodyPerBody: lists.bodyBody / s.n, bodyCellPerBody: lists.bodyCell / s.n, times,
  };
}
