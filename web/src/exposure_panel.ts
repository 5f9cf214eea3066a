// The View panel's exposure and glow, as the desktop window's: "Auto exposure" (on), its "Exposure (stops)"
// while on, a fixed "Exposure" while off (a logarithmic slider, as the window's), and "Glow". The sliders'
// ends, steps' words and defaults come from the core (ViewControls, web/core/view_controls_web.cpp); the link
// carries what differs from the defaults in the desktop's command-line words (--exposure-ev, --exposure,
// --glow).
import { ViewControls } from './core';
import { $ } from './panels';
import { Exposure } from './tone_map';
import { UrlState } from './url_state';

// The sliders' steps: a tenth of a stop (the window shows one decimal), a hundredth of the glow (two), and a
// hundredth of a decade of the fixed exposure, which is shown to three digits.
const STOPS_STEP = 0.1;
const GLOW_STEP = 0.01;
const DECADE_STEP = 0.01;

export function defaultExposure(c: ViewControls): Exposure {
  return { auto: c.autoExposure, stops: c.exposureEv.value, fixed: c.exposure.value, glow: c.glow.value };
}

// The link's values over the defaults: a fixed exposure turns the automatic one off, as --exposure does.
export function exposureFromLink(s: UrlState, c: ViewControls): Exposure {
  const d = defaultExposure(c);
  return { auto: s.exposure === undefined && d.auto, stops: s['exposure-ev'] ?? d.stops, fixed: s.exposure ?? d.fixed, glow: s.glow ?? d.glow };
}

// The link's fields for `e`: what differs from the defaults, the stops only while the exposure is automatic.
export function exposureLink(e: Exposure, c: ViewControls): Partial<UrlState> {
  const d = defaultExposure(c), s: Partial<UrlState> = {};
  if (!e.auto) s.exposure = e.fixed;
  else if (e.stops !== d.stops) s['exposure-ev'] = e.stops;
  if (e.glow !== d.glow) s.glow = e.glow;
  return s;
}

const threeDigits = (v: number) => Number(v.toPrecision(3));

function slider(id: string, lo: number, hi: number, step: number, help: string): void {
  const input = $<HTMLInputElement>(id);
  Object.assign(input, { min: String(lo), max: String(hi), step: String(step) });
  input.closest('label')!.title = help;
}

// The sliders' ends from the core's ranges; once, at start.
export function setUpExposurePanel(c: ViewControls): void {
  slider('exposure-ev', c.exposureEv.lo, c.exposureEv.hi, STOPS_STEP, c.exposureEv.help);
  slider('exposure', Math.log10(c.exposure.lo), Math.log10(c.exposure.hi), DECADE_STEP, c.exposure.help);
  slider('glow', c.glow.lo, c.glow.hi, GLOW_STEP, c.glow.help);
}

// Shows `e`: the boxes, the sliders, their values in words, and the one exposure slider that applies.
export function showExposure(e: Exposure): void {
  $<HTMLInputElement>('auto-exposure').checked = e.auto;
  $<HTMLInputElement>('exposure-ev').value = String(e.stops);
  $<HTMLInputElement>('exposure').value = String(Math.log10(e.fixed));
  $<HTMLInputElement>('glow').value = String(e.glow);
  $('exposure-ev-value').textContent = `${e.stops >= 0 ? '+' : ''}${e.stops.toFixed(1)}`;
  $('exposure-value').textContent = String(threeDigits(e.fixed));
  $('glow-value').textContent = e.glow.toFixed(2);
  $('exposure-ev-row').hidden = !e.auto;
  $('exposure-row').hidden = e.auto;
}

// What each control sets from its input: a slider's value stands for itself, the fixed exposure's for its
// power of ten (three digits, as shown). Only the control moved changes the settings: the others keep theirs
// (a slider's step would round a value that came from the link).
const SETTERS: Record<string, (e: Exposure, input: HTMLInputElement) => void> = {
  'auto-exposure': (e, input) => (e.auto = input.checked),
  'exposure-ev': (e, input) => (e.stops = Number(input.value)),
  exposure: (e, input) => (e.fixed = threeDigits(10 ** Number(input.value))),
  glow: (e, input) => (e.glow = Number(input.value)),
};

// `apply` gets the settings while a slider moves (live) and once more as it is let go (`released`: the link's
// time; a link rewritten at every move would outrun the browsers' limits on address changes).
export function wireExposurePanel(current: () => Exposure, apply: (e: Exposure, released: boolean) => void): void {
  for (const [id, set] of Object.entries(SETTERS)) {
    const input = $<HTMLInputElement>(id);
    const moved = (): Exposure => {
      const e = { ...current() };
      set(e, input);
      return e;
    };
    input.addEventListener('input', () => apply(moved(), false));
    input.addEventListener('change', () => apply(moved(), true));
  }
}
