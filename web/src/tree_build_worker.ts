// The tree path's build off the page's main thread (a classic Web Worker, dist/tree_build_worker.js): its own
// instance of the core (dist/nbody_core.js, a classic script: importScripts, which a module worker lacks) runs
// the desktop's CPU tree build (web/core/tree_web.cpp) on the positions the page posts and posts back the flat
// arrays TreeSim uploads, transferred. A build of 1M bodies takes longer than a GPU's step (173 ms on one host
// thread against the H200's walk in milliseconds); on the main thread it stopped the frames for that long.
import type { Core, TreeBuild } from './core';
import type { TreeBuildReply, TreeBuildRequest } from './tree_builder';

declare function importScripts(...urls: string[]): void;
declare const createNbodyCore: () => Promise<Core>;

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<TreeBuildRequest>) => void) | null;
  postMessage(message: TreeBuildReply, transfer: Transferable[]): void;
};

let core: Promise<Core> | null = null;
const trees = new Map<string, TreeBuild>(); // one a pair of opening tests: its buffers kept between builds

// Requests are answered in order: each waits for the core, then builds at once (a build is synchronous).
let queue: Promise<void> = Promise.resolve();

scope.onmessage = (e) => {
  const r = e.data;
  queue = queue.then(() => answer(r));
};

async function answer(r: TreeBuildRequest): Promise<void> {
  try {
    if (!core) {
      importScripts('nbody_core.js');
      core = createNbodyCore();
    }
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
