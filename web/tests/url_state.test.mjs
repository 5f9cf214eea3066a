// Property test of the page's URL parser (src/url_state.ts, bundled for node by web/tests/run.sh): whatever
// the query, parsing returns (never throws), in time linear in its length, and every problem names its
// parameter and where it starts; a state the page writes reads back as itself.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatUrlState, parseUrlState } from '../dist-test/url_state.mjs';

const VARIANTS = ['none', 'i', 'ij'];
// The registry's rows for the three numbers (src/core/rows/param_registry.cpp) and the View panel's exposure
// and glow sliders (web/core/view_controls_web.cpp), as the core would answer.
const RANGES = { dt: [1e-12, 1e6, false], eps: [1e-9, 1e4, true], G: [1e-12, 1e12, false],
  'exposure-ev': [-6, 6, false], exposure: [1e-3, 1e4, false], glow: [0, 4, false] };
const CHECKED = Object.keys(RANGES);
const check = (k, v) => {
  const [lo, hi, zero] = RANGES[k];
  return (zero && v === 0) || (v >= lo && v <= hi) ? '' : `must be from ${lo} to ${hi} (got ${v})`;
};

function rng(seed) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}
const ALPHABET = 'scenedtpsvarintG=&%?+-.eE0123456789 xyz/#;\u00e9\u{1F600}';
const pieces = ['scene=', 'n=', 'dt=', 'eps=', 'G=', 'variant=', 'colour=', 'dark-matter=', 'trails=', 'exposure-ev=', 'exposure=', 'glow=', '&', '=',
  '%', '%zz', '%41', '1e-3', '-1', 'ij', 'speed', 'component', 'density', 'show', 'dim', 'hide', 'on', 'off', 'NaN', 'Infinity', '0x10', '1e999',
  '99', '0.3', '+2', 'abc', '-6.5'];

test('any query: no throw, located problems', () => {
  const r = rng(12345);
  for (let i = 0; i < 20000; ++i) {
    let q = '';
    const len = Math.floor(r() * 24);
    for (let k = 0; k < len; ++k) q += r() < 0.5 ? pieces[Math.floor(r() * pieces.length)] : ALPHABET[Math.floor(r() * ALPHABET.length)];
    const { state, problems } = parseUrlState(q, check, VARIANTS);
    for (const p of problems) {
      assert.ok(p.at >= 0 && p.at <= q.length, `${q}: ${p.at}`);
      assert.ok(p.message.startsWith(`URL parameter '${p.key}' (character ${p.at + 1}): `), p.message);
    }
    if (state.n !== undefined) assert.ok(Number.isInteger(state.n) && state.n >= 1);
    for (const k of CHECKED) if (state[k] !== undefined) assert.equal(check(k, state[k]), '');
    if (state.variant !== undefined) assert.ok(VARIANTS.includes(state.variant));
    if (state.colour !== undefined) assert.ok(['component', 'speed'].includes(state.colour));
    if (state['dark-matter'] !== undefined) assert.ok(['show', 'dim'].includes(state['dark-matter']));
    if (state.trails !== undefined) assert.ok(['on', 'off'].includes(state.trails));
  }
});

test('a long query parses in linear time', () => {
  const q = 'dt=0.01&'.repeat(100000);
  const t0 = performance.now();
  const { state, problems } = parseUrlState(q, check, VARIANTS);
  assert.equal(state.dt, 0.01);
  assert.equal(problems.length, 0);
  assert.ok(performance.now() - t0 < 2000);
});

