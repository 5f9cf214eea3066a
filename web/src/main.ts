// The page: the C++ core (WebAssembly) makes the scene, WebGPU steps and draws it, HTML panels edit dt, eps,
// G, steps a frame and the variant (applied at the next frame). Without WebGPU the desktop's CPU backend (in the
// core) steps the bodies and a 2D canvas draws them. window.nbody is what the tests (web/tests) drive.
import { attachControls, OrbitCamera } from './camera';
import { Core, CpuCore, CpuMethod, loadCore, loadCpuCore, SceneOk, ViewControls } from './core';
import { CpuView } from './cpu_view';
import { defaultExposure, exposureFromLink, exposureLink, setUpExposurePanel, showExposure, wireExposurePanel } from './exposure_panel';
import { GpuSim } from './gpu_sim';
import { FLOPS_PER_INTERACTION, Variant, variantByName, VARIANTS } from './kernels';
import { $, readNumber, showError, showFigures, showNote, showRace } from './panels';
import { BodyPlan, directModel, planBodies, probeRate, probeTreeStep, treeModel } from './probe';
import { Renderer } from './renderer';
import { trailLengthFor } from './trails';
import { computeUnits, FixedShape, shapeChooser, ShapeChooser, Units, wantedLimits } from './shape';
import { COLOUR_MODES, ColourMode, formatUrlState, MAX_BODIES, parseUrlState, UrlState } from './url_state';
import { TreeSim } from './tree_sim';
import { TREE_WALK_ON_GPU, treeWalkShapeFor } from './tree_kernel';
import { accelerationErrors, refitErrors, runningTreeErrors, treeAccelerationErrors, treeWalksDiffer } from './verify';
import { drawGuides } from './orbit_guide';
import { hasDarkMatter, showLegend, slotStyles, ViewSettings } from './view_look';

interface Run {
  scene: SceneOk;
  dt: number;
  eps: number;
  G: number;
  stepsPerFrame: number;
  variant: Variant;
  running: boolean;
  time: number;
  e0: number | null;
  energyError: number | null;
  treeError: { median: number; p99: number } | null; // the WebGPU tree's, measured once a few steps in
}

const RATE_KEY = 'nbody-sandbox.interactions-per-s';
const TREE_STEP_KEY = 'nbody-sandbox.gpu-tree-step-s';
const FIRST_SCENE = 'figure8-3'; // what the page opens without a scene in its address
// Without WebGPU: direct summation up to this many bodies (its O(N^2) float64 energy every second too), the
// tree beyond it where it loads more, up to what the 2D canvas draws in a frame.
const CPU_DIRECT_MAX = 2048;
const CPU_TREE_MAX = 32768;
const PROVISIONAL_RATE = 2e8; // SwiftShader's on two cores: a first scene of about 2,000 bodies
// The WebGPU tree's step of TREE_PROBE_BODIES before it is measured: SwiftShader's here, about.
const PROVISIONAL_TREE_STEP = 0.15;

class App {
  camera = new OrbitCamera();
  run!: Run;
  sim: GpuSim | null = null; // the path running: direct summation (GpuSim) or the tree (TreeSim)
  private direct: GpuSim | null = null;
  private tree: TreeSim | null = null;
  gpuTreeStep = 0; // seconds a WebGPU tree step of TREE_PROBE_BODIES takes (0: not measured yet)
  renderer: Renderer | null = null;
  cpu: CpuView | null = null;
  rate = 0; // interactions/s measured at start
  cpuTreeStep = 0; // without WebGPU: seconds a tree step of TREE_PROBE_BODIES takes (0: not measured yet)
  cpuMethod: CpuMethod = 'direct'; // how the forces are found: direct summation or the tree (GPU or CPU)
  url: UrlState = {};
  linkProblems = ''; // the link's bad values, in words: they stay shown when the probe reloads the scene
  readonly controls: ViewControls; // the exposure and glow sliders' ranges and defaults (the desktop window's)
  view: ViewSettings; // the View panel's, kept across scenes
  private stepsWindow = { steps: 0, frames: 0, start: performance.now(), sps: 0, fps: 0 };
  private framePending = false;
  private lastFrame = performance.now();
  firstFrameMs = -1;
  sceneTrails = false; // the trails are on because the scene opened with them (the switch clears it)
  probing = false; // the start-up probe has the GPU: frames neither step nor draw
  settled = false; // the probe is done (and the scene reloaded at its size where needed)
  timings: Record<string, number> = {}; // page milliseconds at each stage of the start, for the tests
  ready = false;

