// The page in Debian's headless Chromium, WebGPU on SwiftShader (web/tests/browser.mjs): forces of each WGSL
// variant against the C++ float64 reference, 100 steps against the core's float64 leap-frog, every shipped
// scene loading and stepping (a screenshot of each in web/tests/out/), the WGSL tree's forces and a scene on
// it, the panels, located errors for a bad scene and bad URL values, the View panel (dark matter dimmed or
// shown, colour by speed with its colour bar, the exposure and glow: exposure_checks.mjs), the tone map (dense
// galaxies not clipped, a few stars bright) and the page without WebGPU. Prints one line a check and 'N passed,
// N failed'. PAGE_CHECKS=regex runs only the checks whose names match (the others are skipped, not counted).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, open, serve } from './browser.mjs';
import { exposureChecks } from './exposure_checks.mjs';
import { pictureShot, pixelStats } from './pixels.mjs';

const out = join(dirname(fileURLToPath(import.meta.url)), 'out');
mkdirSync(out, { recursive: true });
let passed = 0, failed = 0;
const only = process.env.PAGE_CHECKS ? new RegExp(process.env.PAGE_CHECKS) : null;
async function check(name, fn) {
  if (only && !only.test(name)) return;
  const t0 = Date.now();
  try {
    const detail = await fn();
    ++passed;
    console.log(`ok   ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)${detail ? `: ${detail}` : ''}`);
  } catch (e) {
    ++failed;
    console.log(`FAIL ${name}: ${e && e.stack ? e.stack : e}`);
  }
}
function expect(cond, what) {
  if (!cond) throw new Error(what);
}