test('states the page writes read back as themselves', () => {
  const r = rng(777);
  for (let i = 0; i < 5000; ++i) {
    const s = { scene: ['cartwheel', 'two-body', 'figure8-3'][i % 3], n: 1 + Math.floor(r() * 1e6), dt: 10 ** (-6 + 6 * r()), eps: i % 5 ? r() : 0, variant: VARIANTS[i % 3] };
    if (i % 2) s.G = 10 ** (-3 + 6 * r());
    if (i % 3 === 1) s.colour = ['component', 'speed'][i % 2];
    if (i % 4 === 1) s['dark-matter'] = ['show', 'dim'][(i >> 2) % 2];
    if (i % 6 === 5) s.trails = ['on', 'off'][(i >> 3) % 2];
    if (i % 5 === 2) s['exposure-ev'] = Number((-6 + 12 * r()).toFixed(1)) + 0; // + 0: no -0, which reads back as 0
    if (i % 7 === 3) s.exposure = Number((10 ** (-3 + 7 * r())).toPrecision(3));
    if (i % 3 === 2) s.glow = Number((4 * r()).toFixed(2));
    const back = parseUrlState(formatUrlState(s), check, VARIANTS);
    assert.deepEqual(back.problems, []);
    assert.deepEqual(back.state, s);
  }
});

test('bad values get their words', () => {
  const { problems } = parseUrlState('?scene=cartwheel&dt=-1&variant=fast&n=2.5&bogus=1&eps', check, VARIANTS);
  assert.deepEqual(problems.map((p) => p.key), ['dt', 'variant', 'n', 'bogus', 'eps']);
  assert.match(problems[0].message, /^URL parameter 'dt' \(character 17\): must be from 1e-12 to 1000000 \(got -1\)$/);
  assert.match(problems[1].message, /must be one of none, i, ij \(got 'fast'\)/);
  assert.match(problems[2].message, /whole number/);
  assert.match(problems[3].message, /unknown; the page reads scene, n, dt, eps, G, variant, method, colour, dark-matter, trails, exposure-ev, exposure, glow$/);
  assert.match(problems[4].message, /has no value/);
});

test('the View panel\'s settings: the desktop\'s words, and where the page leaves a colouring to the desktop', () => {
  const good = parseUrlState('?colour=speed&dark-matter=show&trails=off', check, VARIANTS);
  assert.deepEqual(good, { state: { colour: 'speed', 'dark-matter': 'show', trails: 'off' }, problems: [] });
  const { problems } = parseUrlState('?colour=density&dark-matter=hide&colour=Speed&trails=128', check, VARIANTS);
  assert.deepEqual(problems.map((p) => p.key), ['colour', 'dark-matter', 'colour', 'trails']);
  assert.match(problems[0].message, /^URL parameter 'colour' \(character 1\): must be one of component, speed \(got 'density'; density is drawn by the desktop program \(nbody-sandbox --colour density\)\)$/);
  assert.match(problems[1].message, /^URL parameter 'dark-matter' \(character 16\): must be one of show, dim \(got 'hide'\)$/);
  assert.match(problems[2].message, /must be one of component, speed \(got 'Speed'\)$/);
  assert.match(problems[3].message, /^URL parameter 'trails' \(character 46\): must be one of on, off \(got '128'\)$/);
});

test('the View panel\'s exposure and glow: the desktop\'s command-line words, refused values located with their range', () => {
  const good = parseUrlState('?exposure-ev=-1.5&exposure=0.02&glow=0', check, VARIANTS);
  assert.deepEqual(good, { state: { 'exposure-ev': -1.5, exposure: 0.02, glow: 0 }, problems: [] });
  const { state, problems } = parseUrlState('?glow=abc&exposure-ev=99&exposure=0&glow=4.5&exposure-ev=', check, VARIANTS);
  assert.deepEqual(state, {});
  assert.deepEqual(problems.map((p) => p.key), ['glow', 'exposure-ev', 'exposure', 'glow', 'exposure-ev']);
  assert.equal(problems[0].message, "URL parameter 'glow' (character 1): 'abc' is not a number");
  assert.equal(problems[1].message, "URL parameter 'exposure-ev' (character 10): must be from -6 to 6 (got 99)");
  assert.equal(problems[2].message, "URL parameter 'exposure' (character 25): must be from 0.001 to 10000 (got 0)");
  assert.match(problems[3].message, /^URL parameter 'glow' \(character 36\): must be from 0 to 4 \(got 4.5\)$/);
  assert.match(problems[4].message, /^URL parameter 'exposure-ev' \(character 45\): '' is not a number$/);
});
