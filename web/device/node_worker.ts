// A Web Worker for node (worker_threads), enough for the page's tree build worker (web/src/tree_build_worker.ts,
// bundled as dist/tree_build_worker.js): a classic script that importScripts the core's loader, answers
// `onmessage` and posts transferred arrays. So the bench runs the page's asynchronous tree builds through Dawn
// for node as the page runs them in a browser. The worker's core gets the .wasm's bytes, as node_core.ts does
// (node cannot fetch a file by URL).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker as NodeWorker } from 'node:worker_threads';

// Runs in the worker thread before the worker's own script: the browser worker's globals it uses.
const prelude = (dir: string): string => `
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const dir = ${JSON.stringify(dir)};
globalThis.self = globalThis;
globalThis.location = { href: 'file://' + dir + '/' };  // where emscripten's loader in a worker looks for itself
globalThis.importScripts = (file) => {
  const create = new Function(fs.readFileSync(dir + '/' + file, 'utf8') + '\\nreturn createNbodyCore;')();
  globalThis.createNbodyCore = () => create({ wasmBinary: fs.readFileSync(dir + '/nbody_core.wasm') });
};
globalThis.postMessage = (message, transfer) => parentPort.postMessage(message, transfer);
parentPort.on('message', (data) => globalThis.onmessage && globalThis.onmessage({ data }));
`;

// Installs globalThis.Worker: `new Worker(name)` runs `dir/name` in a worker thread.
export function installNodeWorker(dir: string): void {
  class Worker {
    onmessage: ((e: { data: unknown }) => void) | null = null;
    onerror: ((e: { message: string }) => void) | null = null;
    private thread: NodeWorker;
    constructor(name: string) {
      this.thread = new NodeWorker(prelude(dir) + readFileSync(join(dir, name), 'utf8'), { eval: true });
      this.thread.on('message', (data) => this.onmessage?.({ data }));
      this.thread.on('error', (e: Error) => this.onerror?.({ message: e.message }));
      this.thread.unref(); // the bench's process ends when its work does
    }
    postMessage(message: unknown, transfer: ArrayBuffer[] = []): void {
      this.thread.postMessage(message, transfer);
    }
  }
  Object.assign(globalThis, { Worker });
}
