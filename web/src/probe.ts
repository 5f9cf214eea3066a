// The adapter's rate, measured when the page opens, and the body count a scene loads with: as the desktop does
// (src/app/load_plan.hpp), as many bodies as this machine steps in 20 ms, a scene up to twice that loads whole,
// and a note says how long a step of all of them would take here (N^2 scaling of the measured rate).
import { Core } from './core';
import { GpuSim } from './gpu_sim';
import { variantByName } from './kernels';
import { ShapeChooser } from './shape';
import { TreeWalkShape } from './tree_kernel';
import { TreeSim } from './tree_sim';

export const STEP_BUDGET_S = 0.02;

// Interactions/s of the ij kernel on a 2,048-body Plummer sphere: one warm-up step, then steps for ~0.15 s.
export async function probeRate(device: GPUDevice, core: Core, shapes: ShapeChooser): Promise<number> {
  const s = core.loadScene('plummer', '', 2048);
  if (!s.ok) return 1e9;
  const sim = new GpuSim(device, shapes);
  sim.load(s.posMass, s.vel);
  const v = variantByName('ij')!, p = { dt: s.dt, eps: s.eps, G: s.G };
  sim.step(v, p, 1);
  await device.queue.onSubmittedWorkDone();
  let steps = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < 150 && steps < 200) {
    sim.step(v, p, 2);
    steps += 2;
    await device.queue.onSubmittedWorkDone();
  }
  const rate = (s.n * s.n * steps) / ((performance.now() - t0) / 1000);
  sim.destroy();
  return rate;
}

// Seconds a step of the WebGPU tree path takes on a TREE_PROBE_BODIES-body Plummer sphere (the positions back,
// the build in WebAssembly, the walk and step in WGSL): a primed start, then the fastest of two steps.
export async function probeTreeStep(device: GPUDevice, core: Core, shapes: ShapeChooser, walk: TreeWalkShape): Promise<number> {
  const s = core.loadScene('plummer', '', TREE_PROBE_BODIES);
  if (!s.ok) return 1;
  const sim = new TreeSim(device, shapes, core, 1, 0.001, walk);
  sim.load(s.posMass, s.vel);
  const v = variantByName('ij')!, p = { dt: s.dt, eps: s.eps, G: s.G };
  await sim.step(v, p, 1);
  let best = Infinity;
  for (let k = 0; k < 2; ++k) {
    const t0 = performance.now();
    await sim.step(v, p, 1);
    best = Math.min(best, (performance.now() - t0) / 1000);
  }
  sim.destroy();
  return best;
}

// "205 ms", "1.85 s", "6.5 minutes", "6.5 hours": a time a person reads at a glance.
export function duration(s: number): string {
  if (s < 1) return `${(s * 1000).toPrecision(3)} ms`;
  if (s < 120) return `${s.toPrecision(3)} s`;
  if (s < 7200) return `${(s / 60).toPrecision(2)} minutes`;
  return `${(s / 3600).toPrecision(2)} hours`;
}

export interface BodyPlan {
  bodies: number;
  note: string;
}

// How long a step of n bodies takes on a path, from a measurement there, and how it was measured.
export interface StepModel {
  seconds: (n: number) => number;
  measured: string;
}

// Direct summation: N^2 interactions at the measured rate.
export function directModel(rate: number): StepModel {
  return { seconds: (n) => (n * n) / rate, measured: `measured at ${(rate / 1e9).toPrecision(3)} G interactions/s` };
}

// The tree at its default opening tests (the CPU's, or the GPU path's): a step grows as N^1.5 here, from one
// measured at TREE_PROBE_BODIES (the CPU's: Plummer spheres in WebAssembly on one thread, 95 ms at 4,096
// bodies, 790 ms at 16,384; the walk deepens and the acceleration criterion opens more cells as N grows,
// faster than N log N).
export const TREE_PROBE_BODIES = 4096;
export function treeModel(secondsAtProbe: number): StepModel {
  const cost = (n: number) => Math.pow(n, 1.5);
  return {
    seconds: (n) => (secondsAtProbe * cost(n)) / cost(TREE_PROBE_BODIES),
    measured: `the tree, measured at ${(secondsAtProbe * 1000).toPrecision(3)} ms a step of ${TREE_PROBE_BODIES.toLocaleString('en')} bodies`,
  };
}

// The most bodies (at least 2) a step of which fits `budget` seconds, up to cap; the step time only grows with n.
function mostWithin(model: StepModel, budget: number, cap: number): number {
  let lo = 2, hi = 2;
  while (hi < cap && model.seconds(hi) <= budget) lo = hi, hi = Math.min(cap, hi * 2);
  if (model.seconds(hi) <= budget) return hi;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (model.seconds(mid) <= budget) lo = mid;
    else hi = mid;
  }
  return lo;
}

// `asked`: the URL or the Bodies field named N outright (then it loads as asked). `cap`: a hard limit of the
// path (the CPU path's force and its 2D drawing).
export function planBodies(sceneBodies: number, model: StepModel, asked: boolean, what: string, cap: number): BodyPlan {
  const smooth = mostWithin(model, STEP_BUDGET_S, cap);
  const limit = Math.min(cap, asked ? Infinity : 2 * smooth);
  if (sceneBodies <= limit) return { bodies: sceneBodies, note: '' };
  const bodies = Math.min(cap, asked ? cap : smooth);
  const t = duration(model.seconds(sceneBodies));
  return {
    bodies,
    note: `Loaded with ${bodies.toLocaleString('en')} of its ${sceneBodies.toLocaleString('en')} bodies: a step of all of them would take ${t} on ${what} (${model.measured}). Type a larger N under Bodies and press Load to run them all.`,
  };
}