  // units: the compute units the kernel shapes plan for, and why (0: a GPU that runs on the CPU).
  // cpuCore: what steps the bodies without WebGPU (null with it).
  constructor(readonly core: Core, cpuCore: CpuCore | null, readonly device: GPUDevice | null, renderer: Renderer | null, readonly colormap: number[][], readonly shapes: ShapeChooser | null, readonly units: Units | null) {
    const canvas = $<HTMLCanvasElement>('canvas');
    this.controls = core.viewControls();
    this.view = { colour: 'component', showDarkMatter: false, exposure: defaultExposure(this.controls), guide: true, trails: false };
    if (device && shapes) {
      this.sim = this.direct = new GpuSim(device, shapes);
      this.tree = new TreeSim(device, shapes, core, 1, 0.001, treeWalkShapeFor(units?.units === 0));
      this.renderer = renderer;
      if (renderer) renderer.trails.look = this.controls.trails;
    } else {
      this.cpu = new CpuView(core, cpuCore!, canvas, colormap);
    }
    attachControls(canvas, this.camera);
  }

  loadScene(name: string, text = '', bodies = 0): boolean {
    showError('');
    const asked = this.core.sceneBodies(name, text);
    if (!asked.ok) {
      showError(asked.error);
      return false;
    }
    const want = bodies > 0 ? bodies : asked.n;
    const { method, plan } = this.device ? this.gpuPlan(want, bodies > 0) : this.cpuPlan(want, bodies > 0);
    const variant = this.run?.variant ?? variantByName(this.url.variant ?? 'ij')!;
    const refusal = this.shapeRefusal(variant, plan.bodies);
    if (refusal) {
      showError(refusal);
      return false;
    }
    const scene = this.core.loadScene(name, text, plan.bodies);
    if (!scene.ok) {
      showError(scene.error);
      return false;
    }
    showNote(withStepNote(plan.note, scene));
    const keep = this.run;
    this.cpuMethod = method;
    const sim = method === 'tree' ? this.tree : this.direct;
    if (this.sim && sim !== this.sim) this.sim.load(new Float32Array(0), new Float32Array(0)); // its buffers freed
    if (this.device) this.sim = sim;
    this.run = {
      scene, dt: this.url.dt ?? scene.dt, eps: this.url.eps ?? scene.eps, G: this.url.G ?? scene.G,
      stepsPerFrame: scene.stepsPerFrame, variant,
      running: keep?.running ?? true, time: 0, e0: null, energyError: null, treeError: null,
    };
    const trailsLink = this.url.trails; // the link's, for the scene it opens with
    this.url = { variant: this.url.variant, method: this.url.method };
    this.restart();
    const v = scene.view;
    this.camera.setHome(v.target, v.distance, v.yawDeg, v.pitchDeg, v.frameAspect, v.fovY);
    // As the desktop: a scene that opens with trails turns them on, and the next scene without them turns off
    // only what a scene turned on (not what the switch did). A link's trails=on or off is the switch's.
    if (trailsLink) [this.view.trails, this.sceneTrails] = [trailsLink === 'on', false];
    else if (v.trails > 0 && !this.view.trails) [this.view.trails, this.sceneTrails] = [true, true];
    else if (v.trails === 0 && this.sceneTrails) [this.view.trails, this.sceneTrails] = [false, false];
    $('description').textContent = `${scene.name}: ${scene.watch || scene.description}`;
    $('description').title = scene.description;
    this.syncPanels(name);
    return true;
  }

  // With WebGPU: direct summation while it steps the scene in the budget; beyond, the tree where its measured
  // step loads more of the scene (at a typed N, whichever is faster there). method=tree or method=direct in the
  // address decides outright.
  private gpuPlan(want: number, asked: boolean): { method: CpuMethod; plan: BodyPlan } {
    const directRate = directModel(this.rate);
    const direct = planBodies(want, directRate, asked, 'this GPU', MAX_BODIES);
    const forced = this.url.method;
    if (forced === 'direct' || (!forced && direct.bodies === want && !asked)) return { method: 'direct', plan: direct };
    const model = treeModel(this.gpuTreeStep || PROVISIONAL_TREE_STEP);
    const tree = planBodies(want, model, asked, 'this GPU (the tree)', MAX_BODIES);
    const treeWins = tree.bodies > direct.bodies || (tree.bodies === direct.bodies && model.seconds(tree.bodies) < directRate.seconds(direct.bodies));
    return forced === 'tree' || (this.gpuTreeStep > 0 && treeWins) ? { method: 'tree', plan: tree } : { method: 'direct', plan: direct };
  }

