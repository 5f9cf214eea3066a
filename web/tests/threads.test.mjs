// The CPU work with WebAssembly threads (dist/nbody_threads.*, the same sources as dist/nbody_core.* compiled
// with -pthread) against the core on one thread, in node on the built modules: the same tree to the bit, the
// same steps of the CPU backend to the bit, and its threads are the ones asked for. Four threads on any
// machine: the pool is made at load, whatever the cores.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { loadCoreInNode, loadThreadsInNode } from '../dist-test/shape_node.mjs';

const dist = new URL('../dist', import.meta.url).pathname;
const core = await loadCoreInNode(dist);
const threaded = await loadThreadsInNode(dist, 4);
// The module's pool of worker_threads keeps node running, and emscripten 3.1.6 neither unrefs nor exports it.
after(() => setImmediate(() => process.exit()));

const scene = (name, n) => {
  const s = core.loadScene(name, '', n);
  assert.ok(s.ok, s.error);
  return s;
};
const same = (a, b, what) => {
  assert.equal(a.length, b.length, `${what}: lengths`);
  const at = a.findIndex((v, i) => !Object.is(v, b[i]));
  assert.equal(at, -1, `${what}: first difference at ${at}: ${a[at]} against ${b[at]}`);
};

test('the tree built on four threads is the one built on one, array for array', () => {
  const s = scene('cartwheel', 50000); // several sort parts (one a 4,096 bodies) and a deep tree
  const one = new core.TreeBuild(1, 0.001), four = new threaded.TreeBuild(1, 0.001);
  for (const [refit, pos] of [[false, s.posMass], [true, s.posMass.map((v, i) => (i % 4 === 3 ? v : v * 1.001))]]) {
    assert.equal(one.build(pos, refit), '');
    assert.equal(four.build(pos, refit), '');
    assert.equal(one.stats().threads, 1);
    assert.equal(four.stats().threads, 4);
    assert.equal(four.stats().refitted, refit);
    for (const a of ['cells', 'moments', 'sorted', 'order', 'groups', 'levels', 'centres']) same(four[a](), one[a](), `${a}${refit ? ' (refit)' : ''}`);
  }
  one.delete(), four.delete();
});

test('the CPU backend steps the same bodies to the same bits on four threads, direct and tree', () => {
  for (const [method, n] of [['direct', 700], ['tree', 9000]]) {
    const s = scene('plummer', n);
    const one = new core.CpuRun(s.posMass, s.vel, 'fp64', method), four = new threaded.CpuRun(s.posMass, s.vel, 'fp64', method);
    assert.equal(one.step(5, s.dt, s.eps, s.G), '');
    assert.equal(four.step(5, s.dt, s.eps, s.G), '');
    same(four.positions(), one.positions(), `${method} positions`);
    same(four.velocities(), one.velocities(), `${method} velocities`);
    one.delete(), four.delete();
  }
});

test('a bad body gets the same words on threads', () => {
  const s = scene('plummer', 5000);
  s.posMass[4 * 1234 + 1] = NaN;
  const one = new core.TreeBuild(1, 0.001), four = new threaded.TreeBuild(1, 0.001);
  const problem = four.build(s.posMass, false);
  assert.match(problem, /1234/);
  assert.equal(problem, one.build(s.posMass, false));
  one.delete(), four.delete();
});
