// The C++ core in WebAssembly (web/core/nbody_web.cpp, built from the desktop's sources by web/core/build.sh):
// the types the page sees, and its loading (dist/nbody_core.js, a classic script with the wasm inside).

import { KernelShape } from './kernels';
import { OrbitGuide } from './orbit_guide';

export interface HomeView {
  radius: number; // holds 90% of the bodies about the centre of mass (the desktop's framing_radius)
  fovY: number; // radians
  target: number[];
  distance: number;
  yawDeg: number;
  pitchDeg: number;
  frameAspect: number; // width over height of what the home view keeps whole: 1 for a sphere, more for a scene's frame box
  trails: number; // samples a body the scene opens its trails with ([camera] trails; 0: none)
}

// How the desktop's window draws the scene (web/core/look_web.cpp, from the desktop's sources).
export interface GroupLook {
  name: string; // the legend's words ("first disk", "first halo")
  kind: string; // disk, bulge, halo, star, planet, intruder, cluster or galaxy
  darkMatter: boolean;
  colour: number[]; // linear RGB
}
// The desktop's tone map (web/core/tone_map_web.cpp): light in sprites, one body's peak light being 1.
export interface ToneMapLook {
  kneeSprites: number; // where the asinh curve turns from linear to logarithmic
  whiteOverMeasured: number; // white at this times the frame's brightest measured texel
  adaptPerFrame: number; // share of the stored measurement replaced a frame
  measureTexels: number; // the measured mip level is at most this many texels across
  tileTexels: number; // the first reduction's tiles, this many texels square
  litFloorSprites: number; // a pixel's light below this is empty sky
  minWhiteSprites: number; // white is at least this deep (1.25 for a few bodies, else 8)
  background: number[]; // linear RGB of the empty sky
}
// The desktop window's exposure and glow controls (web/core/view_controls_web.cpp): a slider's ends, its
// default (value) and words; the core's paramProblem checks a value against them.
export interface ControlRange {
  lo: number;
  hi: number;
  value: number;
  unit: string;
  help: string;
}
export interface ViewControls {
  autoExposure: boolean; // on by default
  exposureEv: ControlRange; // the automatic exposure's stops brighter (+) or darker (-) than measured
  exposure: ControlRange; // a fixed exposure: light 1 / exposure is white
  glow: ControlRange; // the bloom's weight
  trails: TrailLook; // the desktop's TrailSettings
}
export interface TrailLook {
  length: number; // samples a body
  stride: number; // frames in which the bodies moved between two samples
  brightness: number; // the newest point's light relative to a sprite's centre
}
export interface SceneLook {
  groups: GroupLook[]; // one a colour group
  slots: { colour: number[]; darkMatter: boolean }[]; // the 8 the sprites take by group % 8
  darkMatterLight: number; // the share of its light dark matter keeps while dimmed
  topSpeed: number; // speed at the top of the colour map (scene units)
  speedBar: { title: string; left: string; right: string; unit: string }; // in the scene's units where declared
  minSpritePx: number; // the smallest sprite; above 1 (a few bodies) every sprite at full light
  toneMap: ToneMapLook;
}

export interface SceneOk {
  ok: true;
  name: string;
  description: string;
  watch: string;
  source: string;
  dt: number;
  // Why dt is not the scene's own (a scene made for block steps or the automatic step), else empty.
  stepNote: string;
  eps: number;
  G: number;
  stepsPerFrame: number;
  method: 'direct' | 'tree';
  n: number;
  sceneBodies: number;
  posMass: Float32Array<ArrayBuffer>;
  vel: Float32Array<ArrayBuffer>;
  group: Uint32Array<ArrayBuffer>;
  view: HomeView;
  look: SceneLook;
  guides: OrbitGuide[]; // a choreography's exact eight (orbit_guide.ts); empty for other scenes
}
export type SceneResult = SceneOk | { ok: false; error: string };

export interface ParamInfo {
  lo: number;
  hi: number;
  zeroMeans: string;
  unit: string;
  help: string;
  range: string;
}

// The desktop's CPU backend (leap-frog on direct summation or the tree) on the module's threads (CpuCore); step
// returns '' or why it did not step.
export type CpuMethod = 'direct' | 'tree';

export interface CpuRun {
  step(steps: number, dt: number, eps: number, G: number): string;
  positions(): Float32Array<ArrayBuffer>;
  velocities(): Float32Array<ArrayBuffer>;
  time(): number;
  label(): string;
  delete(): void;
}

// The desktop's CPU tree build for the WGSL walk (web/core/tree_web.cpp); build returns '' or why not. The
// arrays are views on WebAssembly memory, valid until the next call into the core.
export interface TreeBuildStats {
  bodies: number;
  cells: number;
  groups: number;
  depth: number;
  refitted: boolean;
  box: number; // seconds a stage
  keys: number;
  sort: number;
  build: number;
  multipoles: number;
  copy: number; // the bodies in and the flat arrays out
  threads: number; // the build's threads (1 without WebAssembly threads)
}

