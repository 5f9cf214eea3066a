// The page's C++ core (web/dist/nbody_core.js and .wasm, built for the browser) loaded in node: the loader is a
// classic script that defines createNbodyCore, and it would fetch the .wasm by URL, which node cannot do for a
// file, so it gets the bytes instead (../../../shared/WEB.md).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Core, CpuCore, ThreadsOptions } from '../src/core';

export async function loadCoreInNode(dir: string): Promise<Core> {
  const loader = readFileSync(join(dir, 'nbody_core.js'), 'utf8');
  const create = new Function(`${loader}\nreturn createNbodyCore;`)() as (m: object) => Promise<Core>;
  return create({ wasmBinary: readFileSync(join(dir, 'nbody_core.wasm')) });
}

// The CPU work on `threads` threads (nbody_threads.js, built for node too: its pool runs on worker_threads and
// finds its worker script beside itself, so it is required, not evaluated; the .wasm's bytes as above, which
// its workers get compiled from this thread).
export async function loadThreadsInNode(dir: string, threads: number): Promise<CpuCore> {
  const create = createRequire(import.meta.url)(join(dir, 'nbody_threads.js')) as (o: ThreadsOptions & { wasmBinary: Buffer }) => Promise<CpuCore>;
  return create({ threads, wasmBinary: readFileSync(join(dir, 'nbody_threads.wasm')) });
}
