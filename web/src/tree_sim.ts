// The WebGPU tree path: on a build step the positions come back from the GPU (one copy and mapAsync), the
// desktop's CPU tree build in WebAssembly (web/core/tree_web.cpp: box, keys, sort, octree, multipoles, groups)
// makes the tree and its flat arrays go up with queue.writeBuffer; on the steps between, the last tree is
// refitted on the GPU (web/src/tree_refit.ts), nothing read back. After the first tree of a load the builds
// run in a Web Worker (tree_build_worker.ts) while the steps go on with refits: the tree that comes back,
// built from positions some steps old, is refitted on the GPU to the positions now before its first walk, so
// no step and no frame waits for WebAssembly. Then the WGSL walk (web/src/tree_kernel.ts)
// finds the forces and takes the fused leap-frog step into the other position buffer, which the renderer draws
// as on the direct path. The buffers, the state between steps and the ping-pong are GpuSim's.
//
// Why the build is not on the GPU: WebGPU has no barrier across a dispatch's workgroups, so a GPU build is a
// chain of dispatches (keys, a radix sort of several passes, a level of cells each, multipoles bottom up a
// level each), every one a place for a race; the desktop's build in WebAssembly is already held to the
// accuracy goal by the desktop's tests, and its cells are then the desktop's bit for bit. The cost is one
// round trip a build. A refit is the last two of those chains only (a gather and the multipoles a level a
// dispatch) over cells that stay, so it moved to the GPU.
import { Core, TreeBuild, TreeBuildStats } from './core';
import { GpuSim, StepParams } from './gpu_sim';
import { KernelShape, SELF_INTERACTION_FLOOR, Variant } from './kernels';
import { ShapeChooser } from './shape';
import { GROUP_LANES, MAX_GROUPS_X, TREE_WALK_ON_GPU, TreeWalkShape, treeWalkLabel, treeWalkSource } from './tree_kernel';
import { TreeRefit } from './tree_refit';
import { BuiltTree, buildInWorker, WORKERS } from './tree_builder';

// Milliseconds of the stages of the last step: the positions' copy back, the stages of the last call into
// WebAssembly (TreeBuildStats, seconds there: a build, or a refit where gpuRefit is off), the upload (those
// three 0 on a GPU refit's step), the GPU refit (submit to done; 0 on a step that called WebAssembly), the walk
// with its step (these two only where timeStages: else 0); refitted: the step's tree was refitted (on either
// side), not built; refittedOnGpu: by tree_refit.ts. With asyncBuild a step
// that takes up the worker's tree has its build's stats and upload, readMs 0 (the copy back went on beside
// earlier steps) and its GPU refit; fromWorker says so, and treeAge how many steps older than the step's
// positions the tree's were. workerTrees and staleTrees count trees taken up, and those dropped because other
// bodies were loaded or a tree was built here meanwhile, since the TreeSim was made.
export interface TreeTimes {
  readMs: number;
  build: TreeBuildStats | null;
  uploadMs: number;
  gpuRefitMs: number;
  refitted: boolean;
  refittedOnGpu: boolean;
  walkMs: number;
  fromWorker: boolean;
  treeAge: number;
  workerTrees: number;
  staleTrees: number;
}

// The walk's pipeline a device and shape (compiled once: every TreeSim of a device shares it).
interface WalkPipeline { pipeline: GPUComputePipeline | null; pending: Promise<void> | null }
const PIPELINES = new WeakMap<GPUDevice, Map<string, WalkPipeline>>();
function walkPipeline(device: GPUDevice, shape: TreeWalkShape): WalkPipeline {
  let byShape = PIPELINES.get(device);
  if (!byShape) PIPELINES.set(device, (byShape = new Map()));
  const key = treeWalkLabel(shape);
  let p = byShape.get(key);
  if (!p) byShape.set(key, (p = { pipeline: null, pending: null }));
  return p;
}