  // Without WebGPU: direct summation or the tree, whichever loads more of the scene's bodies in the step budget
  // (the faster at N where N was asked for). The tree is measured the first time a scene is larger than
  // direct summation's cap.
  private cpuPlan(want: number, asked: boolean): { method: CpuMethod; plan: BodyPlan } {
    const direct = planBodies(want, directModel(this.rate), asked, 'the CPU (WebAssembly)', CPU_DIRECT_MAX);
    if (want <= CPU_DIRECT_MAX && direct.bodies === want) return { method: 'direct', plan: direct };
    if (this.cpuTreeStep === 0) this.cpuTreeStep = this.cpu!.probeTreeStep();
    const model = treeModel(this.cpuTreeStep);
    const tree = planBodies(want, model, asked, 'the CPU (WebAssembly, the tree)', CPU_TREE_MAX);
    const treeWins = tree.bodies > direct.bodies ||
      (tree.bodies === direct.bodies && model.seconds(tree.bodies) < directModel(this.rate).seconds(direct.bodies));
    return treeWins ? { method: 'tree', plan: tree } : { method: 'direct', plan: direct };
  }

  // Empty, or why this adapter has no kernel shape for variant v at n bodies (the core's words).
  shapeRefusal(v: Variant, n: number): string {
    try {
      this.shapes?.(v, n);
      return '';
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  }

  // Which path steps the scene, in words, and its kernel: "WebGPU, direct summation in WGSL: ij-unrolled k 4
  // u 4 block 256 q 2", "WebGPU, tree walk in WGSL (the tree built in WebAssembly on 8 threads): tree theta 1
  // ..." (the last tree's threads: a load's first is built on the page's one), or the CPU backend's direct
  // summation or tree in WebAssembly.
  backendName(): string {
    const threads = (n: number) => (n === 1 ? 'one thread' : `${n} threads`);
    if (!this.sim) {
      const how = this.cpuMethod === 'tree' ? 'Barnes-Hut tree' : 'direct summation';
      return `CPU (WebAssembly, ${threads(this.cpu!.runs.threads)}), ${how}: ${this.cpu!.label()}`;
    }
    if (this.sim === this.tree) {
      return `WebGPU, tree walk in WGSL (the tree built in WebAssembly on ${threads(this.tree.times.build?.threads ?? 1)}): ${this.tree.label()}`;
    }
    return `WebGPU, direct summation in WGSL: ${this.sim.shapeFor(this.run.variant).label}`;
  }

  restart(): void {
    const s = this.run.scene;
    this.sim?.load(s.posMass, s.vel);
    this.renderer?.setGroups(s.group);
    this.cpu?.load(s, this.cpuMethod);
    this.run.time = 0;
    this.run.e0 = null;
    this.run.energyError = null;
    this.run.treeError = null;
    setTimeout(() => this.measureEnergy(true), 50);
  }

  syncPanels(name?: string): void {
    const r = this.run;
    if (name && !name.includes('/')) $<HTMLSelectElement>('scene').value = name.replace(/\.toml$/, '');
    for (const id of ['n', 'dt', 'eps', 'G', 'spf']) $(id).classList.remove('bad');
    $<HTMLInputElement>('n').value = String(r.scene.n);
    $<HTMLInputElement>('dt').value = String(r.dt);
    $<HTMLInputElement>('eps').value = String(r.eps);
    $<HTMLInputElement>('G').value = String(r.G);
    $<HTMLInputElement>('spf').value = String(r.stepsPerFrame);
    $<HTMLSelectElement>('variant').value = r.variant.name;
    $('run').textContent = r.running ? 'Pause' : 'Run';
    $('paused').hidden = r.running;
    $<HTMLSelectElement>('colour').value = this.view.colour;
    $<HTMLInputElement>('dark-matter').checked = this.view.showDarkMatter;
    $('dark-matter-row').hidden = !hasDarkMatter(r.scene.look);
    $('guide-row').hidden = r.scene.guides.length === 0;
    $<HTMLInputElement>('guide-switch').checked = this.view.guide;
    $<HTMLInputElement>('trails-switch').checked = this.view.trails;
    $('trails-row').hidden = !this.renderer; // the WebGPU picture draws them; the CPU one does not
    $('trails-note').textContent = this.trailNote();
    showLegend($('legend'), r.scene.look, this.view, this.colormap, r.scene.guides[0]?.label ?? '');
    showExposure(this.view.exposure);
    const state: UrlState = { scene: $<HTMLSelectElement>('scene').value, n: r.scene.n, dt: r.dt, eps: r.eps, variant: r.variant.name };
    if (r.G !== 1) state.G = r.G;
    if (this.url.method) state.method = this.url.method;
    if (this.view.colour !== 'component') state.colour = this.view.colour; // the defaults stay out of the link
    if (this.view.showDarkMatter) state['dark-matter'] = 'show';
    if (this.view.trails !== (r.scene.view.trails > 0)) state.trails = this.view.trails ? 'on' : 'off'; // not the scene's
    Object.assign(state, exposureLink(this.view.exposure, this.controls));
    const query = formatUrlState(state);
    $<HTMLInputElement>('link').value = location.origin + location.pathname + query;
    history.replaceState(null, '', query);
  }

  // Energy from the state read back, in float64 in the core: O(N^2), so only up to 32,768 bodies (2,048 where
  // the CPU also steps them).
  async measureEnergy(first = false): Promise<void> {
    const r = this.run;
    // The tree's accelerations against float64 direct summation, once a few steps in (O(N^2) in the core as the
    // energy, so up to 16,384 bodies).
    if (this.sim instanceof TreeSim && !r.treeError && r.scene.n <= 16384 && r.time >= 3 * r.dt) {
      const e = await runningTreeErrors(this.core, this.sim, r.eps, r.G);
      if (r === this.run) r.treeError = e;
    }
    if (r.scene.n > (this.device ? 32768 : CPU_DIRECT_MAX)) return;
    const s = this.sim ? await this.sim.readState() : this.cpu!.state();
    if (r !== this.run) return;
    const e = this.core.energy(s.pos, s.vel, r.eps, r.G).total;
    if (first || r.e0 === null) r.e0 = e;
    else r.energyError = Math.abs((e - r.e0) / r.e0);
  }

  // The tree's steps finish asynchronously (each reads the positions back): the promise says when.
  stepOnce(steps: number): Promise<void> {
    const r = this.run;
    const p = { dt: r.dt, eps: r.eps, G: r.G };
    r.time += steps * r.dt;
    this.stepsWindow.steps += steps;
    if (!this.sim) {
      this.cpu!.step(steps, p);
      return Promise.resolve();
    }
    return Promise.resolve(this.sim.step(r.variant, p, steps)).catch((e) => {
      r.running = false;
      showError(`The step failed: ${e instanceof Error ? e.message : String(e)}`);
    });
  }

  // One frame's GPU work (its steps and its drawing) in flight at a time: a slow GPU (SwiftShader) gets fewer
  // frames, never a growing queue, and the page stays responsive.
  frame(now: number): void {
    requestAnimationFrame((t) => this.frame(t));
    if (this.framePending || this.probing) return;
    const w = this.stepsWindow;
    // Until the step kernel has compiled, frames draw without stepping. It starts compiling once the first
    // frame is on the screen: on SwiftShader a compile in flight holds back the frame queued behind it (first
    // frame 6.4-8.8 s after opening with it, 2.1-2.3 s without, under a load of 13 on two cores).
    const compiled = !this.sim || this.sim.ready(this.run.variant);
    if (!compiled && this.firstFrameMs >= 0) void this.sim!.prepare(this.run.variant);
    const stepped = this.run.running && compiled ? this.stepOnce(this.run.stepsPerFrame) : null;
    this.camera.update(Math.min(0.1, (now - this.lastFrame) / 1000));
    this.lastFrame = now;
    this.draw();
    w.frames++;
    if (now - w.start > 1000) {
      w.sps = (w.steps * 1000) / (now - w.start);
      w.fps = (w.frames * 1000) / (now - w.start);
      Object.assign(w, { steps: 0, frames: 0, start: now });
      void this.measureEnergy();
    }
    showFigures({ n: this.run.scene.n, time: this.run.time, stepsPerSecond: w.sps, framesPerSecond: w.fps, energyError: this.run.energyError, backend: this.backendName(),
      treeError: this.sim instanceof TreeSim ? this.run.treeError : undefined });
    if (this.device) {
      this.framePending = true;
      Promise.all([stepped, this.device.queue.onSubmittedWorkDone()]).then(() => {
        this.framePending = false;
        if (this.firstFrameMs < 0) this.firstFrameMs = performance.now();
      });
    } else if (this.firstFrameMs < 0) this.firstFrameMs = performance.now();
  }

  // The trails' samples a body asked for: the scene's, else the desktop's default.
  private trailAsk(): number {
    return this.run.scene.view.trails || this.controls.trails.length;
  }

  // The samples a body drawn: as asked, at most what one storage binding holds.
  trailLength(): number {
    const limits = this.device?.limits;
    const bytes = limits ? Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize) : 0;
    return trailLengthFor(this.run.scene.n, this.trailAsk(), bytes);
  }

