// The WGSL kernels' rate outside a browser, through Dawn for node (npm `webgpu`): the page's own GpuSim and
// kernels (../src) in the shape the page chooses (the core's rules, from nbody_core.js and .wasm beside this
// script), on a uniform sphere of N bodies. One variant a process (a second pipeline in one Dawn process died
// on the GPU machine: ../../../shared/WEB.md). Prints one line:
//   wgsl <variant> N=<n> shape="<label>" units="<why>" steps=<k> median_s=<s> interactions_per_s=<rate> adapter=<name>
// Usage: node bench.mjs VARIANT N [SECONDS [K U BLOCK Q]]   (bundled from bench.ts by web/device/prepare.sh;
// K U BLOCK Q: another shape than the chosen one, Q = 0 chosen from N)
//        node bench.mjs build SCENE N THREADS...   (the WebAssembly tree build alone, stage by stage: benchBuild)
//        node bench.mjs tree SCENE N [SECONDS [sync|async] [untimed] [threads=K] [lane0]]   (the page's tree path, TreeSim: a shipped scene at N bodies,
// one step at a time as the page takes them; prints the median step (and of the build and refit steps) and
// the median of each stage: the copy back, the WebAssembly build and the upload on build steps, the GPU refit
// on refit steps, the walk; frames/s at the scene's steps a frame counting the steps alone; `async`: the builds
// after the first in the page's worker (tree_build_worker.js beside this script, through node_worker.ts), as a
// browser runs them, where without it (or with `sync`) each build is on this thread and its step waits for it; `untimed`: no
// wait between a step's refit and walk, as the page steps, so only the steps' wall time is measured;
// `threads=K`: the builds on this thread by the threaded module (nbody_threads.*) on K threads, as a cross-origin
// isolated page's worker builds them; not with `async`, whose worker here runs the module without threads;
// `lane0`: the walk's lists by lane 0 alone, not by every lane (tree_kernel.ts), for an A/B)
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { create, globals } from 'webgpu';
import type { Core } from '../src/core';
import { GpuSim } from '../src/gpu_sim';
import { variantByName } from '../src/kernels';
import { computeUnits, FixedShape, shapeChooser, wantedLimits } from '../src/shape';
import { treeWalkShapeFor } from '../src/tree_kernel';
import { TreeSim } from '../src/tree_sim';
import { loadCoreInNode, loadThreadsInNode } from './node_core';
import { installNodeWorker } from './node_worker';

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

// Dawn's instance lives as long as the process: collected with a function's locals, it takes its threads with it
// (the process aborted with std::system_error "Invalid argument" a step later).
let gpu: GPU | undefined;

async function gpuDevice(): Promise<{ adapter: GPUAdapter; device: GPUDevice }> {
  gpu ??= create([]);
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) throw new Error('Dawn found no GPU adapter (is a Vulkan driver and loader on LD_LIBRARY_PATH?)');
  return { adapter, device: await adapter.requestDevice({ requiredLimits: wantedLimits(adapter.limits) }) };
}

const median = (v: number[]): number => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];

// The tree path one step at a time (each step waits for its own round trip, as the page's frames do): the
// median step's wall time and the median of each stage over the steps timed.
async function benchTree(core: Core, builds: Pick<Core, 'TreeBuild'>, scene: string, n: number, seconds: number, inWorker: boolean, timeStages: boolean, laneZero: boolean): Promise<void> {
  const { adapter, device } = await gpuDevice();
  const s = core.loadScene(scene, '', n);
  if (!s.ok) throw new Error(s.error);
  const units = computeUnits(core, adapter.info);
  const walk = treeWalkShapeFor(units.units === 0);
  const sim = new TreeSim(device, shapeChooser(core, device.limits, units.units), builds, 1, 0.001, laneZero ? { ...walk, everyLane: false } : walk);
  sim.asyncBuild = inWorker;
  sim.timeStages = timeStages; // each stage waited for and timed; `untimed`: as the page steps, one wait a step
  sim.load(s.posMass, s.vel);
  const v = variantByName('ij')!;
  const p = { dt: s.dt, eps: s.eps, G: s.G };
  await sim.step(v, p, 1); // primes (two walks) and compiles
  let workerTrees = 0, oldest = 0;
  const rows: { step: number; read: number; build: number; upload: number; gpuRefit: number; walk: number; refit: boolean }[] = [];
  const start = performance.now();
  while (performance.now() - start < seconds * 1000 || rows.length < 8) {
    const t0 = performance.now();
    await sim.step(v, p, 1);
    const t = sim.times, b = t.build!;
    const buildMs = 1000 * (b.box + b.keys + b.sort + b.build + b.multipoles + b.copy);
    rows.push({ step: performance.now() - t0, read: t.readMs, build: buildMs, upload: t.uploadMs, gpuRefit: t.gpuRefitMs, walk: t.walkMs, refit: t.refitted });
    workerTrees = t.workerTrees, oldest = Math.max(oldest, t.treeAge);
  }
  const state = await sim.readState();
  const finite = state.pos.every(Number.isFinite);
  const of = (k: 'step' | 'read' | 'build' | 'upload' | 'gpuRefit' | 'walk', refit?: boolean): string =>
    median(rows.filter((r) => refit === undefined || r.refit === refit).map((r) => r[k]))?.toFixed(2) ?? '-';
  const stepMs = Number(of('step'));
  const slowest = Math.max(...rows.map((r) => r.step)).toFixed(2);
  const where = inWorker ? `builds in the worker: ${workerTrees} trees, the oldest ${oldest} steps old when walked; ` : '';
  console.log(`wgsl tree ${scene} N=${s.n} steps=${rows.length} step_ms=${of('step')} (build ${of('step', false)}, refit ${of('step', true)}, slowest ${slowest}) ${where}` +
    `build_threads=${sim.times.build?.threads ?? 1} ` +
    `read_ms=${of('read', false)} wasm_build_ms=${of('build', false)} upload_ms=${of('upload', false)} gpu_refit_ms=${of('gpuRefit', true)} walk_ms=${of('walk')} ` +
    `frames_per_s=${(1000 / (stepMs * s.stepsPerFrame)).toFixed(1)} at ${s.stepsPerFrame} steps a frame, label="${sim.shapeFor(v).label}" finite=${finite} ` +
    `adapter="${adapter.info.vendor} ${adapter.info.architecture} ${adapter.info.device} ${adapter.info.description}"`);
  device.destroy();
  process.exit(finite ? 0 : 1);
}

