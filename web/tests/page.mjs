// The page in Debian's headless Chromium, WebGPU on SwiftShader (web/tests/browser.mjs): forces of each WGSL
// variant against the C++ float64 reference, 100 steps against the core's float64 leap-frog, every shipped
// scene loading and stepping (a screenshot of each in web/tests/out/), the panels, located errors for a bad
// scene and bad URL values, and the page without WebGPU. Prints one line a check and 'N passed, N failed'.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, open, serve } from './browser.mjs';

const out = join(dirname(fileURLToPath(import.meta.url)), 'out');
mkdirSync(out, { recursive: true });
let passed = 0, failed = 0;
async function check(name, fn) {
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
    expect(/^WebGPU: ij-unrolled k 4 u 4 block \d+ q 1$/.test(backend), `backend: ${backend}`);
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

  await check('100 steps of 256 bodies match the core\'s float64 leap-frog', async () => {
    const r = await page.evaluate(async () => {
      const { app } = window.nbody;
      app.url = {};
      app.loadScene('plummer', '', 256);
      const s = app.run.scene;
      const gpu = await window.nbody.stepAndRead(100);
      const cpu = new app.core.CpuLeapfrog(s.posMass, s.vel);
      cpu.step(100, app.run.dt, app.run.eps, app.run.G);
      const ref = cpu.positions();
      cpu.delete();
      let worst = 0, size = 0;
      for (let i = 0; i < s.n; ++i) {
        size = Math.max(size, Math.hypot(ref[4 * i], ref[4 * i + 1], ref[4 * i + 2]));
        worst = Math.max(worst, Math.hypot(gpu.pos[4 * i] - ref[4 * i], gpu.pos[4 * i + 1] - ref[4 * i + 1], gpu.pos[4 * i + 2] - ref[4 * i + 2]));
      }
      return { worst, size, time: app.run.time };
    });
    expect(r.worst < 1e-4 * r.size, `largest position difference ${r.worst} of ${r.size}`);
    return `largest position difference ${r.worst.toExponential(2)} (cluster radius ${r.size.toFixed(2)}) at t = ${r.time.toFixed(2)}`;
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

  await check('the race runs the three variants and draws their bars', async () => {
    await page.evaluate(() => { window.nbody.app.loadScene('plummer', '', 2048); return window.nbody.app.race(); });
    const bars = await page.evaluate(() => [...document.querySelectorAll('#race-bars .race-row')].map((b) => b.textContent));
    expect(bars.length === 3, JSON.stringify(bars));
    await page.evaluate(() => document.getElementById('race-bars').scrollIntoView());
    await page.screenshot({ path: join(out, 'race.png') });
    return bars.join('; ');
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
    expect(r.n <= 2048, `N = ${r.n}`);
    await page.waitForFunction(() => window.nbody.scene().time > 0, { timeout: 30000 });
    await page.screenshot({ path: join(out, 'no-webgpu.png') });
    return `${r.n} bodies on ${r.backend}`;
  });
} finally {
  await cpuBrowser.close();
  server.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