const server = await serve();
const browser = await launch();
try {
  const { page, firstFrameMs, logs } = await open(browser, server.url);
  await check('the page starts on WebGPU and draws its first frame', async () => {
    const backend = await page.evaluate(() => window.nbody.backend());
    expect(/^WebGPU, direct summation in WGSL: ij-unrolled k 4 u 4 block \d+ q 1$/.test(backend), `backend: ${backend}`);
    const t = await page.evaluate(() => JSON.stringify(window.nbody.timings()));
    expect(firstFrameMs < 20000, `first frame after ${firstFrameMs} ms`);
    return `first frame ${Math.round(firstFrameMs)} ms after opening (stages: ${t}); adapter ${(await page.evaluate(() => window.nbody.rate()) / 1e9).toPrecision(3)} G interactions/s`;
  });

  await check('the first frame within 3 s of opening the page (the median of three openings, nothing cached)', async () => {
    // The first opening above also started the browser's GPU process; two more with an empty cache.
    const times = [firstFrameMs];
    for (let k = 0; k < 2; ++k) {
      const again = await open(browser, server.url, '', { cache: false });
      times.push(again.firstFrameMs);
      await again.page.close();
    }
    times.sort((a, b) => a - b);
    expect(times[1] <= 3000, `first frames after ${times.map(Math.round).join(', ')} ms`);
    return `${times.map(Math.round).join(', ')} ms`;
  });

  for (const variant of ['none', 'i', 'ij']) {
    await check(`variant ${variant}: forces within 1e-5 of the float64 reference at N = 1 ... 4099`, async () => {
      const worst = [];
      for (const n of [1, 2, 3, 31, 33, 255, 257, 4099]) {
        const r = await page.evaluate((v, n) => window.nbody.forceErrors(v, n, 0.01), variant, n);
        expect(r.n === n && r.finite, `N = ${n}: ${JSON.stringify(r)}`);
        expect(r.maxRelativeError <= 1e-5, `N = ${n}: max relative error ${r.maxRelativeError}`);
        worst.push(`${n}: ${r.maxRelativeError.toExponential(1)}`);
      }
      return worst.join(', ');
    });
  }

  // Other shapes than SwiftShader's own (q = 1): the j-split in workgroup memory (q up to 32, the shape a
  // large GPU gets at small N), several tile loads an invocation, small and large k and u.
  const shapes = [
    ['ij', { k: 4, u: 4, block: 256, q: 32 }], ['ij', { k: 2, u: 2, block: 64, q: 8 }], ['ij', { k: 8, u: 8, block: 128, q: 2 }],
    ['i', { k: 8, u: 1, block: 128, q: 32 }], ['i', { k: 2, u: 1, block: 64, q: 1 }], ['none', { k: 1, u: 1, block: 64, q: 4 }],
  ];
  for (const [variant, shape] of shapes) {
    await check(`variant ${variant} as k ${shape.k} u ${shape.u} block ${shape.block} q ${shape.q}: forces within 1e-5 at N = 1 ... 1000`, async () => {
      const worst = [];
      for (const n of [1, 3, 33, 257, 1000]) {
        const r = await page.evaluate((v, n, f) => window.nbody.forceErrors(v, n, 0.01, f), variant, n, shape);
        expect(r.n === n && r.finite, `N = ${n}: ${JSON.stringify(r)}`);
        expect(r.shape.includes(`block ${shape.block} q ${shape.q}`), `ran ${r.shape}`);
        expect(r.maxRelativeError <= 1e-5, `N = ${n}: max relative error ${r.maxRelativeError}`);
        worst.push(`${n}: ${r.maxRelativeError.toExponential(1)}`);
      }
      return worst.join(', ');
    });
  }

  // The WGSL tree walk over the desktop's tree (built in WebAssembly). Opening every cell it is direct
  // summation in float32: the desktop's bound for that (tests/unit/core/tree/test_tree_accuracy.cpp: 5e-6 max,
  // 1e-6 median). At the default opening tests, the desktop's accuracy goal for the same theta and alpha:
  // median <= 3e-4, 99th percentile <= 3e-3 against float64 direct summation.
  // Both walk shapes (tree_kernel.ts): the adapter's (SwiftShader: a GPU on the CPU) and a real GPU's, which
  // only a real GPU runs in the page, at the sizes where its smaller tiles and rounds split more often.
  await check('the WGSL tree opening every cell is direct summation (max 5e-6, median 1e-6) at N = 1 ... 1000, both walk shapes', async () => {
    const said = [];
    for (const [n, onGpu] of [[1, false], [2, false], [33, false], [257, false], [1000, false], [33, true], [257, true], [1000, true]]) {
      const r = await page.evaluate((n, onGpu) => window.nbody.treeForceErrors(n, 0.01, 0.001, 0, onGpu), n, onGpu);
      expect(r.n === n && r.finite, `N = ${n} (${r.walk}): ${JSON.stringify(r)}`);
      expect(r.max < 5e-6 && r.median < 1e-6, `N = ${n}: median ${r.median}, max ${r.max}`);
      expect(r.bodyCellPerBody === 0 && r.bodyBodyPerBody === n, `N = ${n}: lists ${r.bodyBodyPerBody} bodies, ${r.bodyCellPerBody} cells a body`);
      said.push(`${n}${onGpu ? ' (GPU shape)' : ''}: ${r.max.toExponential(1)}`);
    }
    return said.join(', ');
  });
  await check('the walk\'s lists by every lane give lane 0\'s accelerations to the bit (a real GPU\'s shape) at N = 33, 1,000 and 4,096', async () => {
    const said = [];
    for (const n of [33, 1000, 4096]) {
      const r = await page.evaluate((n) => window.nbody.treeWalksDiffer(n, 0.01), n);
      expect(r.n === n && r.finite && r.differ === 0, `N = ${n}: ${JSON.stringify({ differ: r.differ, labels: r.labels })}`);
      expect(JSON.stringify(r.lists[0]) === JSON.stringify(r.lists[1]), `N = ${n}: lists ${JSON.stringify(r.lists)}`);
      said.push(`${n}: ${r.lists[0].bodyCell} body-cell and ${r.lists[0].bodyBody} body-body interactions, every acceleration the same bits`);
    }
    return said.join('; ');
  });
  await check('the WGSL tree at theta 1, alpha 0.001: median <= 3e-4, 99th percentile <= 3e-3 vs float64 at N = 4,096 and 16,384', async () => {
    const said = [];
    await page.evaluate(() => { window.nbody.app.run.running = false; }); // the frames leave the GPU to the check
    const lists = new Map(); // the same opening decisions in either shape: the same list lengths
    for (const [n, onGpu] of [[4096, false], [16384, false], [4096, true]]) {
      const r = await page.evaluate((n, onGpu) => window.nbody.treeForceErrors(n, 0.01, undefined, undefined, onGpu), n, onGpu);
      expect(r.n === n && r.finite, `N = ${n} (${r.walk}): ${JSON.stringify(r)}`);
      expect(r.median <= 3e-4 && r.p99 <= 3e-3, `N = ${n} (${r.walk}): median ${r.median}, 99% ${r.p99}`);
      const counts = `${r.bodyBodyPerBody} ${r.bodyCellPerBody}`;
      expect(!lists.has(n) || lists.get(n) === counts, `N = ${n}: lists ${counts} in ${r.walk}, ${lists.get(n)} in the other shape`);
      lists.set(n, counts);
      const t = r.times, b = t.build, ms = (s) => (s * 1000).toFixed(2);
      said.push(`${n} (${r.walk}): median ${r.median.toExponential(2)}, 99% ${r.p99.toExponential(2)}, max ${r.max.toExponential(1)}, ` +
        `${r.bodyBodyPerBody.toFixed(0)} body-body + ${r.bodyCellPerBody.toFixed(0)} body-cell a body; ${b.cells} cells, ${b.groups} groups, depth ${b.depth}; ` +
        `ms: read back ${t.readMs.toFixed(1)}, wasm box ${ms(b.box)} keys ${ms(b.keys)} sort ${ms(b.sort)} build ${ms(b.build)} multipoles ${ms(b.multipoles)} copies ${ms(b.copy)}, ` +
        `upload ${t.uploadMs.toFixed(2)}, walk ${t.walkMs.toFixed(0)}`);
    }
    return said.join('; ');
  });

  // The tree refitted on the GPU (web/src/tree_refit.ts, float32) against the WebAssembly refit (the
  // desktop's, in double) for the same bodies, moved off the tree built where they started: every cell's walk
  // row, each field scaled by the cell (verify.ts's refitErrors). The bound: float32's 2^-24 = 6e-8 a rounding,
  // over the longest chain of sums, a leaf's 32 bodies and about 8 children a level through a tree of depth
  // about 10: 2^-24 x (32 + 8 x 10) = 7e-6. Left out, a level (its cells' rows stay the build's) is off by the
  // drift, 1e-3 of h and more; the parallel-axis term by about M h^2 / 16 in the quadrupole.
  await check('the GPU refit\'s cells match the WebAssembly refit\'s within 1e-5 of each cell\'s mass and size', async () => {
    const said = [];
    await page.evaluate(() => { window.nbody.app.run.running = false; }); // the frames leave the GPU to the check
    for (const [scene, n] of [['plummer', 4096], ['cartwheel', 16384]]) {
      const r = await page.evaluate((scene, n) => window.nbody.refitErrors(scene, n, 8), scene, n);
      const w = r.worst;
      expect(r.n === n && r.sortedSame, `${scene} ${n}: the bodies gathered in key order differ: ${JSON.stringify(r)}`);
      expect(r.outsideLeaves > 0.01, `${scene} ${n}: only ${r.outsideLeaves} of the bodies left their leaf`);
      expect(Object.values(w).every((e) => e <= 1e-5), `${scene} ${n}: ${JSON.stringify(w)}`);
      said.push(`${scene} ${n} (${r.cells} cells, ${(100 * r.outsideLeaves).toFixed(0)}% of the bodies outside their leaf): mass ${w.mass.toExponential(1)}, ` +
        `centre ${w.centre.toExponential(1)}, quadrupole ${w.quadrupole.toExponential(1)}, radii ${w.radii.toExponential(1)}, r_acc2 ${w.rAcc.toExponential(1)}; ` +
        `refit ms (the least of 3): GPU ${r.gpuMs.toFixed(1)}, read back + WebAssembly + upload ${r.wasmMs.toFixed(1)}`);
    }
    return said.join('; ');
  });

  await check('a shape the adapter does not allow gets the words, and the page keeps running', async () => {
    const r = await page.evaluate(async () => {
      try {
        await window.nbody.forceErrors('ij', 100, 0.01, { k: 4, u: 4, block: 1024, q: 1 });
        return 'no error';
      } catch (e) {
        return String(e.message);
      }
    });
    expect(/block: this adapter allows work groups of at most \d+ invocations \(got 1024\)/.test(r), r);
    return r;
  });

  // The desktop's CPU backend (src/cpu, in the core) from the same bodies: in float64 (the reference) and in
  // float32 (the desktop's default run); the WGSL kernels' positions within 1e-5 of the cluster's size of both.
  await check('100 steps of 256 bodies match the desktop CPU backend\'s (fp64 and fp32)', async () => {
    const r = await page.evaluate(async () => {
      const { app } = window.nbody;
      app.url = {};
      app.loadScene('plummer', '', 256);
      const s = app.run.scene;
      const gpu = await window.nbody.stepAndRead(100);
      const out = { time: app.run.time };
      for (const precision of ['fp64', 'fp32']) {
        const cpu = new app.core.CpuRun(s.posMass, s.vel, precision, 'direct');
        const problem = cpu.step(100, app.run.dt, app.run.eps, app.run.G);
        const ref = cpu.positions();
        out[precision] = { problem, label: cpu.label(), cpuTime: cpu.time(), worst: 0, size: 0 };
        cpu.delete();
        for (let i = 0; i < s.n; ++i) {
          const o = out[precision];
          o.size = Math.max(o.size, Math.hypot(ref[4 * i], ref[4 * i + 1], ref[4 * i + 2]));
          o.worst = Math.max(o.worst, Math.hypot(gpu.pos[4 * i] - ref[4 * i], gpu.pos[4 * i + 1] - ref[4 * i + 1], gpu.pos[4 * i + 2] - ref[4 * i + 2]));
        }
      }
      return out;
    });
    const said = [];
    for (const precision of ['fp64', 'fp32']) {
      const o = r[precision];
      expect(o.problem === '', o.problem);
      expect(Math.abs(o.cpuTime - r.time) < 1e-9 * Math.max(1, r.time), `CPU backend at t = ${o.cpuTime}, page at ${r.time}`);
      expect(o.worst < 1e-5 * o.size, `${precision}: largest position difference ${o.worst} of ${o.size}`);
      said.push(`${o.label}: ${o.worst.toExponential(2)}`);
    }
    return `largest position difference at t = ${r.time.toFixed(2)} (cluster radius ${r.fp64.size.toFixed(2)}): ${said.join('; ')}`;
  });

  await check('the CPU backend refuses a bad precision, method and dt in words', async () => {
    const r = await page.evaluate(() => {
      const { app } = window.nbody, s = app.run.scene;
      const runs = [['fp16', 'direct'], ['fp64', 'fmm'], ['fp64', 'direct']].map(([p, m]) => new app.core.CpuRun(s.posMass, s.vel, p, m));
      const out = { precision: runs[0].step(1, 0.01, 0.01, 1), method: runs[1].step(1, 0.01, 0.01, 1), dt: runs[2].step(1, -1, 0.01, 1) };
      runs.forEach((r) => r.delete());
      return out;
    });
    expect(r.precision === "precision: must be fp32, ds or fp64 (got 'fp16')", r.precision);
    expect(r.method === "method: must be direct or tree (got 'fmm')", r.method);
    expect(r.dt === 'dt: must be from 1e-12 to 1e6 (got -1)', r.dt);
    return `${r.precision}; ${r.method}; ${r.dt}`;
  });

  const names = await page.evaluate(() => window.nbody.app.core.sceneNames());
  for (const name of names) {
    await check(`scene ${name} loads, steps and is drawn`, async () => {
      const r = await page.evaluate((name) => {
        const { app } = window.nbody;
        app.url = {};
        const ok = app.loadScene(name);
        app.run.running = true;
        return { ok, n: app.run.scene.n, error: document.getElementById('error').textContent, note: document.getElementById('note').textContent };
      }, name);
      expect(r.ok, r.error);
      await page.waitForFunction(() => window.nbody.app.run.time > 0, { timeout: 60000 });
      await new Promise((res) => setTimeout(res, 1500));
      const s = await page.evaluate(async () => {
        const st = await window.nbody.stepAndRead(1);
        return { finite: st.pos.every(Number.isFinite) && st.vel.every(Number.isFinite), time: window.nbody.app.run.time };
      });
      expect(s.finite, 'non-finite positions after stepping');
      await page.evaluate(() => { window.nbody.app.run.running = true; window.nbody.app.syncPanels(); });
      await new Promise((res) => setTimeout(res, 1000));
      await page.screenshot({ path: join(out, `${name}.png`) });
      return `${r.n} bodies, t = ${s.time.toFixed(3)}${r.note ? ' (reduced)' : ''}`;
    });
  }

  await check('a scene made for block steps runs at the desktop\'s automatic shared step, and says so', async () => {
    const r = await page.evaluate(() => {
      const { app } = window.nbody;
      app.url = {};
      app.loadScene('black-hole-merger', '', 2048);
      return { dt: app.run.dt, sceneDt: 1 / 64, note: document.getElementById('note').textContent };
    });
    expect(r.dt < r.sceneDt, `dt ${r.dt} is the scene's largest block step`);
    expect(Number.isInteger(Math.log2(r.dt)), `dt ${r.dt} is not a power of two`);
    expect(r.note.includes('block steps') && r.note.includes('(auto)'), `the note does not say why: ${r.note}`);
    return `dt 1/${1 / r.dt}: ${r.note.slice(r.note.indexOf('This scene'))}`;
  });

  await check('the panels change dt, eps and the variant, and the link follows', async () => {
    const r = await page.evaluate(() => {
      const set = (id, v) => { const e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event('change')); };
      set('dt', '0.004');
      set('eps', '0.02');
      set('variant', 'none');
      const { app } = window.nbody;
      return { dt: app.run.dt, eps: app.run.eps, variant: app.run.variant.name, link: document.getElementById('link').value };
    });
    expect(r.dt === 0.004 && r.eps === 0.02 && r.variant === 'none', JSON.stringify(r));
    expect(/dt=0\.004/.test(r.link) && /eps=0\.02/.test(r.link) && /variant=none/.test(r.link), r.link);
    const t0 = await page.evaluate(() => window.nbody.app.run.time);
    await page.waitForFunction((t0) => window.nbody.app.run.time > t0, { timeout: 30000 }, t0);
    return r.link.slice(r.link.indexOf('?'));
  });

  await check('a refused dt in the panel gets the registry\'s words and changes nothing', async () => {
    const r = await page.evaluate(() => {
      const e = document.getElementById('dt');
      const before = window.nbody.app.run.dt;
      e.value = '-1';
      e.dispatchEvent(new Event('change'));
      return { before, after: window.nbody.app.run.dt, error: document.getElementById('error').textContent };
    });
    expect(r.after === r.before, 'dt changed');
    expect(r.error === 'dt: must be from 1e-12 to 1e6 (got -1)', r.error);
    return r.error;
  });

  await check('a bad scene file gets its file:line:column and field, and the old scene keeps running', async () => {
    const r = await page.evaluate(() => {
      document.getElementById('scene-text').value = 'name = "mine"\ndt = 0.01\n[[component]]\ntype = "plummer"\nn = 100\nscale = -2\n';
      document.getElementById('load-text').click();
      return { error: document.getElementById('error').textContent, n: window.nbody.app.run.scene.n };
    });
    expect(/^scene text:6:\d+: /.test(r.error) && /scale/.test(r.error), r.error);
    return r.error;
  });

  await check('bad URL values get located errors; the good ones apply', async () => {
    const p2 = (await open(browser, server.url, '?scene=two-body&dt=-1&eps=0.05&variant=fast&n=x')).page;
    const r = await p2.evaluate(() => ({ error: document.getElementById('error').textContent, s: window.nbody.scene() }));
    expect(/URL parameter 'dt' \(character 16\): must be from 1e-12 to 1e6 \(got -1\)/.test(r.error), r.error);
    expect(/URL parameter 'variant' \(character 31\): must be one of none, i, ij \(got 'fast'\)/.test(r.error), r.error);
    expect(/URL parameter 'n' \(character 44\): 'x' is not a number/.test(r.error), r.error);
    expect(r.s.eps === 0.05 && r.s.n === 2, JSON.stringify(r.s));
    await p2.close();
    return r.error.replace(/\n/g, ' | ');
  });

  await check('a link reproduces its run', async () => {
    const p3 = (await open(browser, server.url, '?scene=galaxy-flyby&n=1500&dt=0.005&eps=0.03&variant=i')).page;
    const s = await p3.evaluate(() => window.nbody.scene());
    await p3.close();
    expect(s.n === 1500 && s.dt === 0.005 && s.eps === 0.03 && s.variant === 'i', JSON.stringify(s));
    return JSON.stringify(s);
  });

  // The View panel on a galaxy scene with dark matter and physical units, paused so every picture has the
  // same bodies where they were.
  const viewPage = async (query, scene = 'milky-way-andromeda&n=4000') => {
    const p = (await open(browser, server.url, `?scene=${scene}${query}`)).page;
    await p.evaluate(() => { window.nbody.app.run.running = false; window.nbody.app.syncPanels(); });
    return p;
  };
  const change = (p, id, value) => p.evaluate((id, value) => {
    const e = document.getElementById(id);
    if (e.type === 'checkbox') e.checked = value;
    else e.value = value;
    e.dispatchEvent(new Event('change'));
  }, id, value);
  const settle = () => new Promise((res) => setTimeout(res, 1000)); // a few frames drawn with the change
  const viewState = (p) => p.evaluate(() => ({
    colour: document.getElementById('colour').value, shown: document.getElementById('dark-matter').checked,
    link: document.getElementById('link').value, legend: [...document.querySelectorAll('#legend div')].map((d) => [...d.children].map((c) => c.textContent).filter((t) => t).join(' ')),
    ramp: [...document.querySelectorAll('#legend .ramp')].some((r) => getComputedStyle(r).backgroundImage.startsWith('linear-gradient')),
  }));

  await check('the View panel\'s colour and dark matter come from the link and go back into it', async () => {
    const p = await viewPage('&colour=speed&dark-matter=show');
    const given = await viewState(p);
    expect(given.colour === 'speed' && given.shown, JSON.stringify(given));
    expect(/colour=speed/.test(given.link) && /dark-matter=show/.test(given.link), given.link);
    await change(p, 'colour', 'component');
    await change(p, 'dark-matter', false);
    const back = await viewState(p);
    await p.close();
    expect(back.colour === 'component' && !back.shown, JSON.stringify(back));
    expect(!/colour=|dark-matter=/.test(back.link), `the defaults stay out of the link: ${back.link}`);
    expect(back.legend.includes('milky way halo (dimmed)') && back.legend.includes('andromeda disk'), back.legend.join('; '));
    return `${given.link.slice(given.link.indexOf('?'))}; then ${back.link.slice(back.link.indexOf('?'))}; legend: ${back.legend.join('; ')}`;
  });

  await check('a galaxy\'s dark matter is dimmed by default: fewer lit pixels than with it shown', async () => {
    const p = await viewPage('');
    const shown0 = await viewState(p);
    expect(!shown0.shown, 'dark matter shown by default');
    await settle();
    const dimmed = await pictureShot(p);
    await p.screenshot({ path: join(out, 'view-dark-matter-dimmed.png') });
    await change(p, 'dark-matter', true);
    await settle();
    const shown = await pictureShot(p);
    await p.screenshot({ path: join(out, 'view-dark-matter-shown.png') });
    const d = await pixelStats(p, dimmed, shown), s = await pixelStats(p, shown);
    await p.close();
    expect(d.differ > 0.1 * s.lit, `only ${d.differ} pixels changed of ${s.lit} lit`);
    expect(s.lit > 1.2 * d.lit, `lit pixels: dimmed ${d.lit}, shown ${s.lit}`);
    return `lit pixels of ${d.pixels}: dimmed ${d.lit}, shown ${s.lit}; ${d.differ} changed`;
  });

  // The orbit guide over a choreography (orbit_guide.ts): the overlay's alpha at a dash's middle and a gap's,
  // projected with the page's own camera: samples 80-84 of 512 are the eleventh dash, 84-88 a gap, away from
  // the stars (samples 0, 171, 341 at the start); the switch clears it, and a galaxy scene has none.
  const guideState = (p) => p.evaluate(() => {
    const { app } = window.nbody, c = document.getElementById('guide'), g = app.run.scene.guides[0];
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const view = app.camera.view(), proj = app.camera.projection(c.width / c.height);
    const m = (a, v) => [0, 1, 2, 3].map((r) => a[r] * v[0] + a[4 + r] * v[1] + a[8 + r] * v[2] + a[12 + r] * v[3]);
    const alphaNear = (k) => {
      const q = m(proj, m(view, [g.points[3 * k], g.points[3 * k + 1], g.points[3 * k + 2], 1]));
      const x = Math.round((q[0] / q[3] * 0.5 + 0.5) * c.width), y = Math.round((0.5 - q[1] / q[3] * 0.5) * c.height);
      let a = 0;
      for (let dy = -2; dy <= 2; ++dy) for (let dx = -2; dx <= 2; ++dx) a = Math.max(a, d[4 * ((y + dy) * c.width + x + dx) + 3] ?? 0);
      return a;
    };
    let drawn = 0;
    for (let i = 3; i < d.length; i += 4) drawn += d[i] > 0;
    return { drawn, dash: g ? alphaNear(82) : -1, gap: g ? alphaNear(86) : -1, row: !document.getElementById('guide-row').hidden,
      legend: document.getElementById('legend').textContent, guides: app.run.scene.guides.length };
  });
  // Trails (trails.ts): a figure-eight opens with them ([camera] trails = 128), as on the desktop; they draw
  // the eight behind the galaxies, the switch takes them off (and frees the ring), and a scene without them
  // turns off only what a scene turned on.
  await check('a figure-eight opens with trails: lines behind the bodies, more lit pixels; the switch and the next scene take them off', async () => {
    const p = await viewPage('', 'figure8-3');
    const opened = await p.evaluate(() => ({ on: document.getElementById('trails-switch').checked, row: !document.getElementById('trails-row').hidden }));
    expect(opened.on && opened.row, JSON.stringify(opened));
    await p.evaluate(() => { window.nbody.app.run.running = true; });
    await p.waitForFunction(() => window.nbody.app.renderer.trails.count >= 12, { timeout: 90000 });
    await p.evaluate(() => { window.nbody.app.run.running = false; });
    await settle();
    const ring = await p.evaluate(() => ({ length: window.nbody.app.renderer.trails.length, count: window.nbody.app.renderer.trails.count }));
    const withTrails = await pictureShot(p);
    await p.screenshot({ path: join(out, 'trails-figure8-3.png') });
    await change(p, 'trails-switch', false);
    await settle();
    const without = await pictureShot(p);
    const freed = await p.evaluate(() => window.nbody.app.renderer.trails.length);
    const a = await pixelStats(p, withTrails), b = await pixelStats(p, without);
    await change(p, 'trails-switch', true); // the switch's own choice: a scene without trails keeps it
    await p.evaluate(() => window.nbody.app.loadScene('plummer'));
    const kept = await p.evaluate(() => document.getElementById('trails-switch').checked);
    await p.evaluate(() => { window.nbody.app.loadScene('figure8-3'); window.nbody.app.view.trails = false; window.nbody.app.sceneTrails = false; });
    await p.evaluate(() => window.nbody.app.loadScene('figure8-3')); // opened by the scene again
    await p.evaluate(() => window.nbody.app.loadScene('plummer'));
    const dropped = await p.evaluate(() => document.getElementById('trails-switch').checked);
    await p.close();
    expect(ring.length === 128 && ring.count >= 12, JSON.stringify(ring));
    expect(a.lit > 1.3 * b.lit, `lit pixels: with trails ${a.lit}, without ${b.lit}`);
    expect(freed === 0, `the ring kept ${freed} slots with trails off`);
    expect(kept, 'a scene without trails turned off the trails the switch turned on');
    expect(!dropped, 'the trails a figure-eight turned on stayed on in a scene without them');
    return `${ring.count} of ${ring.length} samples; lit pixels ${a.lit} with trails, ${b.lit} without`;
  });

  await check('the trails switch goes into the link where it is not the scene\'s choice, and a link opens with it', async () => {
    const switchAndLink = (p) => p.evaluate(() => ({ on: document.getElementById('trails-switch').checked, link: document.getElementById('link').value }));
    const eight = await viewPage('&trails=off', 'figure8-3');
    const off = await switchAndLink(eight);
    await change(eight, 'trails-switch', true); // the scene's own choice again: out of the link
    const own = await switchAndLink(eight);
    await eight.close();
    const sphere = await viewPage('&trails=on', 'plummer');
    const on = await switchAndLink(sphere);
    await sphere.close();
    expect(!off.on && /trails=off/.test(off.link), `figure8-3 with trails=off: ${JSON.stringify(off)}`);
    expect(own.on && !/trails=/.test(own.link), `figure8-3 with its own trails: ${JSON.stringify(own)}`);
    expect(on.on && /trails=on/.test(on.link), `plummer with trails=on: ${JSON.stringify(on)}`);
    return [off.link, own.link, on.link].map((l) => l.slice(l.indexOf('?'))).join('; ');
  });

  await check('a figure-eight draws its orbit guide: dashes on the exact eight, gaps between, the switch hides it', async () => {
    const p = await viewPage('', 'three-body-figure8');
    await settle();
    const on = await guideState(p);
    await p.screenshot({ path: join(out, 'guide-three-body-figure8.png') });
    await change(p, 'guide-switch', false);
    await settle();
    const off = await guideState(p);
    await p.close();
    expect(on.guides === 1 && on.row, JSON.stringify(on));
    expect(on.dash > 60 && on.gap === 0, `alpha at a dash ${on.dash}, at a gap ${on.gap}`);
    expect(/the three-body eight/.test(on.legend) && /point masses on it/.test(on.legend), on.legend);
    expect(off.drawn === 0 && !/three-body eight/.test(off.legend), JSON.stringify(off));
    const g = await viewPage('');
    await settle();
    const galaxy = await guideState(g);
    await g.close();
    expect(galaxy.guides === 0 && !galaxy.row && galaxy.drawn === 0, JSON.stringify(galaxy));
    return `${on.drawn} overlay pixels drawn (dash alpha ${on.dash}, gap ${on.gap}); off: ${off.drawn}; Milky Way-Andromeda: none`;
  });

  await check('colour by speed changes the picture, and its colour bar says the scene\'s units', async () => {
    const p = await viewPage('');
    await settle();
    const component = await pictureShot(p);
    await change(p, 'colour', 'speed');
    await settle();
    const speed = await pictureShot(p);
    const st = await viewState(p);
    await p.screenshot({ path: join(out, 'view-speed.png') });
    const d = await pixelStats(p, speed, component);
    await p.close();
    expect(st.legend.length === 1 && /^speed 0 [\d.]+ kpc\/Myr$/.test(st.legend[0]), `colour bar: ${JSON.stringify(st.legend)}`);
    expect(st.ramp, 'the colour bar has no ramp');
    expect(d.differ > 0.3 * d.lit, `only ${d.differ} pixels changed of ${d.lit} lit`);
    return `${d.differ} of ${d.lit} lit pixels changed; colour bar: ${st.legend[0]}`;
  });
  await exposureChecks({ check, expect, browser, server, open, out, viewPage, settle });

  // The desktop's tone map (docs/rendering.md): a dense galaxy's cores keep their gradient rather than clip
  // white while its faint bodies still light the frame (the desktop's bound on clipping; a lower lit share than
  // its 2%, the page drawing a few thousand bodies here), and a few-body scene's stars stay bright. The
  // Cartwheel at the page's own N; Milky Way-Andromeda at the View checks' 4,000 bodies, since at the 2,000 or
  // fewer SwiftShader may plan its two small disks light about 1% of the frame.
  for (const [scene, query] of [['cartwheel', ''], ['milky-way-andromeda', '&n=4000']]) {
    await check(`${scene}${query ? ` (${query.slice(1)})` : ' at the page\'s N'}: at most 0.05% of the pixels clipped, at least 1% lit`, async () => {
      const p = (await open(browser, server.url, `?scene=${scene}${query}`)).page;
      await p.waitForFunction(() => window.nbody.scene().time >= 3 * window.nbody.scene().dt, { timeout: 60000 });
      await settle();
      const shot = await pictureShot(p);
      writeFileSync(join(out, `picture-${scene}.png`), Buffer.from(shot, 'base64'));
      const r = await pixelStats(p, shot), n = await p.evaluate(() => window.nbody.scene().n);
      await p.close();
      const pct = (k) => `${((100 * k) / r.pixels).toFixed(3)}%`;
      expect(r.clipped <= 0.0005 * r.pixels, `${pct(r.clipped)} clipped`);
      expect(r.lit >= 0.01 * r.pixels, `${pct(r.lit)} lit`);
      return `${n} bodies: ${pct(r.clipped)} clipped, ${pct(r.lit)} lit, ${pct(r.bright)} bright (a channel at 192 or more), brightest ${r.top}`;
    });
  }
  await check('two-body: the stars stay bright (white at 1.25 sprites deep)', async () => {
    const p = (await open(browser, server.url, '?scene=two-body')).page;
    await settle();
    const shot = await pictureShot(p);
    writeFileSync(join(out, 'picture-two-body.png'), Buffer.from(shot, 'base64'));
    const r = await pixelStats(p, shot);
    await p.close();
    // Two 16-px sprites, each centre near white and its colour around it.
    expect(r.top >= 200 && r.bright >= 2 * 10, `brightest ${r.top}, ${r.bright} pixels with a channel at 192 or more`);
    expect(r.lit >= 2 * 100, `${r.lit} lit pixels`);
    return `brightest ${r.top}, ${r.bright} bright pixels, ${r.lit} lit, ${r.clipped} clipped`;
  });

  await check('the race runs the three variants and draws their bars', async () => {
    await page.evaluate(() => { window.nbody.app.loadScene('plummer', '', 2048); return window.nbody.app.race(); });
    const bars = await page.evaluate(() => [...document.querySelectorAll('#race-bars .race-row')].map((b) => b.textContent));
    expect(bars.length === 3, JSON.stringify(bars));
    await page.evaluate(() => document.getElementById('race-bars').scrollIntoView());
    await page.screenshot({ path: join(out, 'race.png') });
    return bars.join('; ');
  });
  await check('the page chooses the WGSL tree where direct summation would load fewer of the scene\'s bodies', async () => {
    const r = await page.evaluate(() => {
      const { app } = window.nbody, keep = { rate: app.rate, tree: app.gpuTreeStep };
      app.url = {};
      app.run.running = false; // the choice only: no frame steps these sizes on SwiftShader
      // An adapter whose direct summation steps about 1,000 bodies in 20 ms and whose tree steps 4,096 in 5 ms.
      Object.assign(app, { rate: 5e7, gpuTreeStep: 0.005 });
      app.loadScene('plummer');
      const tree = { backend: window.nbody.backend(), n: app.run.scene.n };
      Object.assign(app, { rate: 1e10 }); // 14,142 bodies in 20 ms, more than that tree's 10,321
      app.loadScene('plummer');
      const direct = { backend: window.nbody.backend(), n: app.run.scene.n };
      Object.assign(app, { rate: keep.rate, gpuTreeStep: keep.tree });
      app.loadScene('plummer', '', 1024);
      app.run.running = true;
      return { tree, direct };
    });
    expect(/^WebGPU, tree walk in WGSL/.test(r.tree.backend) && r.tree.n > 2000, JSON.stringify(r.tree));
    expect(/^WebGPU, direct summation in WGSL/.test(r.direct.backend), JSON.stringify(r.direct));
    return `${r.tree.n} bodies on ${r.tree.backend}; ${r.direct.n} on ${r.direct.backend}`;
  });

  await check('a scene runs on the WGSL tree (method=tree) for a few frames, finite, and is drawn', async () => {
    const { page: p4, logs: l4 } = await open(browser, server.url, '?scene=cartwheel&n=8192&method=tree');
    const r = await p4.evaluate(() => ({ backend: window.nbody.backend(), n: window.nbody.scene().n }));
    expect(/^WebGPU, tree walk in WGSL \(the tree built in WebAssembly on one thread\): tree theta 1 alpha 0\.001/.test(r.backend), r.backend);
    expect(r.n === 8192, `N = ${r.n}`);
    await p4.waitForFunction(() => window.nbody.scene().time >= 3 * window.nbody.scene().dt, { timeout: 120000 });
    const s = await p4.evaluate(async () => {
      const st = await window.nbody.stepAndRead(1);
      return { finite: st.pos.every(Number.isFinite) && st.vel.every(Number.isFinite), time: window.nbody.scene().time, shown: document.body.textContent.includes('tree walk in WGSL') };
    });
    expect(s.finite, 'non-finite positions after tree steps');
    expect(s.shown, 'the panel does not name the tree');
    // The running path's accelerations against float64 at the positions they were found at: the same goal as
    // a fresh tree's, on the step that took up a tree from the build worker (asked for every 4th step while the
    // steps go on refitting the last one), refitted on the GPU to positions at least a step newer than the ones
    // it was built from.
    const e = await p4.evaluate(async () => {
      for (let k = 0; k < 12 && !window.nbody.treeTimes().fromWorker; ++k) await window.nbody.stepAndRead(1);
      return window.nbody.runningTreeErrors();
    });
    expect(e.fromWorker && e.workerTrees >= 1 && e.treeAge >= 1, `no tree from the worker refitted to newer positions: ${JSON.stringify(e)}`);
    // The worker builds on WebAssembly threads here (the server sends the isolation headers), and says so.
    const built = await p4.evaluate(() => ({ threads: window.nbody.treeTimes().build.threads, backend: window.nbody.backend(), want: Math.min(16, navigator.hardwareConcurrency), isolated: crossOriginIsolated }));
    expect(built.isolated && built.threads === built.want && built.backend.includes(built.want > 1 ? `on ${built.want} threads` : 'on one thread'), JSON.stringify(built));
    expect(e.refitted && e.gpuRefitted && e.finite && e.median <= 3e-4 && e.p99 <= 3e-3, JSON.stringify(e));
    // The Performance panel shows the same measure, taken once a few steps in.
    await p4.waitForFunction(() => /force error vs float64median \d/.test(document.getElementById('stats').textContent), { timeout: 60000 });
    const shownError = await p4.evaluate(() => [...document.querySelectorAll('#stats tr')].map((r) => r.textContent).find((t) => t.startsWith('force error')));
    // A Load while a worker's build is asked for and not yet taken up: its tree (other bodies') is dropped.
    const stale = await p4.evaluate(async () => {
      const { app } = window.nbody, before = window.nbody.treeTimes().staleTrees;
      for (let k = 0; k < 8 && !app.sim.hasWorkerTree(); ++k) await window.nbody.stepAndRead(1);
      const waiting = app.sim.hasWorkerTree();
      app.loadScene('cartwheel', '', 4096);
      await window.nbody.stepAndRead(1);
      const t = window.nbody.treeTimes();
      return { waiting, dropped: t.staleTrees - before, fromWorker: t.fromWorker, n: app.run.scene.n, errors: await window.nbody.runningTreeErrors() };
    });
    expect(stale.waiting && stale.dropped === 1 && !stale.fromWorker && stale.n === 4096, JSON.stringify(stale));
    expect(stale.errors.finite && stale.errors.median <= 3e-4 && stale.errors.p99 <= 3e-3, JSON.stringify(stale.errors));
    // Reset and Load while a step is in flight: that step stops at its next wait, the new bodies step.
    const again = await p4.evaluate(async () => {
      const { app } = window.nbody;
      app.run.running = true;
      app.syncPanels();
      await new Promise((res) => setTimeout(res, 300));
      app.restart();
      await new Promise((res) => setTimeout(res, 300));
      app.loadScene('cartwheel', '', 4096);
      return { n: app.run.scene.n, backend: window.nbody.backend() };
    });
    expect(again.n === 4096 && /tree walk in WGSL/.test(again.backend), JSON.stringify(again));
    await p4.waitForFunction(() => window.nbody.scene().time >= 2 * window.nbody.scene().dt, { timeout: 120000 });
    await new Promise((res) => setTimeout(res, 2000));
    await p4.screenshot({ path: join(out, 'tree-cartwheel.png') });
    const bad = l4.filter((l) => /pageerror|WebGPU:/.test(l));
    expect(bad.length === 0, bad.join('\n'));
    await p4.close();
    return `${r.n} bodies to t = ${s.time.toFixed(3)} on ${r.backend}; on the worker's tree ${e.treeAge} steps old refitted on the GPU (the page's steps wait once a call, so no stage is timed) median ${e.median.toExponential(2)}, 99% ${e.p99.toExponential(2)}; the panel: ${shownError}; a Load dropped the worker's tree asked for before`;
  });

  await check('no uncaught errors in the page', async () => {
    const bad = logs.filter((l) => /pageerror|WebGPU:/.test(l));
    expect(bad.length === 0, bad.join('\n'));
  });
} finally {
  await browser.close();
}