// The tree's arrays on the GPU, by binding (web/src/tree_kernel.ts).
const ARRAYS = ['cells', 'moments', 'sorted', 'order', 'groups'] as const;
type ArrayName = (typeof ARRAYS)[number];
const BINDING: Record<ArrayName, number> = { cells: 4, moments: 5, sorted: 6, order: 7, groups: 8 };

export class TreeSim extends GpuSim {
  private tree: TreeBuild;
  private refitter: TreeRefit;
  private arrays = new Map<ArrayName, GPUBuffer>();
  private treeParams: GPUBuffer;
  private walkBindGroups = new Map<number, GPUBindGroup>();
  private groupCount = 0;
  private busy: Promise<void> = Promise.resolve();
  private generation = 0; // bodies loaded so far: a step in flight from an earlier load stops
  private sinceBuild = 0; // steps walked on the last tree built
  private stepCount = 0; // steps since the TreeSim was made: a worker tree's age
  // A build asked of the worker (at which step), and its tree once back, not yet taken up.
  private asked: { step: number } | null = null;
  private arrived: { step: number; tree: BuiltTree; stats: TreeBuildStats } | null = null;
  // A new tree every buildEvery steps; between them the last one is refitted (tree/sub_step_rule.hpp: its
  // cells, key order and groups kept, every multipole and box made anew from the positions now, so the
  // opening tests hold for them). In WebAssembly a refit of 65,536 bodies took 5 ms against a build's 14.
  // With asyncBuild the worker builds one tree after another instead, each taken up when it arrives.
  buildEvery = 4;
  // Refits on the GPU (tree_refit.ts); false: read back and refit in WebAssembly, as every build (the tests'
  // comparison and the A/B of the two).
  gpuRefit = true;
  // Builds after a load's first in the worker (needs gpuRefit: its tree is refitted to the positions now);
  // false: every build here, on this thread, the step waiting for it (Dawn for node has no workers).
  asyncBuild = WORKERS;
  // Waits for the GPU after the refit and after the walk of every step, to time each (the bench, the tests'
  // figures); false: a call's steps are submitted one after another (the queue keeps them in order) and
  // waited for once at its end, as the direct path's are.
  timeStages = false;
  times: TreeTimes = {
    readMs: 0, build: null, uploadMs: 0, gpuRefitMs: 0, refitted: false, refittedOnGpu: false, walkMs: 0, fromWorker: false, treeAge: 0,
    workerTrees: 0, staleTrees: 0,
  };

