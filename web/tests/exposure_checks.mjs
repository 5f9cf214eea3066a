// The View panel's exposure and glow in the page (web/src/exposure_panel.ts, web/src/tone_map.ts): the
// controls with the core's ranges and defaults, the picture answering a slider as it moves (+2 stops brighter;
// glow 0 less light about a dense core; a larger fixed exposure brighter), the link carrying them both ways,
// and refused link values located in the registry's words. Run by page.mjs on its browser.
import { join } from 'node:path';
import { pictureShot, pixelStats } from './pixels.mjs';

// Moves a control as a hand does: 'input' while it moves (what the picture follows), 'change' once let go
// (`release`: what the link follows).
const move = (p, id, value, release = false) => p.evaluate((id, value, release) => {
  const e = document.getElementById(id);
  if (e.type === 'checkbox') e.checked = value;
  else e.value = String(value);
  e.dispatchEvent(new Event('input'));
  if (release) e.dispatchEvent(new Event('change'));
}, id, value, release);

const panelState = (p) => p.evaluate(() => {
  const value = (id) => document.getElementById(id).value;
  const shown = (id) => !document.getElementById(id).closest('[hidden]') && document.getElementById(id).offsetParent !== null;
  const range = (id) => ({ lo: Number(document.getElementById(id).min), hi: Number(document.getElementById(id).max) });
  return {
    auto: document.getElementById('auto-exposure').checked, stops: value('exposure-ev'), glow: value('glow'),
    fixedLog10: value('exposure'), said: ['exposure-ev-value', 'exposure-value', 'glow-value'].map((id) => document.getElementById(id).textContent),
    shown: { auto: shown('auto-exposure'), stops: shown('exposure-ev'), fixed: shown('exposure'), glow: shown('glow') },
    ranges: { stops: range('exposure-ev'), fixedLog10: range('exposure'), glow: range('glow') },
    link: document.getElementById('link').value, exposure: window.nbody.app.view.exposure, controls: window.nbody.app.core.viewControls(),
  };
});

