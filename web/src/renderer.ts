// Point sprites in WebGPU, the WGSL twin of shaders/particles.{vert,frag}: each body a soft Gaussian quad
// (WebGPU points are one pixel, so 4 vertices an instance), sized with perspective and clamped to 1..64 px (a
// few-body scene's at least 16), added (blend one + one) into a float (rgba16float, HDR) target, which the
// desktop's tone map then maps to the canvas (tone_map.ts). Colours: the scene component's (8 slots, group % 8,
// as the desktop's u_group_colours) or speed through a colour map from assets/colormaps; each slot's light, as
// the desktop's u_group_light, dims dark matter (and a light of 0 draws nothing).
import { ToneMapLook } from './core';
import { Exposure, ToneMapper } from './tone_map';
import { SlotStyle } from './view_look';
import { Trails, TRAILS_WGSL } from './trails';

export interface DrawParams {
  view: Float32Array; // column-major 4x4
  proj: Float32Array;
  pointSize: number; // px at the target distance
  targetDistance: number;
  intensity: number; // one body's peak light
  colourBySpeed: boolean;
  speedSpan: number; // speed mapped to the top of the colour map
  toneMap: ToneMapLook; // the desktop's tone map for this scene (white's least depth depends on N)
  exposure: Exposure; // the View panel's exposure and glow
  slots: SlotStyle[]; // 8: colour (linear RGB) and light of group % 8
  minSpritePx: number; // px: the smallest sprite (few-body scenes), drawn at full light
  trailLength: number; // samples a body the trails keep (0: no trails)
  time: number; // simulated time drawn: a trail samples when it moves and empties when it goes back
}

const SPRITE_WGSL = /* wgsl */ `
struct U { view: mat4x4f, proj: mat4x4f, viewport: vec2f, point_size: f32, target_distance: f32,
           intensity: f32, by_speed: f32, inv_speed: f32, min_size: f32, slots: array<vec4f, 8> } // rgb, light
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var cmap: texture_2d<f32>;
@group(0) @binding(2) var samp: sampler;
struct Out { @builtin(position) pos: vec4f, @location(0) corner: vec2f, @location(1) colour: vec3f }
@vertex fn vs(@builtin(vertex_index) vi: u32, @location(0) pm: vec4f, @location(1) vel: vec4f,
              @location(2) group: u32) -> Out {
  var o: Out;
  let slot = u.slots[group % 8u];
  let corner = vec2f(f32(vi & 1u), f32(vi >> 1u)) * 2.0 - 1.0;
  let vp = u.view * vec4f(pm.xyz, 1.0);
  let depth = -vp.z;
  let raw = u.point_size * u.target_distance / max(depth, 1e-6);
  let size = clamp(max(raw, u.min_size), 1.0, 64.0);
  var clip = u.proj * vp;
  clip = vec4f(clip.xy + corner * size / u.viewport * clip.w, clip.zw);
  o.pos = clip;
  o.corner = corner;
  var c = slot.rgb;
  if (u.by_speed > 0.5) {
    let t = clamp(length(vel.xyz) * u.inv_speed, 0.0, 1.0);
    c = textureSampleLevel(cmap, samp, vec2f(t, 0.5), 0.0).rgb;
  }
  // Sprites clamped up to 1 px (far away) keep the light of their true area; a few-body scene's floor
  // (min_size > 1) draws every sprite at its full light.
  let shrink = select(min(raw * raw, 1.0), 1.0, u.min_size > 1.0);
  o.colour = c * u.intensity * shrink * slot.w;
  // Behind the eye, or light 0: outside the clip volume, so it costs no fragments.
  if (depth <= 0.0 || slot.w <= 0.0) { o.pos = vec4f(2.0, 2.0, 2.0, 1.0); }
  return o;
}
@fragment fn fs(i: Out) -> @location(0) vec4f {
  let r2 = dot(i.corner, i.corner);
  if (r2 > 1.0) { discard; }
  return vec4f(i.colour * exp(-r2 * 4.0), 1.0);
}`;

export class Renderer {
  private uniforms: GPUBuffer;
  private groups: GPUBuffer | null = null;
  private cmap: GPUTexture;
  private sampler: GPUSampler;
  private hdr: GPUTexture | null = null;

  // The pipelines compile asynchronously (beside the start-up probe's kernel on a slow GPU).
  static async create(device: GPUDevice, context: GPUCanvasContext, colormap: number[][]): Promise<Renderer> {
    const format = navigator.gpu.getPreferredCanvasFormat();
    context.configure({ device, format, alphaMode: 'opaque' });
    const add: GPUBlendComponent = { srcFactor: 'one', dstFactor: 'one', operation: 'add' };
    const spriteModule = device.createShaderModule({ code: SPRITE_WGSL });
    const instance = (location: number, format: GPUVertexFormat, stride: number): GPUVertexBufferLayout => ({
      arrayStride: stride, stepMode: 'instance', attributes: [{ shaderLocation: location, offset: 0, format }],
    });
    const trailModule = device.createShaderModule({ code: TRAILS_WGSL });
    const hdrAdd: GPUColorTargetState[] = [{ format: 'rgba16float', blend: { color: add, alpha: add } }];
    const [sprite, trail, toneMap] = await Promise.all([
      device.createRenderPipelineAsync({
        layout: 'auto',
        vertex: { module: spriteModule, entryPoint: 'vs', buffers: [instance(0, 'float32x4', 16), instance(1, 'float32x4', 16), instance(2, 'uint32', 4)] },
        fragment: { module: spriteModule, entryPoint: 'fs', targets: hdrAdd },
        primitive: { topology: 'triangle-strip' },
      }),
      device.createRenderPipelineAsync({
        layout: 'auto',
        vertex: { module: trailModule, entryPoint: 'vs', buffers: [instance(0, 'uint32', 4)] },
        fragment: { module: trailModule, entryPoint: 'fs', targets: hdrAdd },
        primitive: { topology: 'line-strip' },
      }),
      ToneMapper.create(device, format),
    ]);
    return new Renderer(device, context, colormap, sprite, new Trails(device, trail), toneMap);
  }

