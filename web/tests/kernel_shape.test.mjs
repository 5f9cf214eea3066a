// The kernel shapes the page asks the core for (src/shape.ts over the desktop GL backend's rules in
// web/core/shape_web.cpp), in node on the built core (web/dist): the compute units found from an adapter's
// names, the shapes a large GPU gets at small and large N, every automatic shape within the adapter's limits
// and the fewest slices that fill its units, and refusals in words.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadCoreInNode, computeUnits, shapeChooser, ASSUMED_UNITS } from '../dist-test/shape_node.mjs';

const core = await loadCoreInNode(new URL('../dist', import.meta.url).pathname);
// WebGPU's default limits, which every adapter offers at least.
const DEFAULTS = { maxComputeWorkgroupStorageSize: 16384, maxComputeInvocationsPerWorkgroup: 256, maxComputeWorkgroupSizeX: 256, maxComputeWorkgroupsPerDimension: 65535 };
const v = (name) => ({ name, label: name });

test('compute units from the names an adapter gives', () => {
  // Dawn's strings for the H200 (lower case, runs of other characters as '-') and a browser's plain ones.
  assert.equal(computeUnits(core, { vendor: 'nvidia', architecture: 'hopper', device: 'nvidia-h200', description: 'NVIDIA: 550.90' }).units, 132);
  assert.equal(computeUnits(core, { vendor: 'nvidia', architecture: 'ampere', description: 'NVIDIA GeForce RTX 3090' }).units, 82);
  assert.equal(computeUnits(core, { vendor: 'nvidia', device: 'nvidia-h2000' }).units, ASSUMED_UNITS);  // whole names only
  assert.equal(computeUnits(core, { vendor: 'intel', architecture: 'gen-12lp' }).units, ASSUMED_UNITS);
  const sw = computeUnits(core, { vendor: 'google', architecture: 'swiftshader', device: 'swiftshader-device-subzero-' });
  assert.equal(sw.units, 0);
  assert.match(sw.why, /on the CPU/);
});

test('a large GPU splits each body\'s j range at small N and less at large N', () => {
  const shapes = shapeChooser(core, DEFAULTS, 132);
  // 132 units x 1,024 invocations: at 18,000 bodies ij needs 32 slices a body (563 groups of 256), at
  // 131,072 eight (1,024 groups).
  assert.equal(shapes(v('ij'), 18000).label, 'ij-unrolled k 4 u 4 block 256 q 32');
  assert.equal(shapes(v('ij'), 131072).label, 'ij-unrolled k 4 u 4 block 256 q 8');
  assert.equal(shapes(v('none'), 131072).label, 'none k 1 block 256 q 2');
  assert.equal(shapeChooser(core, DEFAULTS, 0)(v('ij'), 18000).q, 1);  // units unknown: no split
});

test('every automatic shape fits the adapter and is the fewest slices that fill its units', () => {
  let s = 7;
  const rnd = (k) => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) % k);
  for (let t = 0; t < 2000; ++t) {
    const limits = {
      maxComputeWorkgroupStorageSize: [16384, 32768, 49152][rnd(3)],
      maxComputeInvocationsPerWorkgroup: [256, 512, 1024][rnd(3)],
      maxComputeWorkgroupSizeX: [256, 1024][rnd(2)],
      maxComputeWorkgroupsPerDimension: 65535,
    };
    const units = rnd(200), n = 1 + rnd(300000), name = ['none', 'i', 'ij'][rnd(3)];
    const shape = shapeChooser(core, limits, units)(v(name), n);
    const where = `${JSON.stringify(limits)} units ${units} N ${n}: ${shape.label}`;
    assert.ok(shape.block <= Math.min(limits.maxComputeInvocationsPerWorkgroup, limits.maxComputeWorkgroupSizeX), where);
    assert.ok(shape.block * shape.tileLoads * 16 <= limits.maxComputeWorkgroupStorageSize, where);
    assert.equal(shape.block % shape.q, 0, where);
    assert.equal(((shape.block * shape.tileLoads) / shape.q) % shape.u, 0, where);
    const groups = (q) => Math.ceil(n / ((shape.block / q) * shape.k));
    assert.ok(groups(shape.q) <= 65535, where);
    if (shape.q > 1) assert.ok(groups(shape.q / 2) * shape.block < units * 1024, `${where}: q / 2 already fills the units`);
  }
});

test('shapes the adapter or the rules do not allow are refused in words', () => {
  const fixed = (k, u, block, q) => shapeChooser(core, DEFAULTS, 132, { k, u, block, q });
  assert.throws(() => fixed(4, 4, 1024, 1)(v('ij'), 1000), /kernel shape: block: this adapter allows work groups of at most 256 invocations \(got 1024\)/);
  assert.throws(() => fixed(3, 4, 256, 1)(v('ij'), 1000), /k: variant ij-unrolled allows k in \{2, 4, 8\} \(got 3\)/);
  assert.throws(() => fixed(4, 4, 256, 3)(v('ij'), 1000), /q: .*\(got 3\)/);
  assert.throws(() => shapeChooser(core, { ...DEFAULTS, maxComputeWorkgroupStorageSize: 1024 }, 0)(v('ij'), 1000), /bytes of shared memory, over this adapter's 1024/);
  assert.throws(() => shapeChooser(core, DEFAULTS, 0)(v('tensor'), 1000), /the WGSL kernels run none, i and ij/);
  assert.equal(fixed(2, 2, 64, 8)(v('ij'), 1000).label, 'ij-unrolled k 2 u 2 block 64 q 8');
});
