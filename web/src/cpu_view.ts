// The path without WebGPU: the desktop's CPU backend (WebAssembly, on every core where the page is cross-origin
// isolated, else one thread) steps the bodies, by direct summation in float64 at a small N or by its Barnes-Hut
// tree at a larger one, and a 2D canvas draws them with the same camera, colours, dark-matter dimming and
// additive light ('lighter').
import { Core, CpuCore, CpuMethod, CpuRun, SceneOk } from './core';
import { showError } from './panels';
import { TREE_PROBE_BODIES } from './probe';
import { DrawParams } from './renderer';

export class CpuView {
  private run: CpuRun | null = null;
  private group: Uint32Array<ArrayBuffer> = new Uint32Array(0);
  private pos: Float32Array<ArrayBuffer> = new Float32Array(0);
  private vel: Float32Array<ArrayBuffer> = new Float32Array(0);
  private ctx: CanvasRenderingContext2D;

  // core: the scenes; runs: what steps them (CpuCore: on threads or not).
  constructor(private core: Core, readonly runs: CpuCore, canvas: HTMLCanvasElement, private colormap: number[][]) {
    this.ctx = canvas.getContext('2d')!;
  }

  load(s: SceneOk, method: CpuMethod): void {
    this.run?.delete();
    this.run = new this.runs.CpuRun(s.posMass, s.vel, 'fp64', method);
    this.group = s.group;
    this.pos = s.posMass;
    this.vel = s.vel;
  }

  step(steps: number, p: { dt: number; eps: number; G: number }): void {
    const problem = this.run!.step(steps, p.dt, p.eps, p.G);
    if (problem) return showError(problem);
    this.pos = this.run!.positions();
    this.vel = this.run!.velocities();
  }

  state(): { pos: Float32Array<ArrayBuffer>; vel: Float32Array<ArrayBuffer> } {
    return { pos: this.pos, vel: this.vel };
  }

  // Interactions/s of the float64 force here (a 512-body Plummer sphere, two steps).
  probeRate(): number {
    const s = this.core.loadScene('plummer', '', 512);
    if (!s.ok) return 1e7;
    return (512 * 512) / this.secondsAStep(s, 'direct');
  }

  // Seconds a tree step of a TREE_PROBE_BODIES-body Plummer sphere takes here.
  probeTreeStep(): number {
    const s = this.core.loadScene('plummer', '', TREE_PROBE_BODIES);
    return s.ok ? this.secondsAStep(s, 'tree') : 0.1;
  }

  // "cpu f64 loop, fp64, leapfrog": what steps the bodies.
  label(): string {
    return this.run?.label() ?? '';
  }

  // Two steps after a first one (which starts the integrator).
  private secondsAStep(s: SceneOk, method: CpuMethod): number {
    const r = new this.runs.CpuRun(s.posMass, s.vel, 'fp64', method);
    r.step(1, s.dt, s.eps, s.G);
    const t0 = performance.now();
    r.step(2, s.dt, s.eps, s.G);
    const secs = Math.max(1e-3, (performance.now() - t0) / 1000) / 2;
    r.delete();
    return secs;
  }

  // A simpler picture than the WebGPU path's: a 2D canvas has no float target, so each body's colour is added
  // gamma-encoded and saturates at 255 where many overlap, with no measured exposure or asinh curve (the
  // desktop's tone map, tone_map.ts). Kept so: in its 20 ms budget this path steps a few thousand bodies at
  // most, where few squares (at most 16 px) overlap; p.toneMap and p.intensity are not read.
  draw(p: DrawParams, w: number, h: number): void {
    const c = this.ctx, v = p.view, m = p.proj;
    c.globalCompositeOperation = 'source-over';
    c.fillStyle = '#020208';
    c.fillRect(0, 0, w, h);
    c.globalCompositeOperation = 'lighter';
    const n = this.pos.length / 4;
    for (let i = 0; i < n; ++i) {
      const x = this.pos[4 * i], y = this.pos[4 * i + 1], z = this.pos[4 * i + 2];
      const vx = v[0] * x + v[4] * y + v[8] * z + v[12], vy = v[1] * x + v[5] * y + v[9] * z + v[13];
      const vz = v[2] * x + v[6] * y + v[10] * z + v[14];
      const slot = p.slots[this.group[i] % 8];
      if (-vz <= 0 || slot.light <= 0) continue;
      const sx = ((m[0] * vx) / -vz) * 0.5 + 0.5, sy = 0.5 - ((m[5] * vy) / -vz) * 0.5;
      const size = Math.min(16, Math.max(1.5, p.minSpritePx, (p.pointSize * p.targetDistance) / -vz));
      let col = slot.colour;
      if (p.colourBySpeed) {
        const sp = Math.hypot(this.vel[4 * i], this.vel[4 * i + 1], this.vel[4 * i + 2]) / p.speedSpan;
        col = this.colormap[Math.min(this.colormap.length - 1, Math.floor(Math.min(1, sp) * (this.colormap.length - 1)))];
      }
      c.fillStyle = `rgb(${col.map((k) => Math.round(255 * Math.pow(k * slot.light, 1 / 2.2))).join(',')})`;
      c.fillRect(sx * w - size / 2, sy * h - size / 2, size, size);
    }
  }
}