export async function exposureChecks({ check, expect, browser, server, open, out, viewPage, settle }) {
  await check('the View panel has auto exposure, exposure in stops, a fixed exposure and glow: the core\'s ranges and defaults', async () => {
    const p = await viewPage('');
    const s = await panelState(p), c = s.controls;
    expect(s.auto === c.autoExposure && s.auto, `auto exposure ${s.auto}`);
    expect(Number(s.stops) === c.exposureEv.value && Number(s.glow) === c.glow.value, `stops ${s.stops}, glow ${s.glow}`);
    expect(s.ranges.stops.lo === c.exposureEv.lo && s.ranges.stops.hi === c.exposureEv.hi, JSON.stringify(s.ranges.stops));
    expect(s.ranges.glow.lo === c.glow.lo && s.ranges.glow.hi === c.glow.hi, JSON.stringify(s.ranges.glow));
    expect(Math.abs(10 ** s.ranges.fixedLog10.lo - c.exposure.lo) < 1e-9 && Math.abs(10 ** s.ranges.fixedLog10.hi - c.exposure.hi) < 1e-6, JSON.stringify(s.ranges.fixedLog10));
    expect(s.shown.auto && s.shown.stops && !s.shown.fixed && s.shown.glow, `shown with auto exposure: ${JSON.stringify(s.shown)}`);
    expect(s.said[0] === '+0.0' && s.said[2] === c.glow.value.toFixed(2), `the values said: ${s.said}`);
    await p.evaluate(() => document.getElementById('exposure-controls').scrollIntoView());
    await p.screenshot({ path: join(out, 'view-exposure-panel.png') });
    // Auto off: the fixed exposure's slider in place of the stops; a larger exposure, a brighter picture.
    await move(p, 'auto-exposure', false, true);
    await move(p, 'exposure', 0, true); // 10^0 = 1
    const off = await panelState(p);
    expect(off.shown.fixed && !off.shown.stops, `shown with a fixed exposure: ${JSON.stringify(off.shown)}`);
    expect(!off.exposure.auto && off.exposure.fixed === 1 && /[?&]exposure=1(&|$)/.test(off.link), `${JSON.stringify(off.exposure)}; ${off.link}`);
    await settle();
    const dim = await pixelStats(p, await pictureShot(p));
    await move(p, 'exposure', 2); // 10^2
    await settle();
    const brighter = await pixelStats(p, await pictureShot(p));
    await p.screenshot({ path: join(out, 'view-exposure-fixed.png') });
    await p.close();
    expect(brighter.excess > 1.1 * dim.excess, `light drawn at exposure 1: ${dim.excess.toFixed(2)}, at 100: ${brighter.excess.toFixed(2)}`);
    return `ranges ${JSON.stringify(s.ranges)}; fixed exposure 1 -> 100: light drawn ${dim.excess.toFixed(2)} -> ${brighter.excess.toFixed(2)}, lit ${dim.lit} -> ${brighter.lit}`;
  });

  await check('+2 stops brightens the picture as the slider moves; glow 0 leaves less light about a dense core', async () => {
    const p = await viewPage('');
    await settle();
    const base = await pixelStats(p, await pictureShot(p));
    await move(p, 'exposure-ev', 2);
    await settle();
    const plus2 = await pixelStats(p, await pictureShot(p));
    await move(p, 'exposure-ev', 0);
    await settle();
    const again = await pictureShot(p);
    // About the brightest pixel of the default picture (a galaxy's core), 24 pixels round.
    const near = { ...base.peak, r: 24 };
    const withGlow = await pixelStats(p, again, null, near);
    await move(p, 'glow', 0);
    await settle();
    const noGlow = await pixelStats(p, await pictureShot(p), again, near);
    await p.screenshot({ path: join(out, 'view-glow-0.png') });
    await p.close();
    expect(plus2.excess > 1.05 * base.excess && plus2.lit > base.lit, `+2 stops: light drawn ${base.excess.toFixed(2)} -> ${plus2.excess.toFixed(2)}, lit ${base.lit} -> ${plus2.lit}`);
    expect(Math.abs(withGlow.excess - base.excess) < 0.01 * base.excess, `back at 0 stops: light drawn ${withGlow.excess.toFixed(2)}, first ${base.excess.toFixed(2)}`);
    expect(noGlow.around < 0.95 * withGlow.around && noGlow.lit < withGlow.lit, `glow 0: about the core ${withGlow.around.toFixed(1)} -> ${noGlow.around.toFixed(1)}, lit ${withGlow.lit} -> ${noGlow.lit}`);
    return `+2 stops: light drawn ${base.excess.toFixed(2)} -> ${plus2.excess.toFixed(2)}, lit ${base.lit} -> ${plus2.lit}; glow 0.3 -> 0: within 24 px of the core (${near.x}, ${near.y}) ` +
      `${withGlow.around.toFixed(1)} -> ${noGlow.around.toFixed(1)}, lit ${withGlow.lit} -> ${noGlow.lit}, ${noGlow.differ} pixels changed`;
  });

  await check('the exposure and glow come from the link and go back into it', async () => {
    const p = await viewPage('&exposure-ev=1.5&glow=0.7');
    const given = await panelState(p);
    expect(given.auto && Number(given.stops) === 1.5 && Number(given.glow) === 0.7 && given.said[0] === '+1.5' && given.said[2] === '0.70', JSON.stringify(given));
    expect(JSON.stringify(given.exposure) === JSON.stringify({ auto: true, stops: 1.5, fixed: given.controls.exposure.value, glow: 0.7 }), JSON.stringify(given.exposure));
    expect(/[?&]exposure-ev=1\.5(&|$)/.test(given.link) && /[?&]glow=0\.7(&|$)/.test(given.link), given.link);
    await p.close();
    const q = await viewPage('&exposure=0.05&glow=0');
    const fixed = await panelState(q);
    expect(!fixed.auto && fixed.exposure.fixed === 0.05 && fixed.exposure.glow === 0 && fixed.shown.fixed && !fixed.shown.stops, JSON.stringify(fixed));
    expect(/[?&]exposure=0\.05(&|$)/.test(fixed.link) && /[?&]glow=0(&|$)/.test(fixed.link) && !/exposure-ev/.test(fixed.link), fixed.link);
    // Back to the defaults from the panel: the defaults stay out of the link.
    await move(q, 'auto-exposure', true, true);
    await move(q, 'glow', fixed.controls.glow.value, true);
    const back = await panelState(q);
    await q.close();
    expect(back.auto && !/exposure|glow/.test(back.link), back.link);
    return `${given.link.slice(given.link.indexOf('?'))}; ${fixed.link.slice(fixed.link.indexOf('?'))}; then ${back.link.slice(back.link.indexOf('?'))}`;
  });

  await check('bad exposure and glow values in the link get located errors; the page keeps the defaults and runs', async () => {
    // A stored rate far from this adapter's: the start-up probe reloads the scene at its own size, and the
    // link's errors must stay shown through that reload (they were cleared by it once, on a loaded machine).
    const first = (await open(browser, server.url, '?scene=two-body')).page;
    await first.evaluate(() => localStorage.setItem('nbody-sandbox.interactions-per-s', '1e15'));
    await first.close();
    const { page: p, logs } = await open(browser, server.url, '?scene=two-body&glow=abc&exposure-ev=99&exposure=0');
    const r = await p.evaluate(() => ({ error: document.getElementById('error').textContent, exposure: window.nbody.app.view.exposure, controls: window.nbody.app.core.viewControls() }));
    await p.waitForFunction(() => window.nbody.scene().time > 0, { timeout: 60000 });
    await p.close();
    expect(/URL parameter 'glow' \(character 16\): 'abc' is not a number/.test(r.error), r.error);
    expect(/URL parameter 'exposure-ev' \(character 25\): must be from -6 to 6 \(got 99\)/.test(r.error), r.error);
    expect(/URL parameter 'exposure' \(character 40\): must be from \S+ to \S+ \(got 0\)/.test(r.error), r.error);
    const c = r.controls;
    expect(r.exposure.auto && r.exposure.stops === c.exposureEv.value && r.exposure.glow === c.glow.value, JSON.stringify(r.exposure));
    const bad = logs.filter((l) => /pageerror|WebGPU:/.test(l));
    expect(bad.length === 0, bad.join('\n'));
    return r.error.replace(/\n/g, ' | ');
  });
}
