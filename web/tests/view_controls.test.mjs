// The View panel's exposure and glow controls as the core gives them (web/core/view_controls_web.cpp), in node
// on the built core (web/dist): the desktop window's defaults and slider ranges, and a refused value in the
// parameter registry's words, as the link's other numbers get them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadCoreInNode } from '../dist-test/shape_node.mjs';

const core = await loadCoreInNode(new URL('../dist', import.meta.url).pathname);
const c = core.viewControls();

test('the desktop\'s defaults (RenderSettings): auto exposure on at 0 stops, a fixed exposure of 1, glow 0.3', () => {
  assert.equal(c.autoExposure, true);
  assert.equal(c.exposureEv.value, 0);
  assert.equal(c.exposure.value, 1);
  assert.ok(Math.abs(c.glow.value - 0.3) < 1e-6, `glow ${c.glow.value}`);
  for (const [name, r] of Object.entries({ exposureEv: c.exposureEv, exposure: c.exposure, glow: c.glow }))
    assert.ok(r.lo < r.value && r.value < r.hi, `${name}: ${r.lo} < ${r.value} < ${r.hi}`);
  assert.ok(c.exposure.lo > 0, 'the fixed exposure\'s slider is logarithmic: its low end must be above 0');
  assert.equal(c.exposureEv.unit, 'stops');
});

test('each control\'s ends are allowed and just past them is refused, in the registry\'s words', () => {
  for (const [name, r] of [['exposure-ev', c.exposureEv], ['exposure', c.exposure], ['glow', c.glow]]) {
    assert.equal(core.paramProblem(name, r.lo), '', `${name} ${r.lo}`);
    assert.equal(core.paramProblem(name, r.hi), '', `${name} ${r.hi}`);
    assert.equal(core.paramProblem(name, r.value), '', `${name} ${r.value}`);
    const range = core.paramProblem(name, r.hi * 2 + 1).match(/^must be from (\S+) to (\S+) \(got \S+\)$/);
    assert.ok(range, core.paramProblem(name, r.hi * 2 + 1));
    assert.deepEqual(range.slice(1).map(Number), [r.lo, r.hi]);
    assert.match(core.paramProblem(name, r.lo - 1), /^must be from /);
  }
  assert.equal(core.paramProblem('glow', 9), 'must be from 0 to 4 (got 9)');
  assert.equal(core.paramProblem('gloww', 1), "unknown parameter 'gloww'");
  assert.equal(core.paramProblem('dt', -1), 'must be from 1e-12 to 1e6 (got -1)');
});
