// How the core says a scene is drawn (web/core/look_web.cpp, from the desktop's sources), in node on the built
// core (web/dist): which groups are dark matter, the light they keep dimmed, their names and colours, and the
// speed colour bar's words in the scene's units.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadCoreInNode } from '../dist-test/shape_node.mjs';

const core = await loadCoreInNode(new URL('../dist', import.meta.url).pathname);
const look = (name, bodies = 2000) => {
  const s = core.loadScene(name, '', bodies);
  assert.ok(s.ok, s.error);
  return s.look;
};

test('a disk galaxy\'s halo is dark matter, dimmed to the window\'s tenth of its light', () => {
  const l = look('galaxy-flyby');
  assert.deepEqual(l.groups.map((g) => [g.name, g.kind, g.darkMatter]), [
    ['first disk', 'disk', false], ['first halo', 'halo', true], ['second disk', 'disk', false], ['second halo', 'halo', true],
  ]);
  assert.ok(Math.abs(l.darkMatterLight - 0.1) < 1e-6, String(l.darkMatterLight));
  assert.equal(l.slots.length, 8);
  assert.deepEqual(l.slots.map((s) => s.darkMatter), [false, true, false, true, false, false, false, false]);
});

test('scenes without a halo mark no dark matter; the intruder keeps its kind', () => {
  assert.ok(look('two-body', 0).groups.every((g) => !g.darkMatter && g.kind === 'star'));
  assert.deepEqual(look('cartwheel').groups.map((g) => g.kind), ['disk', 'halo', 'intruder']);
});

test('the speed colour bar is in the scene\'s units where it declares them', () => {
  const mw = look('milky-way-andromeda');
  assert.equal(mw.speedBar.unit, 'kpc/Myr');
  assert.equal(mw.speedBar.left, '0');
  // 10 kpc per 14.9 Myr a speed unit: the top speed in kpc/Myr, three digits.
  assert.equal(Number(mw.speedBar.right).toPrecision(3), (mw.topSpeed * 10 / 14.9).toPrecision(3));
  const cw = look('cartwheel');
  assert.equal(cw.speedBar.unit, 'length/time');
  assert.equal(Number(cw.speedBar.right).toPrecision(3), cw.topSpeed.toPrecision(3));
});

test('a few bodies get the desktop\'s 16-pixel sprites; a galaxy keeps the 1-pixel floor', () => {
  assert.equal(look('two-body', 0).minSpritePx, 16);
  assert.equal(look('three-body-figure8', 0).minSpritePx, 16);
  assert.equal(look('galaxy-flyby').minSpritePx, 1);
});

test('the tone map: white at 1.25 sprites deep for a few bodies, 8 for a galaxy; the desktop\'s sky', () => {
  const few = look('two-body', 0).toneMap, galaxy = look('galaxy-flyby').toneMap;
  assert.equal(few.minWhiteSprites, 1.25);
  assert.equal(galaxy.minWhiteSprites, 8);
  assert.deepEqual(galaxy.background.map((c) => c.toFixed(4)), ['0.0015', '0.0015', '0.0040']);
  assert.ok(galaxy.kneeSprites > 0 && galaxy.kneeSprites < 1 && galaxy.whiteOverMeasured >= 1, JSON.stringify(galaxy));
});
