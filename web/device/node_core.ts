// The page's C++ core (web/dist/nbody_core.js and .wasm, built for the browser) loaded in node: the loader is a
// classic script that defines createNbodyCore, and it would fetch the .wasm by URL, which node cannot do for a
// file, so it gets the bytes instead (../../../shared/WEB.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Core } from '../src/core';

export async function loadCoreInNode(dir: string): Promise<Core> {
  const loader = readFileSync(join(dir, 'nbody_core.js'), 'utf8');
  const create = new Function(`${loader}\nreturn createNbodyCore;`)() as (m: object) => Promise<Core>;
  return create({ wasmBinary: readFileSync(join(dir, 'nbody_core.wasm')) });
}
