// The HTML panels: small helpers over the elements in index.html, the live figures and the race's bars.
import { FLOPS_PER_INTERACTION } from './kernels';

export const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;

// Rates as the desktop writes them: three significant digits and an SI prefix ("2.52 G interactions/s",
// "50.4 Gflop/s": a unit that is a word gets a space after the prefix).
export function si(v: number, unit: string): string {
  if (!Number.isFinite(v) || v <= 0) return `0 ${unit}`;
  const prefixes = ['', 'k', 'M', 'G', 'T', 'P'];
  let p = 0;
  while (v >= 999.5 && p < prefixes.length - 1) v /= 1000, ++p;
  const word = unit.length > 0 && !unit.startsWith('flop');
  return `${v.toPrecision(3)} ${prefixes[p]}${word && prefixes[p] ? ' ' : ''}${unit}`;
}

export interface Figures {
  n: number;
  time: number;
  stepsPerSecond: number;
  framesPerSecond: number;
  energyError: number | null; // |E - E0| / |E0|, null while not measured
  backend: string;
  // On the tree: its accelerations' relative errors against float64 direct summation (undefined elsewhere,
  // null while not measured).
  treeError?: { median: number; p99: number } | null;
}

export function showFigures(f: Figures): void {
  const interactions = f.n * f.n * f.stepsPerSecond;
  const rows: [string, string][] = [
    ['running on', f.backend],
    ['bodies', f.n.toLocaleString('en')],
    ['time', f.time.toFixed(3)],
    ['frames/s', f.framesPerSecond.toFixed(1)],
    ['steps/s', f.stepsPerSecond.toPrecision(3)],
    // On the tree, what direct summation would have to do for the same steps (N^2 a step).
    [f.treeError === undefined ? 'interactions/s' : 'interactions/s (as N²)', si(interactions, '')],
    [`flop/s (${FLOPS_PER_INTERACTION} a pair)`, si(interactions * FLOPS_PER_INTERACTION, 'flop/s')],
    ['energy error', f.energyError === null ? '…' : f.energyError.toExponential(2)],
  ];
  if (f.treeError !== undefined) {
    const e = f.treeError;
    rows.push(['force error vs float64', e ? `median ${e.median.toExponential(1)}, 99% ${e.p99.toExponential(1)}` : '…']);
  }
  $('stats').innerHTML = rows.map(([k, v]) => `<tr><td>${k}</td><td>${v}</td></tr>`).join('');
}

export function showRace(results: { label: string; rate: number }[]): void {
  const best = Math.max(...results.map((r) => r.rate), 1);
  $('race-bars').innerHTML = results
    .map((r) => `<div class="race-row"><div class="bar" style="width:${Math.max(2, (100 * r.rate) / best)}%"></div><span>${r.label}: ${si(r.rate, 'interactions/s')}</span></div>`)
    .join('');
}

export function showError(text: string): void {
  const e = $('error');
  e.textContent = text;
  e.hidden = !text;
}

export function showNote(text: string): void {
  const e = $('note');
  e.textContent = text;
  e.hidden = !text;
}

// A text input holding a number: parsed, checked by `check` (the registry's words), marked when refused.
export function readNumber(id: string, check: (v: number) => string): number | null {
  const input = $<HTMLInputElement>(id);
  const v = Number(input.value.trim());
  const why = input.value.trim() === '' || !Number.isFinite(v) ? `'${input.value}' is not a number` : check(v);
  input.classList.toggle('bad', !!why);
  if (why) {
    showError(`${id}: ${why}`);
    return null;
  }
  return v;
}