  private constructor(private device: GPUDevice, private context: GPUCanvasContext, colormap: number[][],
                      private sprite: GPURenderPipeline, readonly trails: Trails, private toneMap: ToneMapper) {
    this.uniforms = device.createBuffer({ size: 304, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.cmap = device.createTexture({ size: [colormap.length, 1], format: 'rgba8unorm', usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST });
    const texels = new Uint8Array(colormap.length * 4);
    colormap.forEach((c, i) => texels.set([...c.map((x) => Math.round(255 * x)), 255], 4 * i));
    device.queue.writeTexture({ texture: this.cmap }, texels, { bytesPerRow: colormap.length * 4 }, [colormap.length, 1]);
    this.sampler = device.createSampler({ magFilter: 'linear', minFilter: 'linear' });
  }

  // One sprite of no light drawn (and measured and mapped) while the page loads: SwiftShader compiles its
  // raster routines at a pipeline's first draw, which the first frame with bodies then does not wait for.
  // The core may not have loaded yet: any tone-map numbers do, since no light reaches the measurement.
  warmUp(): void {
    const toneMap: ToneMapLook = { kneeSprites: 1, whiteOverMeasured: 1, adaptPerFrame: 1, measureTexels: 256, tileTexels: 8, litFloorSprites: 1, minWhiteSprites: 1, background: [0, 0, 0] };
    const exposure: Exposure = { auto: true, stops: 0, fixed: 1, glow: 1 };
    const body = this.device.createBuffer({ size: 16, usage: GPUBufferUsage.VERTEX }); // zeros: at rest at 0
    const identity = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    this.setGroups(new Uint32Array(1));
    const slots = Array.from({ length: 8 }, () => ({ colour: [0, 0, 0], light: 1 }));
    this.draw(body, body, 1, { view: identity, proj: identity, pointSize: 1, targetDistance: 1, intensity: 0, colourBySpeed: false, speedSpan: 1, toneMap, exposure, slots, minSpritePx: 1, trailLength: 0, time: 0 });
    body.destroy();
  }

  // A new scene or a reset: also its own exposure from its first frame.
  setGroups(group: Uint32Array<ArrayBuffer>): void {
    this.toneMap.restart();
    this.trails.clear();
    this.groups?.destroy();
    this.groups = this.device.createBuffer({ size: Math.max(4, group.byteLength), usage: GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_DST });
    this.device.queue.writeBuffer(this.groups, 0, group);
  }

  private target(w: number, h: number): GPUTexture {
    if (!this.hdr || this.hdr.width !== w || this.hdr.height !== h) {
      this.hdr?.destroy();
      this.hdr = this.device.createTexture({ size: [w, h], format: 'rgba16float', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING });
    }
    return this.hdr;
  }

  private writeUniforms(p: DrawParams, w: number, h: number): void {
    const u = new Float32Array(76);
    u.set(p.view, 0);
    u.set(p.proj, 16);
    u.set([w, h, p.pointSize, p.targetDistance, p.intensity, p.colourBySpeed ? 1 : 0, 1 / Math.max(p.speedSpan, 1e-30), p.minSpritePx], 32);
    p.slots.forEach((s, i) => u.set([...s.colour, s.light], 40 + 4 * i));
    this.device.queue.writeBuffer(this.uniforms, 0, u);
  }

  draw(pos: GPUBuffer, vel: GPUBuffer, n: number, p: DrawParams): void {
    const canvasTex = this.context.getCurrentTexture();
    const hdr = this.target(canvasTex.width, canvasTex.height);
    this.writeUniforms(p, canvasTex.width, canvasTex.height);
    const enc = this.device.createCommandEncoder();
    if (p.trailLength > 0 && n > 0) this.trails.record(enc, pos, n, p.trailLength, p.time);
    else this.trails.release();
    const pass = enc.beginRenderPass({
      colorAttachments: [{ view: hdr.createView(), loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 0] }],
    });
    if (n > 0 && this.groups) {
      pass.setPipeline(this.sprite);
      pass.setBindGroup(0, this.device.createBindGroup({
        layout: this.sprite.getBindGroupLayout(0),
        entries: [
          { binding: 0, resource: { buffer: this.uniforms } },
          { binding: 1, resource: this.cmap.createView() },
          { binding: 2, resource: this.sampler },
        ],
      }));
      pass.setVertexBuffer(0, pos);
      pass.setVertexBuffer(1, vel);
      pass.setVertexBuffer(2, this.groups);
      pass.draw(4, n);
      // The trails add over the sprites, in the same colours and light (the desktop's order).
      this.trails.draw(pass, this.groups, this.cmap, this.sampler, p);
    }
    pass.end();
    this.toneMap.encode(enc, hdr, canvasTex.createView(), { look: p.toneMap, exposure: p.exposure, spriteLight: p.intensity });
    this.device.queue.submit([enc.finish()]);
  }
}