export interface TreeBuild {
  build(posMass: Float32Array<ArrayBuffer>, refit: boolean): string;
  cells(): Uint32Array<ArrayBuffer>;
  moments(): Float32Array<ArrayBuffer>;
  sorted(): Float32Array<ArrayBuffer>;
  order(): Uint32Array<ArrayBuffer>;
  groups(): Uint32Array<ArrayBuffer>;
  levels(): Uint32Array<ArrayBuffer>; // first cell of each level, then the cell count
  centres(): Float32Array<ArrayBuffer>; // 4 f32 a cell: geometric centre and side
  stats(): TreeBuildStats;
  label(): string;
  delete(): void;
}

export interface Core {
  sceneNames(): string[];
  sceneBodies(name: string, text: string): { ok: true; n: number; method: 'direct' | 'tree' } | { ok: false; error: string };
  loadScene(name: string, text: string, bodies: number): SceneResult;
  paramProblem(name: string, value: number): string;
  paramInfo(name: string): ParamInfo | null;
  viewControls(): ViewControls;
  referenceAccelerations(posMass: Float32Array<ArrayBuffer>, eps: number, G: number): Float64Array<ArrayBuffer>;
  energy(posMass: Float32Array<ArrayBuffer>, vel: Float32Array<ArrayBuffer>, eps: number, G: number): { kinetic: number; potential: number; total: number };
  kernelShape(variant: string, n: number, limits: object, k: number, u: number, block: number, q: number): (KernelShape & { ok: true }) | { ok: false; error: string };
  gpuUnits(description: string): number;
  TreeBuild: new (theta: number, alpha: number) => TreeBuild;
  CpuRun: new (posMass: Float32Array<ArrayBuffer>, vel: Float32Array<ArrayBuffer>, precision: 'fp32' | 'ds' | 'fp64', method: CpuMethod) => CpuRun;
}

// The CPU work on threads: the CPU backend and the tree build, from nbody_threads.js (the same sources compiled
// with -pthread, web/core/build.sh) where the page is cross-origin isolated (SharedArrayBuffer needs it: the
// COOP and COEP headers web/serve.py sends), else the core's own on one thread.
export interface CpuCore {
  CpuRun: Core['CpuRun'];
  TreeBuild: Core['TreeBuild'];
  threads: number;
}
export interface ThreadsOptions {
  threads: number; // the pool's workers, made before the module is ready (web/core/threads_web.hpp)
  mainScriptUrlOrBlob?: string; // where its workers load it from: needed in a worker, which has no <script>
}

declare global {
  interface Window {
    createNbodyCore?: () => Promise<Core>;
    createNbodyThreads?: (o: ThreadsOptions) => Promise<CpuCore>;
  }
}

// Threads the CPU work may take here: the logical cores (at most 16) where SharedArrayBuffer exists, else 1.
export function cpuThreads(): number {
  const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
  return isolated ? Math.max(1, Math.min(16, navigator.hardwareConcurrency || 1)) : 1;
}

function loadScript(url: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const s = document.createElement('script');
    s.src = url;
    s.onload = () => resolve();
    s.onerror = () => reject(new Error(`could not load ${url}`));
    document.head.appendChild(s);
  });
}

export async function loadCore(url = 'nbody_core.js'): Promise<Core> {
  if (!window.createNbodyCore) await loadScript(url);
  return window.createNbodyCore!();
}

// The threaded module, or why not within `seconds` (a file that did not load; a pool worker whose script
// failed never reports, so the wait is bounded).
export function loadThreads(load: () => Promise<CpuCore>, threads: number, seconds = 15): Promise<CpuCore> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${seconds} s`)), seconds * 1000);
  });
  return Promise.race([load(), late])
    .then((m) => ({ CpuRun: m.CpuRun, TreeBuild: m.TreeBuild, threads }))
    .finally(() => clearTimeout(timer));
}

// The threaded CPU work where the page may have more than one thread (`load` makes it with that many), else,
// or where it does not load (said in the console, after `who`), `single` on one thread.
export async function threadsOr(load: (threads: number) => Promise<CpuCore>, single: () => Promise<CpuCore>, who: string): Promise<CpuCore> {
  const threads = cpuThreads();
  if (threads > 1) {
    try {
      return await loadThreads(() => load(threads), threads);
    } catch (e) {
      console.warn(`${who}: WebAssembly threads did not load (${e instanceof Error ? e.message : String(e)}): the CPU work runs on one thread`);
    }
  }
  return single();
}

// The page's CPU work: the threaded module, or the core's own on one thread.
export function loadCpuCore(core: Core): Promise<CpuCore> {
  return threadsOr(
    async (threads) => {
      if (!window.createNbodyThreads) await loadScript('nbody_threads.js');
      return window.createNbodyThreads!({ threads });
    },
    async () => ({ CpuRun: core.CpuRun, TreeBuild: core.TreeBuild, threads: 1 }),
    'the page',
  );
}
