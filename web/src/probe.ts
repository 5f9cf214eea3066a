// The adapter's rate, measured when the page opens, and the body count a scene loads with: as the desktop does
// (src/app/load_plan.hpp), as many bodies as this machine steps in 20 ms, a scene up to twice that loads whole,
// and a note says how long a step of all of them would take here (N^2 scaling of the measured rate).
import { Core } from './core';
import { GpuSim } from './gpu_sim';
import { variantByName } from './kernels';
import { ShapeChooser } from './shape';

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

// `asked`: the URL or the Bodies field named N outright (then it loads as asked). `cap`: a hard limit of the
// path (the CPU path's O(N^2) float64 force and its 2D drawing).
export function planBodies(sceneBodies: number, rate: number, asked: boolean, what: string, cap: number): BodyPlan {
  const smooth = Math.max(2, Math.floor(Math.sqrt(rate * STEP_BUDGET_S)));
  const limit = Math.min(cap, asked ? Infinity : 2 * smooth);
  if (sceneBodies <= limit) return { bodies: sceneBodies, note: '' };
  const bodies = Math.min(cap, asked ? cap : smooth);
  const full = (sceneBodies * sceneBodies) / rate;
  const t = duration(full);
  return {
    bodies,
    note: `Loaded with ${bodies.toLocaleString('en')} of its ${sceneBodies.toLocaleString('en')} bodies: a step of all of them would take ${t} on ${what} (measured at ${(rate / 1e9).toPrecision(3)} G interactions/s). Type a larger N under Bodies and press Load to run them all.`,
  };
}
