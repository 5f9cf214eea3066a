// The page's side of the tree build worker (tree_build_worker.ts): one worker for the page, started at the
// first request (a run that never builds past its first tree loads no second core), its replies matched to
// requests by id.
import type { TreeBuildStats } from './core';

export interface TreeBuildRequest {
  id: number;
  theta: number;
  alpha: number;
  pos: Float32Array<ArrayBuffer>; // 4 f32 a body: position and mass
}

// The arrays TreeSim uploads for the walk and the GPU refit, as TreeBuild returns them.
export interface BuiltTree {
  cells: Uint32Array<ArrayBuffer>;
  moments: Float32Array<ArrayBuffer>;
  sorted: Float32Array<ArrayBuffer>;
  order: Uint32Array<ArrayBuffer>;
  groups: Uint32Array<ArrayBuffer>;
  levels: Uint32Array<ArrayBuffer>;
  centres: Float32Array<ArrayBuffer>;
}

export interface TreeBuildReply {
  id: number;
  stats: TreeBuildStats | null;
  arrays: BuiltTree | null;
  problem: string; // '' or why there is no tree
}

// Workers exist in browsers; Dawn for node (web/device/bench.ts) has none, and builds on its one thread.
export const WORKERS = typeof Worker !== 'undefined';

let worker: Worker | null = null;
let nextId = 0;
const waiting = new Map<number, (r: TreeBuildReply) => void>();

// The tree of `pos` (transferred: the caller's array is emptied), built in the worker.
export function buildInWorker(pos: Float32Array<ArrayBuffer>, theta: number, alpha: number): Promise<TreeBuildReply> {
  if (!worker) {
    // Next to the page's app.js in dist/; a classic worker, so that it can importScripts the core's loader.
    worker = new Worker('tree_build_worker.js');
    worker.onmessage = (e: MessageEvent<TreeBuildReply>) => {
      const done = waiting.get(e.data.id);
      waiting.delete(e.data.id);
      done?.(e.data);
    };
    worker.onerror = (e) => {
      for (const [id, done] of waiting) done({ id, stats: null, arrays: null, problem: `tree build worker: ${e.message}` });
      waiting.clear();
    };
  }
  const id = ++nextId;
  const request: TreeBuildRequest = { id, theta, alpha, pos };
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    worker!.postMessage(request, [pos.buffer]);
  });
}