  // Why the trails are shorter than asked, or off, at this N (empty when they are as asked).
  trailNote(): string {
    if (!this.view.trails) return '';
    const asked = this.trailAsk(), got = this.trailLength();
    if (got === asked) return '';
    return got === 0 ? `no trails at ${this.run.scene.n} bodies: two samples a body do not fit in one GPU buffer`
      : `${got} samples a body (of ${asked}): as many as fit in one GPU buffer at ${this.run.scene.n} bodies`;
  }

  draw(): void {
    const canvas = $<HTMLCanvasElement>('canvas');
    const dpr = Math.min(window.devicePixelRatio || 1, 2);
    const w = Math.max(1, Math.round(canvas.clientWidth * dpr)), h = Math.max(1, Math.round(canvas.clientHeight * dpr));
    if (canvas.width !== w || canvas.height !== h) Object.assign(canvas, { width: w, height: h });
    const v = this.run.scene.view;
    // The desktop's sprite size and light a body (src/render/particle_renderer.cpp): size 3 (1e5 / N)^(1/4) px
    // within 1..8, light 0.6 sqrt(1e4 / N) within 0.02..1.5 (a sprite under 2 px carries a 2-px one's light).
    const n = Math.max(1, this.run.scene.n);
    const size = Math.min(8, Math.max(1, 3 * Math.pow(1e5 / n, 0.25)));
    const small = size < 2 ? 4 / Math.max(size * size, 0.25) : 1;
    const params = {
      view: this.camera.view(), proj: this.camera.projection(w / h),
      pointSize: size * dpr, targetDistance: v.distance, intensity: small * Math.min(1.5, Math.max(0.02, 0.6 * Math.sqrt(1e4 / n))),
      colourBySpeed: this.view.colour === 'speed', speedSpan: this.run.scene.look.topSpeed, toneMap: this.run.scene.look.toneMap, exposure: this.view.exposure,
      slots: slotStyles(this.run.scene.look, this.view), minSpritePx: this.run.scene.look.minSpritePx * dpr,
      trailLength: this.view.trails ? this.trailLength() : 0, time: this.run.time,
    };
    if (this.renderer && this.sim) this.renderer.draw(this.sim.positionsBuffer(), this.sim.velocitiesBuffer(), this.sim.n, params);
    else this.cpu?.draw(params, w, h);
    drawGuides($<HTMLCanvasElement>('guide'), this.run.scene.guides, params.view, params.proj, this.run.time, this.view.guide, dpr, w, h);
  }