const cpuBrowser = await launch({ gpu: false });
try {
  await check('without WebGPU: the words, and the C++ core steps the bodies on the CPU', async () => {
    const { page } = await open(cpuBrowser, server.url, '?scene=cartwheel');
    const r = await page.evaluate(() => ({ banner: document.getElementById('banner').textContent, backend: window.nbody.backend(), n: window.nbody.scene().n }));
    expect(/WebGPU/.test(r.banner) && /Chrome or Edge/.test(r.banner) && /on the CPU/.test(r.banner), r.banner);
    expect(r.backend.startsWith('CPU'), r.backend);
    const want = await page.evaluate(() => Math.min(16, navigator.hardwareConcurrency));
    expect(r.backend.startsWith(`CPU (WebAssembly, ${want > 1 ? `${want} threads` : 'one thread'})`), `${r.backend}: ${want} logical cores`);
    // direct summation at most 2,048 bodies; the tree where it loads more in the same step budget (a quiet
    // machine: the choice is measured at load), at most 32,768
    expect(r.n <= (/tree/.test(r.backend) ? 32768 : 2048), `N = ${r.n} on ${r.backend}`);
    await page.waitForFunction(() => window.nbody.scene().time > 0, { timeout: 30000 });
    await page.screenshot({ path: join(out, 'no-webgpu.png') });
    return `${r.n} bodies on ${r.backend}`;
  });
  await check('without WebGPU: a large N runs on the desktop\'s CPU tree, whose kick matches direct summation\'s', async () => {
    const { page } = await open(cpuBrowser, server.url, '?scene=plummer&n=8000');
    const r = await page.evaluate(() => ({ backend: window.nbody.backend(), n: window.nbody.scene().n }));
    expect(/: cpu tree theta/.test(r.backend), r.backend);
    expect(r.n === 8000, `N = ${r.n}`);
    await page.waitForFunction(() => window.nbody.scene().time > 0, { timeout: 60000 });
    // One step's change of velocity, (a_0 + a_1) dt / 2, by the tree and by float64 direct summation.
    const e = await page.evaluate(() => {
      const { core } = window.nbody.app, s = core.loadScene('plummer', '', 2000);
      const kick = (method) => {
        const run = new core.CpuRun(s.posMass, s.vel, 'fp64', method);
        const problem = run.step(1, s.dt, s.eps, s.G);
        const v = run.velocities();
        run.delete();
        if (problem) throw new Error(problem);
        return v.map((x, i) => x - s.vel[i]);
      };
      const tree = kick('tree'), direct = kick('direct');
      const errors = [];
      for (let i = 0; i < s.n; ++i) {
        const d = Math.hypot(tree[4 * i] - direct[4 * i], tree[4 * i + 1] - direct[4 * i + 1], tree[4 * i + 2] - direct[4 * i + 2]);
        errors.push(d / Math.hypot(direct[4 * i], direct[4 * i + 1], direct[4 * i + 2]));
      }
      errors.sort((a, b) => a - b);
      return { median: errors[errors.length >> 1], worst: errors[errors.length - 1], finite: tree.every(Number.isFinite) };
    });
    expect(e.finite, 'non-finite velocities from the tree');
    expect(e.median < 1e-2, `median relative difference ${e.median}`);
    const s = await page.evaluate(async () => (await window.nbody.stepAndRead(1)).pos.every(Number.isFinite));
    expect(s, 'non-finite positions after a tree step in the page');
    await page.screenshot({ path: join(out, 'no-webgpu-tree.png') });
    await page.close();
    return `${r.n} bodies on ${r.backend}; kick vs direct, 2,000 bodies: median ${e.median.toExponential(1)}, largest ${e.worst.toExponential(1)}`;
  });
  await check('the threaded module failing to load: the page runs its CPU work on one thread, and says why in the console', async () => {
    const page = await cpuBrowser.newPage();
    const logs = [];
    page.on('console', (m) => logs.push(m.text()));
    page.on('pageerror', (e) => logs.push(`pageerror: ${e.message}`));
    await page.setRequestInterception(true);
    page.on('request', (r) => (/nbody_threads\.wasm$/.test(new URL(r.url()).pathname) ? r.abort() : r.continue()));
    await page.goto(server.url + '?scene=plummer&n=3000');
    await page.waitForFunction(() => window.nbody && window.nbody.settled() && window.nbody.scene().time > 0, { timeout: 90000 });
    const r = await page.evaluate(() => ({ isolated: crossOriginIsolated, backend: window.nbody.backend() }));
    await page.close();
    const why = logs.find((l) => /WebAssembly threads did not load/.test(l));
    expect(r.isolated && r.backend.startsWith('CPU (WebAssembly, one thread)'), JSON.stringify(r));
    expect(why, `no words in the console: ${logs.join(' | ')}`);
    expect(!logs.some((l) => /pageerror/.test(l)), logs.join('\n'));
    return `${r.backend}; the console: ${why}`;
  });
  await check('a host without the isolation headers: the page runs, its CPU work on one thread', async () => {
    const plain = await serve({ isolation: false });
    try {
      const { page, logs: l } = await open(cpuBrowser, plain.url, '?scene=plummer&n=3000');
      await page.waitForFunction(() => window.nbody.scene().time > 0, { timeout: 60000 });
      const r = await page.evaluate(() => ({ isolated: crossOriginIsolated, backend: window.nbody.backend(), sab: typeof SharedArrayBuffer }));
      expect(!r.isolated && r.backend.startsWith('CPU (WebAssembly, one thread)'), JSON.stringify(r));
      const bad = l.filter((x) => /pageerror/.test(x));
      expect(bad.length === 0, bad.join('\n'));
      await page.close();
      return `${r.backend} (SharedArrayBuffer: ${r.sab})`;
    } finally {
      plain.close();
    }
  });
} finally {
  await cpuBrowser.close();
  server.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
