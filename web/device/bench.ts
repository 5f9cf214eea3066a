// The WGSL kernels' rate outside a browser, through Dawn for node (npm `webgpu`): the page's own GpuSim and
// kernels (../src), on a uniform sphere of N bodies. One variant a process (a second pipeline in one Dawn
// process died on the GPU machine: ../../../shared/WEB.md). Prints one line:
//   wgsl <variant> N=<n> workgroup=<wg> steps=<k> median_s=<s> interactions_per_s=<rate> adapter=<name>
// Usage: node bench.mjs VARIANT N [SECONDS]   (bundled from bench.ts by web/device/prepare.sh)
import { create, globals } from 'webgpu';
import { GpuSim } from '../src/gpu_sim';
import { variantByName } from '../src/kernels';

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
  const [name, nText, secondsText] = process.argv.slice(2);
  const variant = variantByName(name ?? '');
  const n = Number(nText);
  if (!variant || !(Number.isInteger(n) && n > 0)) {
    console.error('usage: node bench.mjs none|i|ij N [SECONDS]');
    process.exit(2);
  }
  const gpu = create([]);
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) throw new Error('Dawn found no GPU adapter (is a Vulkan driver and loader on LD_LIBRARY_PATH?)');
  const { maxStorageBufferBindingSize, maxBufferSize } = adapter.limits;
  const device = await adapter.requestDevice({ requiredLimits: { maxStorageBufferBindingSize, maxBufferSize } });
  const info = adapter.info;
  const sim = new GpuSim(device);
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
  console.log(`wgsl ${variant.name} N=${n} workgroup=${sim.shape.workgroup} steps=${perStep.length * batch} ` +
    `median_s=${median.toExponential(4)} interactions_per_s=${((n * n) / median).toExponential(4)} ` +
    `finite=${finite} adapter="${info.vendor} ${info.architecture} ${info.device} ${info.description}"`);
  device.destroy();
  process.exit(finite ? 0 : 1);
}

main().catch((e) => {
  console.error(`wgsl bench: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