  // After the first frame: the adapter's rate, and the scene at the size it plans (unless N was asked for).
  async measureAdapter(asked: boolean): Promise<void> {
    while (this.firstFrameMs < 0) await new Promise((r) => setTimeout(r, 20));
    this.probing = true;
    await this.device!.queue.onSubmittedWorkDone();
    const guess = this.rate;
    this.rate = await probeRate(this.device!, this.core, this.shapes!);
    localStorage.setItem(RATE_KEY, String(this.rate));
    // The tree is measured where it may run: the scene larger than direct summation steps in the budget, or
    // the tree asked for.
    const want = this.core.sceneBodies($<HTMLSelectElement>('scene').value, '');
    const treeMayWin = want.ok && planBodies(want.n, directModel(this.rate), false, '', MAX_BODIES).bodies < want.n;
    let treeChoice = false;
    if (this.url.method === 'tree' || (treeMayWin && this.url.method !== 'direct')) {
      this.gpuTreeStep = await probeTreeStep(this.device!, this.core, this.shapes!, this.tree!.walkShape);
      localStorage.setItem(TREE_STEP_KEY, String(this.gpuTreeStep));
      treeChoice = !asked && want.ok && this.gpuPlan(want.n, false).method !== this.cpuMethod;
    }
    this.probing = false;
    const ratio = this.rate / guess;
    if (!asked && (ratio > 4 || ratio < 0.25 || treeChoice)) { // the planned N goes as sqrt(rate): more than 2x off
      const r = this.run;
      this.url = { dt: r.dt, eps: r.eps, G: r.G, variant: r.variant.name, method: this.url.method };
      if (this.loadScene($<HTMLSelectElement>('scene').value) && this.linkProblems) showError(this.linkProblems);
    } else if (!asked) {
      // The same size: a reduced scene's note gets the measured rate's figures.
      if (want.ok && this.run.scene.n < want.n) {
        const note = this.gpuPlan(want.n, false).plan.note;
        showNote(withStepNote(note.replace(/^Loaded with [\d,]+/, `Loaded with ${this.run.scene.n.toLocaleString('en')}`), this.run.scene));
      }
    }
  }

