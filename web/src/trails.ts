// Fading trails behind the bodies, the WGSL twin of the desktop's (src/render/trails.cpp, shaders/trails.vert):
// a ring of `length` past positions a body on the GPU (slot-major: slot s holds every body's position), filled
// by a buffer copy from the simulation's positions (no read-back), drawn as one line strip a body (instanced,
// vertex index = age, 0 the newest) added into the HDR target after the sprites, fading as (1 - age / length)^2.
// A sample every `stride` frames in which the bodies moved; time going back (a reset) empties the ring. The
// length, stride and light are the desktop's TrailSettings, through the core (ViewControls.trails).
import { TrailLook } from './core';

export const TRAILS_WGSL = /* wgsl */ `
struct T { view: mat4x4f, proj: mat4x4f, n: u32, length: u32, head: u32, count: u32,
           intensity: f32, by_speed: f32, inv_span: f32, pad: f32, slots: array<vec4f, 8> } // rgb, light
@group(0) @binding(0) var<uniform> t: T;
@group(0) @binding(1) var<storage, read> ring: array<vec4f>;
@group(0) @binding(2) var cmap: texture_2d<f32>;
@group(0) @binding(3) var samp: sampler;
struct Out { @builtin(position) pos: vec4f, @location(0) colour: vec3f }
fn sample_at(age: u32, body: u32) -> vec4f {
  return ring[((t.head + t.length - age) % t.length) * t.n + body];
}
@vertex fn vs(@builtin(vertex_index) age: u32, @builtin(instance_index) body: u32, @location(0) group: u32) -> Out {
  var o: Out;
  let p = sample_at(age, body);
  o.pos = t.proj * t.view * vec4f(p.xyz, 1.0);
  let slot = t.slots[group % 8u];
  var c = slot.rgb;
  if (t.by_speed > 0.5) {
    // The speed between the samples on either side, in the sprites' colour map.
    let older = min(age + 1u, t.count - 1u);
    let newer = select(age - 1u, 0u, age == 0u);
    let gaps = f32(older - newer);
    let v = select(0.0, length(sample_at(newer, body).xyz - sample_at(older, body).xyz) / gaps * t.inv_span, gaps > 0.0);
    c = textureSampleLevel(cmap, samp, vec2f(clamp(v, 0.0, 1.0), 0.5), 0.0).rgb;
  }
  let fade = 1.0 - f32(age) / f32(max(t.length, 1u));
  o.colour = c * t.intensity * fade * fade * slot.w; // a hidden group none, dimmed dark matter dimmed
  return o;
}
@fragment fn fs(i: Out) -> @location(0) vec4f { return vec4f(i.colour, 1.0); }`;

// The samples a body that fit in one storage binding (the adapter's limit), at most `asked`; 0 below 2.
export function trailLengthFor(n: number, asked: number, maxBindingBytes: number): number {
  const fits = Math.floor(maxBindingBytes / (16 * Math.max(n, 1)));
  const length = Math.min(asked, fits);
  return length >= 2 ? length : 0;
}

export interface TrailDraw {
  view: Float32Array;
  proj: Float32Array;
  intensity: number; // a sprite centre's light (the sprites' per-body light)
  colourBySpeed: boolean;
  speedSpan: number; // speed at the top of the colour map
  slots: { colour: number[]; light: number }[]; // 8, as the sprites'
}

export class Trails {
  private ring: GPUBuffer | null = null;
  private n = 0;
  private updates = 0;
  private lastTime = Number.NaN;
  private sampleTimes: number[] = []; // simulated time of the newest two samples, for the speed colours
  length = 0; // slots (samples a body)
  head = -1; // slot of the newest sample
  count = 0; // samples held
  private uniforms: GPUBuffer;
  look: TrailLook | null = null; // the core's (the desktop's), set by the page once the core has loaded

  constructor(private device: GPUDevice, private pipeline: GPURenderPipeline) {
    this.uniforms = device.createBuffer({ size: 304, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  }

  // Forget the samples (a reset, a new scene); the ring itself goes when the size changes or trails go off.
  clear(): void {
    this.head = -1;
    this.count = 0;
    this.updates = 0;
    this.lastTime = Number.NaN;
    this.sampleTimes = [];
  }

  // Frees the ring (trails off).
  release(): void {
    this.ring?.destroy();
    this.ring = null;
    this.length = 0;
    this.clear();
  }

  // Called every frame with the simulated time drawn: a sample from `pos` (n float4) into the ring on every
  // `look.stride`-th frame the time moved. `length` slots (re-made, empty, when it or n changes).
  record(enc: GPUCommandEncoder, pos: GPUBuffer, n: number, length: number, time: number): void {
    if (!this.look || length < 2 || n < 1) return this.release();
    if (!this.ring || n !== this.n || length !== this.length) {
      this.release();
      this.ring = this.device.createBuffer({ size: 16 * n * length, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
      this.n = n;
      this.length = length;
    }
    if (time < this.lastTime) this.clear(); // time went back: no line back to where the bodies were
    if (time === this.lastTime) return;
    this.lastTime = time;
    if (this.updates++ % this.look.stride !== 0) return;
    this.head = (this.head + 1) % this.length;
    this.count = Math.min(this.count + 1, this.length);
    this.sampleTimes = [time, ...this.sampleTimes].slice(0, 2);
    enc.copyBufferToBuffer(pos, 0, this.ring, this.head * n * 16, n * 16);
  }

  // Into the pass drawing the HDR target, additively; `groups` the sprites' per-body group buffer.
  draw(pass: GPURenderPassEncoder, groups: GPUBuffer, cmap: GPUTexture, sampler: GPUSampler, d: TrailDraw): void {
    if (!this.ring || !this.look || this.count < 2) return;
    const u = new ArrayBuffer(304), f = new Float32Array(u), i = new Uint32Array(u);
    f.set(d.view, 0);
    f.set(d.proj, 16);
    i.set([this.n, this.length, this.head, this.count], 32);
    const gap = this.sampleTimes.length === 2 ? Math.abs(this.sampleTimes[0] - this.sampleTimes[1]) : 0;
    f.set([d.intensity * this.look.brightness, d.colourBySpeed ? 1 : 0, gap > 0 ? 1 / (Math.max(d.speedSpan, 1e-30) * gap) : 0, 0], 36);
    d.slots.forEach((s, k) => f.set([...s.colour, s.light], 40 + 4 * k));
    this.device.queue.writeBuffer(this.uniforms, 0, u);
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, this.device.createBindGroup({
      layout: this.pipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: this.uniforms } },
        { binding: 1, resource: { buffer: this.ring } },
        { binding: 2, resource: cmap.createView() },
        { binding: 3, resource: sampler },
      ],
    }));
    pass.setVertexBuffer(0, groups);
    pass.draw(this.count, this.n);
  }
}