  // walkShape: the walk's tiles and rounds (tree_kernel.ts: treeWalkShapeFor the adapter).
  // core: whose TreeBuild builds on the step's thread (the page's core, or the threaded one: CpuCore).
  constructor(device: GPUDevice, shapes: ShapeChooser, core: Pick<Core, 'TreeBuild'>, private theta = 1, private alpha = 0.001, readonly walkShape: TreeWalkShape = TREE_WALK_ON_GPU) {
    super(device, shapes);
    this.tree = new core.TreeBuild(theta, alpha);
    this.refitter = new TreeRefit(device, theta, alpha);
    this.treeParams = device.createBuffer({ size: 48, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  }

  destroy(): void {
    super.destroy();
    for (const b of this.arrays.values()) b.destroy();
    this.arrays.clear();
    this.treeParams.destroy();
    this.refitter.destroy();
    this.tree.delete();
  }

  // Bodies anew (Load, Reset, or switching paths): a step in flight when they come stops at its next wait.
  load(posMass: Float32Array<ArrayBuffer>, vel: Float32Array<ArrayBuffer>): void {
    super.load(posMass, vel);
    this.walkBindGroups.clear();
    this.generation++;
    this.dropWorkerTree();
  }

  // A build asked of the worker, or its tree back and not yet taken up (the tests' Load while one is).
  hasWorkerTree(): boolean {
    return this.asked !== null || this.arrived !== null;
  }

  // A tree asked of the worker before is not taken up: other bodies (a load), or a tree built here since.
  private dropWorkerTree(): void {
    if (this.asked || this.arrived) this.times.staleTrees++;
    this.asked = this.arrived = null;
  }

  // "tree theta 1 alpha 0.001 leaf 32 group 32": the desktop's words for the opening tests and sizes.
  label(): string {
    return this.tree.label();
  }

  // The walk has one shape: a workgroup a group.
  shapeFor(_v: Variant): KernelShape {
    return { k: 1, u: 1, block: GROUP_LANES, q: 1, tileLoads: 0, label: `${this.label()}, walk in WGSL (${treeWalkLabel(this.walkShape)})` };
  }

  ready(_v: Variant): boolean {
    return walkPipeline(this.device, this.walkShape).pipeline !== null && this.refitter.ready();
  }

  prepare(_v: Variant): Promise<void> {
    const p = walkPipeline(this.device, this.walkShape);
    if (!p.pending) {
      const module = this.device.createShaderModule({ code: treeWalkSource(this.walkShape), label: 'tree walk' });
      p.pending = this.device.createComputePipelineAsync({ layout: 'auto', compute: { module, entryPoint: 'walk' } }).then((pl) => {
        p.pipeline = pl;
      });
    }
    return Promise.all([p.pending, this.refitter.prepare()]).then(() => undefined);
  }

  // `steps` leap-frog steps, a tree built or refitted for each (the first after load also primes, walking
  // twice: under theta alone for the accelerations the criterion reads, then with it, as the desktop's
  // evaluate does).
  step(v: Variant, p: StepParams, steps: number): Promise<void> {
    return this.serial(() => this.steps(v, p, steps));
  }

  // One call at a time: a step a frame started and the tests' stepping share the buffers and the tree.
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.busy.then(work);
    this.busy = run.then(() => undefined, () => undefined);
    return run;
  }

  private async steps(v: Variant, p: StepParams, steps: number): Promise<void> {
    const generation = this.generation;
    if (this.n === 0) return;
    await this.prepare(v);
    if (!this.primed) {
      if (!(await this.build(this.current, false, generation))) return;
      this.walk(p, 0, false);
      await this.walkStep(p, 1, true);
      this.primed = true;
    }
    for (let s = 0; s < steps; ++s) {
      const refit = this.sinceBuild % this.buildEvery !== 0;
      const gpuRefit = this.gpuRefit && this.refitter.holds(this.n);
      let ok: boolean;
      if (this.arrived && gpuRefit) ok = await this.takeWorkerTree(generation);
      else if (this.asyncBuild && gpuRefit) {
        // The next tree is asked for as soon as the last one is taken: a tree is walked older the longer its
        // build takes, and an older tree's boxes have grown (on an H200, 262,144 Cartwheel bodies walked in 9 ms
        // on trees at most 3 steps old, in 21 ms on trees up to 8 steps old, a build asked for 3 steps after
        // the last one arrived).
        if (!this.asked) this.askWorker(this.current, generation);
        ok = await this.refitOnGpu(this.current, generation);
      } else ok = refit && gpuRefit ? await this.refitOnGpu(this.current, generation) : await this.build(this.current, refit, generation);
      if (!ok) return;
      this.stepCount++;
      await this.walkStep(p, 2, true);
    }
    if (!this.timeStages) await this.device.queue.onSubmittedWorkDone();
  }

  // A build of pos[from] asked of the worker: the copy back is submitted now (queued before the steps that
  // overwrite the buffer), the positions go to the worker when mapped, and the tree comes back into `arrived`
  // for the next step to take up. Nothing here waits.
  private askWorker(from: number, generation: number): void {
    const asked = (this.asked = { step: this.stepCount });
    const current = () => this.asked === asked && generation === this.generation;
    this.read(this.pos[from], this.n * 16)
      .then((pos) => (current() ? buildInWorker(pos, this.theta, this.alpha) : null))
      .then((r) => {
        if (!r || !current()) return;
        this.asked = null;
        if (r.arrays && r.stats) this.arrived = { step: asked.step, tree: r.arrays, stats: r.stats };
        else {
          // No worker (its script missing, or it failed): every later build here, as without workers.
          console.warn(`tree build in a worker failed (${r.problem}); building on the page's thread`);
          this.asyncBuild = false;
        }
      }, () => {
        if (this.asked === asked) this.asked = null; // the copy back failed (the TreeSim destroyed): ask again
      });
  }

  // The worker's tree uploaded and refitted on the GPU to pos[current] before its first walk: its cells were
  // built from positions some steps old, and the refit makes every box and multipole those of the positions
  // now, so the opening tests hold (the same refit as between builds).
  private async takeWorkerTree(generation: number): Promise<boolean> {
    const a = this.arrived!;
    this.arrived = null;
    const t0 = performance.now();
    this.install((name) => a.tree[name], a.tree.levels, a.tree.centres, a.stats);
    const uploadMs = performance.now() - t0;
    if (!(await this.refitOnGpu(this.current, generation))) return false;
    this.sinceBuild = 1;
    this.times.workerTrees++;
    Object.assign(this.times, { build: a.stats, uploadMs, fromWorker: true, treeAge: this.stepCount - a.step });
    return true;
  }

  // A tree's arrays to the GPU. Each array is asked for as it goes up: a view on WebAssembly memory is good
  // only until the next call into the core, which may move that memory.
  private uploadTree(array: (name: ArrayName) => Float32Array<ArrayBuffer> | Uint32Array<ArrayBuffer>, stats: TreeBuildStats): void {
    this.groupCount = stats.groups;
    for (const name of ARRAYS) this.upload(name, array(name));
  }

  // A new tree's arrays to the GPU and its cells to the refit.
  private install(array: (name: ArrayName) => Float32Array<ArrayBuffer> | Uint32Array<ArrayBuffer>, levels: Uint32Array<ArrayBuffer>, centres: Float32Array<ArrayBuffer>, stats: TreeBuildStats): void {
    this.uploadTree(array, stats);
    const a = (name: ArrayName) => this.arrays.get(name)!;
    this.refitter.setTree({
      n: this.n, cells: a('cells'), moments: a('moments'), sorted: a('sorted'), order: a('order'), cellCentres: centres, levelStarts: levels,
    });
  }

  // Accelerations of the loaded positions, G x the tree's sum, as the desktop's evaluate finds them (theta
  // alone first, then the criterion on those accelerations): the force test's path.
  accelerations(v: Variant, p: StepParams): Promise<Float32Array<ArrayBuffer>> {
    return this.serial(() => this.treeAccelerations(v, p));
  }

  private async treeAccelerations(v: Variant, p: StepParams): Promise<Float32Array<ArrayBuffer>> {
    await this.prepare(v);
    this.current = 0;
    await this.build(0, false, this.generation);
    this.walk({ ...p, dt: 0 }, 0, false);
    await this.walkStep({ ...p, dt: 0 }, 0, true);
    this.primed = false;
    return this.read(this.acc, this.n * 16);
  }

  // The tests' comparison of the two refits: the tree built at the loaded positions, then the same bodies at
  // `moved` refitted on the GPU and in WebAssembly. Both refits' walk rows and bodies in key order, the tree's
  // cells and centres, and each refit's milliseconds (the GPU's submit to done; WebAssembly's with the copy
  // back and the upload, as a step without gpuRefit pays them), the least of `repeats`. Leaves the state unprimed.
  refitBoth(v: Variant, moved: Float32Array<ArrayBuffer>, repeats = 1) {
    return this.serial(async () => {
      await this.prepare(v);
      const generation = this.generation;
      this.current = 0;
      this.primed = false;
      if (!(await this.build(0, false, generation))) throw new Error('refitBoth: other bodies were loaded');
      const cells = this.times.build!.cells;
      this.device.queue.writeBuffer(this.pos[0], 0, moved);
      await this.device.queue.onSubmittedWorkDone();
      // Each refit `repeats` times (the same result each time) and its least time: the queue is shared with
      // the page's frames, whose drawing on SwiftShader may hold a refit up by hundreds of milliseconds.
      let gpuMs = Infinity, wasmMs = Infinity;
      for (let k = 0; k < repeats; ++k) {
        if (!(await this.refitOnGpu(0, generation, true))) throw new Error('refitBoth: other bodies were loaded');
        gpuMs = Math.min(gpuMs, this.times.gpuRefitMs);
      }
      const gpu = { moments: await this.read(this.arrays.get('moments')!, cells * 64), sorted: await this.read(this.arrays.get('sorted')!, this.n * 16) };
      for (let k = 0; k < repeats; ++k) {
        const t0 = performance.now();
        if (!(await this.build(0, true, generation))) throw new Error('refitBoth: other bodies were loaded');
        if (!this.times.refitted) throw new Error('refitBoth: WebAssembly built a new tree where it was to refit');
        wasmMs = Math.min(wasmMs, performance.now() - t0);
      }
      const wasm = { moments: this.tree.moments().slice(), sorted: this.tree.sorted().slice() };
      return { gpu, wasm, cells: this.tree.cells().slice(), centres: this.tree.centres().slice(), gpuMs, wasmMs, times: { ...this.times } };
    });
  }

  // Interactions of the last walk (body-body, body-cell), from the list lengths each group wrote back.
  async interactions(): Promise<{ bodyBody: number; bodyCell: number }> {
    const g = new Uint32Array((await this.read(this.arrays.get('groups')!, this.groupCount * 16)).buffer);
    let bodyBody = 0, bodyCell = 0;
    for (let k = 0; k < this.groupCount; ++k) bodyCell += g[4 * k + 1] * g[4 * k + 2], bodyBody += g[4 * k + 1] * g[4 * k + 3];
    return { bodyBody, bodyCell };
  }

  // The positions the last step was evaluated at (the ones drawn) and their accelerations (G x the sum), read
  // back between steps: what the tests hold to the float64 reference on a running scene.
  stateAccelerations(): Promise<{ pos: Float32Array<ArrayBuffer>; acc: Float32Array<ArrayBuffer> }> {
    return this.serial(async () => ({ pos: await this.read(this.pos[this.drawn], this.n * 16), acc: await this.read(this.acc, this.n * 16) }));
  }

  // The tree of pos[from] (read back), built (or refitted) in WebAssembly and uploaded; false (nothing done)
  // where other bodies were loaded meanwhile.
  private async build(from: number, refit: boolean, generation: number): Promise<boolean> {
    if (generation !== this.generation || this.n === 0) return false;
    const t0 = performance.now();
    const pos = await this.read(this.pos[from], this.n * 16);
    if (generation !== this.generation) return false;
    const t1 = performance.now();
    const problem = this.tree.build(pos, refit);
    if (problem) throw new Error(problem);
    const stats = this.tree.stats();
    this.sinceBuild = stats.refitted ? this.sinceBuild + 1 : 1;
    const t2 = performance.now();
    if (stats.refitted) this.uploadTree((name) => this.tree[name](), stats);
    else {
      this.dropWorkerTree(); // a tree of other cells than this one's, or of older positions
      this.install((name) => this.tree[name](), this.tree.levels().slice(), this.tree.centres().slice(), stats);
    }
    Object.assign(this.times, {
      readMs: t1 - t0, build: stats, uploadMs: performance.now() - t2, gpuRefitMs: 0, refitted: stats.refitted, refittedOnGpu: false, fromWorker: false, treeAge: 0,
    });
    return true;
  }

  // The last tree refitted on the GPU from pos[from] (tree_refit.ts); false (nothing done) where other bodies
  // were loaded meanwhile. With `wait`, timed from submit to done: the refit's own time where the queue was
  // empty; without, the walk submitted next runs after it in the queue.
  private async refitOnGpu(from: number, generation: number, wait = this.timeStages): Promise<boolean> {
    if (generation !== this.generation || this.n === 0) return false;
    const t0 = performance.now();
    const enc = this.device.createCommandEncoder();
    this.refitter.encode(enc, this.pos[from]);
    this.device.queue.submit([enc.finish()]);
    if (wait) await this.device.queue.onSubmittedWorkDone();
    if (generation !== this.generation) return false;
    this.sinceBuild++;
    const gpuRefitMs = wait ? performance.now() - t0 : 0;
    Object.assign(this.times, { readMs: 0, uploadMs: 0, gpuRefitMs, refitted: true, refittedOnGpu: true, fromWorker: false, treeAge: 0 });
    return true;
  }

  private upload(name: ArrayName, data: Float32Array<ArrayBuffer> | Uint32Array<ArrayBuffer>): void {
    let b = this.arrays.get(name);
    if (!b || b.size < data.byteLength) {
      b?.destroy();
      const size = Math.max(64, Math.ceil((data.byteLength * 1.25) / 16) * 16);
      b = this.device.createBuffer({ size, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC });
      this.arrays.set(name, b);
      this.walkBindGroups.clear();
    }
    // A view on shared memory (the threaded core's) is copied out first: Dawn for node refuses it ("Invalid
    // argument"), and not every browser takes one either.
    const shared = typeof SharedArrayBuffer !== 'undefined' && (data.buffer as ArrayBufferLike) instanceof SharedArrayBuffer;
    this.device.queue.writeBuffer(b, 0, shared ? data.slice() : data);
  }

  private walkBindGroup(from: number): GPUBindGroup {
    let g = this.walkBindGroups.get(from);
    if (!g) {
      const entries: GPUBindGroupEntry[] = [this.pos[1 - from], this.vel, this.acc, this.treeParams].map((buffer, binding) => ({ binding, resource: { buffer } }));
      for (const name of ARRAYS) entries.push({ binding: BINDING[name], resource: { buffer: this.arrays.get(name)! } });
      g = this.device.createBindGroup({ layout: walkPipeline(this.device, this.walkShape).pipeline!.getBindGroupLayout(0), entries });
      this.walkBindGroups.set(from, g);
    }
    return g;
  }

  // One walk over the current tree in `mode` (tree_kernel.ts); modes 1 and 2 write the other position
  // buffer, which is then the current one.
  private walk(p: StepParams, mode: number, useLast: boolean): void {
    const groupsX = Math.min(this.groupCount, MAX_GROUPS_X);
    const u = new ArrayBuffer(48);
    new Uint32Array(u, 0, 2).set([this.n, mode]);
    new Float32Array(u, 8, 4).set([p.eps * p.eps + SELF_INTERACTION_FLOOR, p.G, p.dt / 2, p.dt]);
    new Uint32Array(u, 24, 3).set([useLast ? 1 : 0, this.groupCount, groupsX]);
    this.device.queue.writeBuffer(this.treeParams, 0, u);
    const enc = this.device.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(walkPipeline(this.device, this.walkShape).pipeline!);
    pass.setBindGroup(0, this.walkBindGroup(this.current));
    pass.dispatchWorkgroups(groupsX, Math.ceil(this.groupCount / groupsX));
    pass.end();
    this.device.queue.submit([enc.finish()]);
    if (mode !== 0) {
      this.drawn = this.current;
      this.current = 1 - this.current;
    }
  }

  // A walk submitted; with timeStages waited for and timed (walkMs), else left to the queue.
  private async walkStep(p: StepParams, mode: number, useLast: boolean): Promise<void> {
    const t0 = performance.now();
    this.walk(p, mode, useLast);
    if (!this.timeStages) return;
    await this.device.queue.onSubmittedWorkDone();
    this.times.walkMs = performance.now() - t0;
  }
}