  // Each variant on a copy of the scene for about a second: interactions/s as bars.
  async race(): Promise<void> {
    if (!this.device) return showError('The race needs WebGPU.');
    const results: { label: string; rate: number }[] = [];
    const s = this.run.scene, p = { dt: this.run.dt, eps: this.run.eps, G: this.run.G };
    this.probing = true; // the frames wait: the race has the GPU to itself
    try {
      await this.raceVariants(s, p, results);
    } finally {
      this.probing = false;
    }
  }

  private async raceVariants(s: SceneOk, p: { dt: number; eps: number; G: number }, results: { label: string; rate: number }[]): Promise<void> {
    await this.device!.queue.onSubmittedWorkDone();
    for (const v of VARIANTS) {
      const device = this.device!;
      const sim = new GpuSim(device, this.shapes!);
      sim.load(s.posMass, s.vel);
      sim.step(v, p, 1);
      await device.queue.onSubmittedWorkDone();
      let steps = 0;
      const t0 = performance.now();
      while (performance.now() - t0 < 1000 && steps < 1000) {
        sim.step(v, p, 4); // a few steps a wait, so the wait's latency does not dominate at small N
        await device.queue.onSubmittedWorkDone();
        steps += 4;
      }
      results.push({ label: v.label, rate: (s.n * s.n * steps * 1000) / (performance.now() - t0) });
      sim.destroy();
      showRace(results);
    }
  }
}

async function readColormap(): Promise<number[][]> {
  const text = await (await fetch('colormaps/ember.txt')).text();
  return text.split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.trim().split(/\s+/).map(Number));
}

async function requestDevice(): Promise<{ device: GPUDevice | null; adapter: GPUAdapter | null; why: string }> {
  if (!('gpu' in navigator)) return { device: null, adapter: null, why: 'This browser has no WebGPU.' };
  const adapter = await navigator.gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) return { device: null, adapter, why: 'WebGPU is present but found no GPU adapter (it may be switched off or blocked for this GPU).' };
  const device = await adapter.requestDevice({ requiredLimits: wantedLimits(adapter.limits) });
  device.addEventListener('uncapturederror', (e) => {
    const msg = (e as GPUUncapturedErrorEvent).error.message;
    console.error(`WebGPU: ${msg}`);
    showError(`WebGPU: ${msg}`);
  });
  return { device, adapter, why: '' };
}

