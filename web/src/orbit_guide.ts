// The orbit guide of a choreography scene (the desktop's, src/app/viewer.cpp and src/scene/orbit_guides.hpp):
// the exact point-mass eight as dashes of equal time (4 samples drawn, 4 left out: long where the motion is
// fast) and a ring where each point mass would be now, so a class sees when the bodies or galaxies leave the
// orbit. Drawn on a 2D canvas over the picture (both the WebGPU and the CPU path), projected with the
// sprites' own matrices.
import { Mat4 } from './camera';

export interface OrbitGuide {
  label: string; // the legend's words: "the four-body eight"
  points: Float32Array; // x, y, z a sample at t = 0, closed (the last is the first)
  velocity: number[]; // the curve moves with its centre of mass (length / time)
  period: number; // time units
  phases: number[]; // where each member starts along the curve, as a share of the period
}

export const GUIDE_CSS = 'rgb(179, 199, 255)'; // the desktop's kGuideColour (0.7, 0.78, 1.0)
const DASH_SAMPLES = 4, LINE_ALPHA = 0.4, RING_ALPHA = 0.8, RING_PX = 8, LINE_PX = 2;

// A member's point on the curve at time t: the samples either side of (t / period + phase) mod 1, blended,
// moved with the curve's velocity.
export function guidePosition(g: OrbitGuide, phase: number, t: number): number[] {
  const samples = g.points.length / 3 - 1;
  if (samples < 1 || !(g.period > 0) || !Number.isFinite(t)) return [g.points[0] ?? 0, g.points[1] ?? 0, g.points[2] ?? 0];
  let f = (t / g.period + phase) % 1;
  if (f < 0) f += 1;
  const at = f * samples, k = Math.min(Math.floor(at), samples - 1), w = at - k;
  return [0, 1, 2].map((i) => (1 - w) * g.points[3 * k + i] + w * g.points[3 * k + 3 + i] + t * g.velocity[i]);
}

// Window pixels of a world point through proj * view (column-major), or null behind the eye.
function project(p: number[], view: Mat4, proj: Mat4, w: number, h: number): [number, number] | null {
  const m = (a: Mat4, v: number[]) => [0, 1, 2, 3].map((r) => a[r] * v[0] + a[4 + r] * v[1] + a[8 + r] * v[2] + a[12 + r] * v[3]);
  const c = m(proj, m(view, [p[0], p[1], p[2], 1]));
  if (!(c[3] > 0)) return null;
  return [(c[0] / c[3] * 0.5 + 0.5) * w, (0.5 - c[1] / c[3] * 0.5) * h];
}

// Clears `canvas` (sized to w x h device pixels) and draws the guides at time t; nothing when `on` is false.
export function drawGuides(canvas: HTMLCanvasElement, guides: OrbitGuide[], view: Mat4, proj: Mat4, t: number, on: boolean, dpr: number, w: number, h: number): void {
  if (canvas.width !== w || canvas.height !== h) Object.assign(canvas, { width: w, height: h });
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.clearRect(0, 0, w, h);
  if (!on) return;
  ctx.strokeStyle = GUIDE_CSS;
  ctx.lineCap = 'butt';
  for (const g of guides) {
    const n = g.points.length / 3;
    const px = Array.from({ length: n }, (_, k) =>
      project([0, 1, 2].map((i) => g.points[3 * k + i] + t * g.velocity[i]), view, proj, w, h));
    ctx.globalAlpha = LINE_ALPHA;
    ctx.lineWidth = LINE_PX * dpr;
    ctx.beginPath();
    for (let k = 0; k + 1 < n; k += 2 * DASH_SAMPLES) {
      const end = Math.min(n - 1, k + DASH_SAMPLES);
      for (let j = k; j < end; ++j) {
        const a = px[j], b = px[j + 1];
        if (!a || !b) continue; // a segment with an end behind the eye is left out
        ctx.moveTo(a[0], a[1]);
        ctx.lineTo(b[0], b[1]);
      }
    }
    ctx.stroke();
    ctx.globalAlpha = RING_ALPHA;
    ctx.lineWidth = 1.5 * dpr;
    for (const phase of g.phases) {
      const c = project(guidePosition(g, phase, t), view, proj, w, h);
      if (!c) continue;
      ctx.beginPath();
      ctx.arc(c[0], c[1], RING_PX * dpr, 0, 2 * Math.PI);
      ctx.stroke();
    }
  }
  ctx.globalAlpha = 1;
}
