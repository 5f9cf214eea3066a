// The tree path's build off the page's main thread (a classic Web Worker, dist/tree_build_worker.js): its own
// instance of the core (a classic script: importScripts, which a module worker lacks) runs the desktop's CPU
// tree build (web/core/tree_web.cpp) on the positions the page posts and posts back the flat arrays TreeSim
// uploads, transferred. A build of 1M bodies takes longer than a GPU's step (173 ms on one host thread against
// the H200's walk in milliseconds); on the main thread it stopped the frames for that long. Where the page is
// cross-origin isolated the build runs on every core (dist/nbody_threads.js, whose workers this one starts),
// else on this thread (dist/nbody_core.js).
import { threadsOr } from './core';
import type { CpuCore, ThreadsOptions, TreeBuild } from './core';
import type { TreeBuildReply, TreeBuildRequest } from './tree_builder';

declare function importScripts(...urls: string[]): void;
declare const createNbodyCore: () => Promise<CpuCore>;
declare const createNbodyThreads: (o: ThreadsOptions) => Promise<CpuCore>;

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<TreeBuildRequest>) => void) | null;
  postMessage(message: TreeBuildReply, transfer: Transferable[]): void;
};

let core: Promise<CpuCore> | null = null;
const trees = new Map<string, TreeBuild>(); // one a pair of opening tests: its buffers kept between builds

// Requests are answered in order: each waits for the core, then builds at once (a build is synchronous).
let queue: Promise<void> = Promise.resolve();

scope.onmessage = (e) => {
  const r = e.data;
  queue = queue.then(() => answer(r));
};

async function answer(r: TreeBuildRequest): Promise<void> {
  try {
    if (!core) core = loadCore();
    const c = await core;
    const key = `${r.theta} ${r.alpha}`;
    let tree = trees.get(key);
    if (!tree) trees.set(key, (tree = new c.TreeBuild(r.theta, r.alpha)));
    const problem = tree.build(r.pos, false);
    if (problem) throw new Error(problem);
    // Copies out of WebAssembly memory (views on it), each then handed over whole.
    const arrays = {
      cells: tree.cells().slice(), moments: tree.moments().slice(), sorted: tree.sorted().slice(), order: tree.order().slice(),
      groups: tree.groups().slice(), levels: tree.levels().slice(), centres: tree.centres().slice(),
    };
    scope.postMessage({ id: r.id, stats: tree.stats(), arrays, problem: '' }, Object.values(arrays).map((a) => a.buffer));
  } catch (err) {
    scope.postMessage({ id: r.id, stats: null, arrays: null, problem: String(err) }, []);
  }
}

// The threaded module where the page may have threads, else (or where it does not load) the core on this
// thread.
function loadCore(): Promise<CpuCore> {
  return threadsOr(
    async (threads) => {
      importScripts('nbody_threads.js');
      // Its workers load the same script: a worker has no <script> element for emscripten to find it by.
      return createNbodyThreads({ threads, mainScriptUrlOrBlob: new URL('nbody_threads.js', location.href).href });
    },
    async () => {
      importScripts('nbody_core.js');
      return createNbodyCore();
    },
    'tree build worker',
  );
}