async function start(): Promise<void> {
  const timings: Record<string, number> = {};
  // The core (download and compile), the colour map and the GPU are fetched side by side, and the render
  // pipelines compile while the core loads. Each stage's end is kept for the tests.
  const mark = <T>(stage: string, p: Promise<T>) => p.then((v) => ((timings[stage] = performance.now()), v));
  const colormapLoad = readColormap(), gpuLoad = mark('device', requestDevice());
  const rendererLoad = mark('renderer', Promise.all([gpuLoad, colormapLoad]).then(([{ device }, colormap]) =>
    device ? Renderer.create(device, $<HTMLCanvasElement>('canvas').getContext('webgpu')!, colormap).then((r) => (r.warmUp(), r)) : null));
  // The scene code's first call compiles it (0.3 s): done on a few bodies while the GPU may still be starting.
  const coreLoad = mark('core', loadCore()).then((core) => {
    core.loadScene(new URLSearchParams(location.search).get('scene') ?? FIRST_SCENE, '', 64);
    return core;
  });
  const [core, colormap, gpu, renderer] = await Promise.all([coreLoad, colormapLoad, gpuLoad, rendererLoad]);
  const { device, adapter, why } = gpu;
  const units = adapter ? computeUnits(core, adapter.info) : null;
  const shapes = device && units ? shapeChooser(core, device.limits, units.units) : null;
  // Without WebGPU the CPU steps the bodies: on threads where the page may have them (a second module).
  const cpuCore = device ? null : await mark('cpu threads', loadCpuCore(core));
  const app = new App(core, cpuCore, device, renderer, colormap, shapes, units);
  if (!device) {
    const b = $('banner');
    b.hidden = false;
    b.textContent = `${why} Running the C++ core on the CPU (WebAssembly) with fewer bodies. For the GPU: Chrome or Edge 113+ (Windows, macOS, ChromeOS, Android), Safari 26+, or Firefox 141+ on Windows; on Linux, Chrome with chrome://flags/#enable-unsafe-webgpu and #enable-vulkan switched on.`;
  }
  // The first frame does not wait for the probe: the scene opens at the rate this browser measured last
  // time (or a slow GPU's), and is reloaded at the measured rate's size when that differs by more than 2x.
  app.rate = device ? Number(localStorage.getItem(RATE_KEY)) || PROVISIONAL_RATE : app.cpu!.probeRate();
  app.gpuTreeStep = device ? Number(localStorage.getItem(TREE_STEP_KEY)) || 0 : 0;
  const sceneSelect = $<HTMLSelectElement>('scene');
  sceneSelect.innerHTML = core.sceneNames().map((n) => `<option>${n}</option>`).join('');
  $<HTMLSelectElement>('variant').innerHTML = VARIANTS.map((v) => `<option value="${v.name}">${v.label}</option>`).join('');
  $<HTMLSelectElement>('colour').innerHTML = COLOUR_MODES.map((m) => `<option>${m}</option>`).join('');
  const parsed = parseUrlState(location.search, (k, v) => core.paramProblem(k, v), VARIANTS.map((v) => v.name));
  app.url = parsed.state;
  app.view = { colour: parsed.state.colour ?? 'component', showDarkMatter: parsed.state['dark-matter'] === 'show', exposure: exposureFromLink(parsed.state, app.controls), guide: true, trails: false };
  setUpExposurePanel(app.controls);
  $('exposure-controls').hidden = !device; // the 2D canvas without WebGPU has no tone map
  const name = parsed.state.scene ?? FIRST_SCENE;
  if (!app.loadScene(name, '', parsed.state.n ?? 0)) app.loadScene(FIRST_SCENE);
  timings.scene = performance.now();
  app.timings = timings;
  app.linkProblems = parsed.problems.map((p) => p.message).join('\n');
  if (app.linkProblems) showError(app.linkProblems);
  wirePanels(app);
  requestAnimationFrame((t) => app.frame(t));
  Object.assign(window, { nbody: testApi(app) });
  app.ready = true;
  if (device) await app.measureAdapter(parsed.state.n !== undefined);
  timings.probe = performance.now();
  app.settled = true;
}

// The load plan's note, then why the step is not the scene's own (a scene made for block steps).
function withStepNote(note: string, scene: SceneOk): string {
  return [note, scene.stepNote].filter((t) => t).join(' ');
}

function wirePanels(app: App): void {
  const check = (name: string) => (v: number) => app.core.paramProblem(name, v);
  const num = (id: string, apply: (v: number) => void) => $(id).addEventListener('change', () => {
    const v = readNumber(id, check(id === 'spf' ? 'steps_per_frame' : id));
    if (v === null) return;
    showError('');
    apply(v);
    app.sim?.reprime();
    app.syncPanels();
  });
  num('dt', (v) => (app.run.dt = v));
  num('eps', (v) => { app.run.eps = v; app.run.e0 = null; });
  num('G', (v) => { app.run.G = v; app.run.e0 = null; });
  num('spf', (v) => (app.run.stepsPerFrame = v));
  $('colour').addEventListener('change', () => {
    app.view.colour = $<HTMLSelectElement>('colour').value as ColourMode; // its options are COLOUR_MODES
    app.syncPanels();
  });
  $('trails-switch').addEventListener('change', () => {
    app.view.trails = $<HTMLInputElement>('trails-switch').checked;
    app.sceneTrails = false;
    app.syncPanels();
  });
  $('guide-switch').addEventListener('change', () => {
    app.view.guide = $<HTMLInputElement>('guide-switch').checked;
    app.syncPanels();
  });
  $('dark-matter').addEventListener('change', () => {
    app.view.showDarkMatter = $<HTMLInputElement>('dark-matter').checked;
    app.syncPanels();
  });
  wireExposurePanel(() => app.view.exposure, (e, released) => {
    app.view.exposure = e;
    if (released) app.syncPanels();
    else showExposure(e);
  });
  $('variant').addEventListener('change', () => {
    const v = variantByName($<HTMLSelectElement>('variant').value)!;
    const refusal = app.shapeRefusal(v, app.run.scene.n);
    if (refusal) showError(refusal);
    else app.run.variant = v;
    app.syncPanels();
  });
  $('load').addEventListener('click', () => app.loadScene($<HTMLSelectElement>('scene').value, '', Number($<HTMLInputElement>('n').value) || 0));
  $('scene').addEventListener('change', () => app.loadScene($<HTMLSelectElement>('scene').value));
  $('load-text').addEventListener('click', () => app.loadScene('scene text', $<HTMLTextAreaElement>('scene-text').value));
  $('reset').addEventListener('click', () => { app.restart(); app.camera.reset(); });
  $('run').addEventListener('click', () => { app.run.running = !app.run.running; app.syncPanels(); });
  $('step').addEventListener('click', () => { app.run.running = false; app.stepOnce(1); app.syncPanels(); });
  $('race').addEventListener('click', () => void app.race());
  window.addEventListener('keydown', (e) => {
    if ((e.target as HTMLElement).tagName === 'INPUT' || (e.target as HTMLElement).tagName === 'TEXTAREA') return;
    if (e.key === ' ') { app.run.running = !app.run.running; app.syncPanels(); e.preventDefault(); }
    if (e.key === 'r') { app.restart(); }
  });
}