// The WebAssembly tree build alone (no GPU), on each thread count given: the median of REPEATS builds after a
// first (which grows the module's memory) and of each stage. One line a count:
//   wasm build SCENE N=<n> threads=<k> build_ms=<ms> box=.. keys=.. sort=.. build=.. multipoles=.. copy=..
async function benchBuild(core: Core, dir: string, scene: string, n: number, threadCounts: number[], repeats: number): Promise<void> {
  const s = core.loadScene(scene, '', n);
  if (!s.ok) throw new Error(s.error);
  const stages = ['box', 'keys', 'sort', 'build', 'multipoles', 'copy'] as const;
  for (const k of threadCounts) {
    const builds = k === 1 ? core : await loadThreadsInNode(dir, k); // 1: the module without threads, as a page without isolation
    const tree = new builds.TreeBuild(1, 0.001);
    const rows: { total: number; stage: Record<string, number> }[] = [];
    for (let r = 0; r <= repeats; ++r) {
      const t0 = performance.now();
      const problem = tree.build(s.posMass, false);
      if (problem) throw new Error(problem);
      const st = tree.stats();
      if (r > 0) rows.push({ total: performance.now() - t0, stage: Object.fromEntries(stages.map((x) => [x, 1000 * st[x]])) });
    }
    tree.delete();
    console.log(`wasm build ${scene} N=${s.n} threads=${k} build_ms=${median(rows.map((r) => r.total)).toFixed(1)} ` +
      stages.map((x) => `${x}=${median(rows.map((r) => r.stage[x])).toFixed(1)}`).join(' '));
  }
  process.exit(0);
}

async function main(): Promise<void> {
  if (process.argv[2] === 'build') {
    const [, scene, nText, ...counts] = process.argv.slice(2);
    const n = Number(nText), threads = counts.map(Number);
    if (!scene || !(Number.isInteger(n) && n > 0) || !threads.length || !threads.every((k) => Number.isInteger(k) && k >= 1 && k <= 64)) {
      console.error('usage: node bench.mjs build SCENE N THREADS...   (THREADS 1-64 each; 1: the module without threads)');
      process.exit(2);
    }
    const dir = dirname(fileURLToPath(import.meta.url));
    return benchBuild(await loadCoreInNode(dir), dir, scene, n, threads, 7);
  }
  if (process.argv[2] === 'tree') {
    const [, scene, nText, secondsText, ...modes] = process.argv.slice(2);
    const n = Number(nText);
    const threads = Number(modes.find((m) => m.startsWith('threads='))?.slice(8) ?? 0);
    const inWorker = modes.includes('async');
    if (!scene || !(Number.isInteger(n) && n > 0) || !modes.every((m) => ['sync', 'async', 'untimed', 'lane0'].includes(m) || /^threads=[1-9]\d*$/.test(m)) ||
        threads > 64 || (threads > 0 && inWorker)) {
      console.error('usage: node bench.mjs tree SCENE N [SECONDS [sync|async] [untimed] [threads=K] [lane0]]   (K 1-64, not with async)');
      process.exit(2);
    }
    const dir = dirname(fileURLToPath(import.meta.url));
    if (inWorker) installNodeWorker(dir);
    const core = await loadCoreInNode(dir);
    const builds = threads > 0 ? await loadThreadsInNode(dir, threads) : core;
    return benchTree(core, builds, scene, n, Number(secondsText ?? 5), inWorker, !modes.includes('untimed'), modes.includes('lane0'));
  }
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
  const { adapter, device } = await gpuDevice();
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
  const stepS = median(perStep);
  const state = await sim.readState();
  const finite = state.pos.every(Number.isFinite);
  console.log(`wgsl ${variant.name} N=${n} shape="${sim.shapeFor(variant).label}" units="${units.why}" steps=${perStep.length * batch} ` +
    `median_s=${stepS.toExponential(4)} interactions_per_s=${((n * n) / stepS).toExponential(4)} ` +
    `finite=${finite} adapter="${info.vendor} ${info.architecture} ${info.device} ${info.description}"`);
  device.destroy();
  process.exit(finite ? 0 : 1);
}

main().catch((e) => {
  console.error(`wgsl bench: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
