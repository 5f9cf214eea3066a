// Forces of a WGSL variant against the C++ float64 reference (in WebAssembly), on a Plummer sphere of n bodies
// from the core's own generator: the largest relative error |a - a_ref| / |a_ref| over the bodies (absolute
// where |a_ref| = 0, as for one body alone).
import { Core } from './core';
import { GpuSim } from './gpu_sim';
import { Variant } from './kernels';
import { ShapeChooser } from './shape';

export async function accelerationErrors(device: GPUDevice, core: Core, v: Variant, n: number, eps: number, shapes: ShapeChooser) {
  const s = core.loadScene('plummer', '', n);
  if (!s.ok) throw new Error(s.error);
  const sim = new GpuSim(device, shapes);
  sim.load(s.posMass, s.vel);
  const gpu = await sim.accelerations(v, { dt: 0, eps, G: 1 });
  const shape = sim.shapeFor(v).label;
  sim.destroy();
  const ref = core.referenceAccelerations(s.posMass, eps, 1);
  let worst = 0;
  for (let i = 0; i < s.n; ++i) {
    const d = Math.hypot(gpu[4 * i] - ref[3 * i], gpu[4 * i + 1] - ref[3 * i + 1], gpu[4 * i + 2] - ref[3 * i + 2]);
    const scale = Math.hypot(ref[3 * i], ref[3 * i + 1], ref[3 * i + 2]);
    worst = Math.max(worst, scale > 0 ? d / scale : d);
  }
  return { n: s.n, maxRelativeError: worst, finite: gpu.every(Number.isFinite), shape };
}
