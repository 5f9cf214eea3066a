// The WGSL kernels' rate outside a browser, through Dawn for node (npm `webgpu`): the page's own GpuSim and
// kernels (../src) in the shape the page chooses (the core's rules, from nbody_core.js and .wasm beside this
// script), on a uniform sphere of N bodies. One variant a process (a second pipeline in one Dawn process died
// on the GPU machine: ../../../shared/WEB.md). Prints one line:
//   wgsl <variant> N=<n> shape="<label>" units="<why>" steps=<k> median_s=<s> interactions_per_s=<rate> adapter=<name>
// Usage: node bench.mjs VARIANT N [SECONDS [K U BLOCK Q]]   (bundled from bench.ts by web/device/prepare.sh;
// K U BLOCK Q: another shape than the chosen one, Q = 0 chosen from N)
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { create, globals } from 'webgpu';
import { GpuSim } from '../src/gpu_sim';
import { variantByName } from '../src/kernels';
import { computeUnits, FixedShape, shapeChooser, wantedLimits } from '../src/shape';
import { loadCoreInNode } from './node_core';

Object.assign(globalThis, globals);

function sphere(n: number): { pos: Float32Array<ArrayBuffer>; vel: Float32Array<ArrayBuffer> } {
  // A deterministic uniform sphere of radius 1, total mass 1 (an LCG: no dependence on Math.random).
  let s = 12345;
  const next = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
  const pos = new Float32Array(4 * n), vel = new Float32Array(4 * n);
  for (let i = 0; i < n; ++i) {
    let x, y, z;
    do [x, y, z] = [next(), next(), next()]; while (x * x + y * y + z * z > 1);
    pos.set([x, y, z, 1 / n], 4 * i);
  }
  return { pos, vel };
}

async function main(): Promise<void> {
  const [name, nText, secondsText, ...shapeText] = process.argv.slice(2);
  const variant = variantByName(name ?? '');
  const n = Number(nText);
  const given = shapeText.map(Number);
  if (!variant || !(Number.isInteger(n) && n > 0) || ![0, 4].includes(given.length) || !given.every(Number.isInteger)) {
    console.error('usage: node bench.mjs none|i|ij N [SECONDS [K U BLOCK Q]]');
    process.exit(2);
  }
  const fixed: FixedShape | undefined = given.length ? { k: given[0], u: given[1], block: given[2], q: given[3] } : undefined;
  const core = await loadCoreInNode(dirname(fileURLToPath(import.meta.url)));
  const gpu = create([]);
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) throw new Error('Dawn found no GPU adapter (is a Vulkan driver and loader on LD_LIBRARY_PATH?)');
  const device = await adapter.requestDevice({ requiredLimits: wantedLimits(adapter.limits) });
  const info = adapter.info;
  const units = computeUnits(core, info);
  const sim = new GpuSim(device, shapeChooser(core, device.limits, units.units, fixed));
  const { pos, vel } = sphere(n);
  sim.load(pos, vel);
  const p = { dt: 1e-4, eps: 0.01, G: 1 };
  // Warm-up, then batches of steps timed until SECONDS pass; the median batch's time a step.
  sim.step(variant, p, 3);
  await device.queue.onSubmittedWorkDone();
  const budget = Number(secondsText ?? 3) * 1000;
  let batch = 1;
  for (;;) { // a batch of at least 50 ms, so the wait's latency stays small beside it
    const t0 = performance.now();
    sim.step(variant, p, batch);
    await device.queue.onSubmittedWorkDone();
    if (performance.now() - t0 > 50 || batch >= 4096) break;
    batch *= 2;
  }
  const perStep: number[] = [];
  const start = performance.now();
  while (performance.now() - start < budget || perStep.length < 5) {
    const t0 = performance.now();
    sim.step(variant, p, batch);
    await device.queue.onSubmittedWorkDone();
    perStep.push((performance.now() - t0) / 1000 / batch);
  }
  perStep.sort((a, b) => a - b);
  const median = perStep[Math.floor(perStep.length / 2)];
  const state = await sim.readState();
  const finite = state.pos.every(Number.isFinite);
  console.log(`wgsl ${variant.name} N=${n} shape="${sim.shapeFor(variant).label}" units="${units.why}" steps=${perStep.length * batch} ` +
    `median_s=${median.toExponential(4)} interactions_per_s=${((n * n) / median).toExponential(4)} ` +
    `finite=${finite} adapter="${info.vendor} ${info.architecture} ${info.device} ${info.description}"`);
  device.destroy();
  process.exit(finite ? 0 : 1);
}

main().catch((e) => {
  console.error(`wgsl bench: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