// What web/tests drive: state, steps, forces against the float64 reference.
function testApi(app: App) {
  return {
    app,
    firstFrameMs: () => app.firstFrameMs,
    settled: () => app.settled,
    timings: () => app.timings,
    rate: () => app.rate,
    backend: () => app.backendName(),
    shape: (variant: string) => app.sim!.shapeFor(variantByName(variant)!),
    scene: () => ({ name: app.run.scene.name, n: app.run.scene.n, dt: app.run.dt, eps: app.run.eps, G: app.run.G, variant: app.run.variant.name, time: app.run.time }),
    async stepAndRead(steps: number) {
      app.run.running = false;
      app.syncPanels();
      await app.stepOnce(steps);
      return app.sim ? app.sim.readState() : app.cpu!.state();
    },
    // `fixed`: another shape than the chosen one (k, u, block, q; q = 0 chosen), checked by the same rules.
    async forceErrors(variant: string, n: number, eps: number, fixed?: FixedShape) {
      const shapes = fixed ? shapeChooser(app.core, app.device!.limits, app.units!.units, fixed) : app.shapes!;
      return accelerationErrors(app.device!, app.core, variantByName(variant)!, n, eps, shapes);
    },
    // The WGSL tree's forces against the float64 reference: median and 99th-percentile relative errors;
    // `walkOnGpu`: the walk's shape for a real GPU whatever the adapter (SwiftShader runs the CPU's).
    async treeForceErrors(n: number, eps: number, theta?: number, alpha?: number, walkOnGpu?: boolean) {
      const walk = walkOnGpu ? TREE_WALK_ON_GPU : treeWalkShapeFor(app.units?.units === 0);
      return treeAccelerationErrors(app.device!, app.core, app.run.variant, n, eps, app.shapes!, theta, alpha, walk);
    },
    // The real GPU's walk shape with its lists by every lane against the same by lane 0 (verify.ts).
    async treeWalksDiffer(n: number, eps: number) {
      return treeWalksDiffer(app.device!, app.core, app.run.variant, n, eps, app.shapes!, TREE_WALK_ON_GPU, { ...TREE_WALK_ON_GPU, everyLane: false });
    },
    // The GPU refit's walk rows against the WebAssembly refit's (verify.ts).
    async refitErrors(scene: string, n: number, drift: number) {
      return refitErrors(app.device!, app.core, app.run.variant, app.shapes!, scene, n, drift);
    },
    // The running tree path's last accelerations against float64 (null on another path).
    async runningTreeErrors() {
      return app.sim instanceof TreeSim ? runningTreeErrors(app.core, app.sim, app.run.eps, app.run.G) : null;
    },
    // The tree path's stages in the last step (milliseconds; the build's in seconds, from WebAssembly).
    treeTimes: () => (app.sim instanceof TreeSim ? app.sim.times : null),
    flopsPerInteraction: FLOPS_PER_INTERACTION,
  };
}

start().catch((e) => showError(`The page could not start: ${e instanceof Error ? e.message : String(e)}`));
