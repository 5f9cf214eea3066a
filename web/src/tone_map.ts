// The desktop's tone map in WebGPU (src/render/tone_map.cpp), the HDR light of the sprites to the canvas.
// The automatic exposure measures the frame on the GPU with nothing read back, as the desktop does, from the
// light's mip level of at most 256 texels across (mip_chain.ts), in two compute dispatches that are the
// desktop's passes line by line: tiles of 8 x 8 texels keeping the brightest texel's log2 and the count of lit
// ones (shaders/exposure_tiles.frag), and one invocation combining the tiles and easing the stored value towards
// them (shaders/exposure.frag). The map is shaders/tonemap.frag's: the glow (mip levels 1 to 3 added back), then
// an asinh stretch with a shoulder, so cores keep their gradient and faint tails show. The numbers (knee, white
// over the measured brightest, white's least depth, the sky) come from the core (web/core/tone_map_web.cpp);
// the curve's shape (shoulder at 0.85, whitening, gamma 2.2) and the glow's weights are in the WGSL below, as
// in the GLSL. The View panel's exposure and glow apply as the desktop's ToneMapper::draw applies them.
import { ToneMapLook } from './core';
import { MipChain } from './mip_chain';

// The View panel's exposure and glow, the desktop's RenderSettings auto_exposure, exposure_ev, exposure, glow.
export interface Exposure {
  auto: boolean; // white from the frame's own brightest light, measured on the GPU
  stops: number; // auto: this many stops brighter (+) or darker (-) than measured
  fixed: number; // not auto: light 1 / fixed is white
  glow: number; // the coarse levels' weight added back (0: none)
}

// The tone map's input for a frame: the scene's numbers, the panel's exposure and glow, and one body's peak
// light (the sprite shader's).
export interface ToneMapParams {
  look: ToneMapLook;
  exposure: Exposure;
  spriteLight: number;
}

// White's light and least light for a frame (src/render/tone_map.cpp, ToneMapper::draw): auto, a factor on the
// measured brightest (+1 stop halves the light that is white) and a floor; fixed, white itself.
function whiteUniforms(look: ToneMapLook, e: Exposure, sprite: number): { whiteScale: number; minWhite: number } {
  const stops = Math.pow(2, -e.stops);
  return {
    whiteScale: e.auto ? look.whiteOverMeasured * stops : 1 / Math.max(e.fixed, 1e-12),
    minWhite: look.minWhiteSprites * sprite * stops,
  };
}

// The glow reads the light's mip levels 1 to 3.
const GLOW_LEVELS = 3;

const EXPOSURE_WGSL = /* wgsl */ `
struct M { tile: u32, lit_floor: f32, adapt: f32 }
@group(0) @binding(0) var light_level: texture_2d<f32>; // the measured mip level of the light
@group(0) @binding(1) var<uniform> m: M;
@group(0) @binding(2) var<storage, read_write> tiles: array<vec2f>; // log2 brightest lit texel, lit texels
@group(0) @binding(3) var<storage, read_write> measured: vec4f; // log2 brightest, lit share, -, -
fn tiles_across() -> vec2u { return (textureDimensions(light_level) + vec2u(m.tile - 1u)) / m.tile; }
@compute @workgroup_size(8, 8) fn tile(@builtin(global_invocation_id) id: vec3u) {
  let size = textureDimensions(light_level);
  let n = tiles_across();
  if (id.x >= n.x || id.y >= n.y) { return; }
  let first = id.xy * m.tile;
  var max_log = -126.0;
  var lit = 0.0;
  for (var y = first.y; y < min(first.y + m.tile, size.y); y++) {
    for (var x = first.x; x < min(first.x + m.tile, size.x); x++) {
      let c = textureLoad(light_level, vec2u(x, y), 0).rgb;
      let light = max(c.r, max(c.g, c.b));
      if (light > m.lit_floor) {
        max_log = max(max_log, log2(light));
        lit += 1.0;
      }
    }
  }
  tiles[id.y * n.x + id.x] = vec2f(max_log, lit);
}
// A store that never saw a lit frame takes one at once; an empty frame changes nothing.
@compute @workgroup_size(1) fn combine() {
  let size = textureDimensions(light_level);
  let n = tiles_across();
  var max_log = -126.0;
  var lit = 0.0;
  for (var i = 0u; i < n.x * n.y; i++) {
    max_log = max(max_log, tiles[i].x);
    lit += tiles[i].y;
  }
  let previous = measured;
  let now = vec4f(max_log, lit / f32(size.x * size.y), 0.0, 1.0);
  let a = select(select(0.0, m.adapt, lit > 0.0), 1.0, previous.y <= 0.0);
  measured = mix(previous, now, a);
}`;

const TONEMAP_WGSL = /* wgsl */ `
struct T { background: vec3f, knee: f32, white_scale: f32, min_white: f32, glow: f32, fixed: f32 } // fixed: 1 = no auto
@group(0) @binding(0) var hdr: texture_2d<f32>;
@group(0) @binding(1) var<uniform> u: T;
@group(0) @binding(2) var<storage, read> measured: vec4f;
@group(0) @binding(3) var coarse: texture_2d<f32>; // the light's mip levels 1, 2, ... as levels 0, 1, ... (mip_chain.ts)
@group(0) @binding(4) var samp: sampler;
@vertex fn vs(@builtin(vertex_index) vi: u32) -> @builtin(position) vec4f {
  let p = vec2f(f32((vi << 1u) & 2u), f32(vi & 2u));
  return vec4f(p * 2.0 - 1.0, 0.0, 1.0);
}
// White: white_scale times the frame's brightest light, and at least min_white; with a fixed exposure,
// white_scale itself.
fn white_light() -> f32 {
  if (u.fixed > 0.5) { return u.white_scale; }
  return select(u.min_white, max(u.white_scale * exp2(measured.x), u.min_white), measured.y > 0.0);
}
// Four bilinear taps half a texel off centre weigh a level's 3 x 3 neighbourhood 1 2 1 / 2 4 2 / 1 2 1, so its
// blocks do not show as squares.
fn tent(uv: vec2f, level: u32) -> vec3f {
  let k = min(level, textureNumLevels(coarse) - 1u);
  let h = 0.5 / vec2f(textureDimensions(coarse, k));
  let lod = f32(k);
  return 0.25 * (textureSampleLevel(coarse, samp, uv + vec2f(-h.x, -h.y), lod).rgb +
                 textureSampleLevel(coarse, samp, uv + vec2f(h.x, -h.y), lod).rgb +
                 textureSampleLevel(coarse, samp, uv + vec2f(-h.x, h.y), lod).rgb +
                 textureSampleLevel(coarse, samp, uv + vec2f(h.x, h.y), lod).rgb);
}
// Past 0.85 eases towards 1 without reaching it (8-bit white needs t > 1.5).
fn shoulder(t: f32) -> f32 {
  return select(0.85 + 0.15 * (1.0 - exp(-(t - 0.85) / 0.15)), t, t < 0.85);
}
@fragment fn fs(@builtin(position) p: vec4f) -> @location(0) vec4f {
  var light = textureLoad(hdr, vec2i(p.xy), 0).rgb;
  if (u.glow > 0.0) {
    let uv = p.xy / vec2f(textureDimensions(hdr));
    light += u.glow * (0.5 * tent(uv, 0u) + 0.3 * tent(uv, 1u) + 0.2 * tent(uv, 2u));
  }
  light = max(light, vec3f(0.0));
  let i = max(light.r, max(light.g, light.b));
  var c = u.background;
  if (i > 0.0) {
    let t = shoulder(asinh(i / u.knee) / asinh(white_light() / u.knee));
    // The colour as a display shows it (gamma 2.2), scaled as a whole so its hue survives; the brightest
    // part whitens a little, as a photograph's core does.
    let hue = pow(max(light / i, vec3f(1e-20)), vec3f(1.0 / 2.2));
    let mapped = t * mix(hue, vec3f(1.0), 0.6 * smoothstep(0.75, 1.0, t));
    c = u.background + mapped * (vec3f(1.0) - u.background);
  }
  return vec4f(c, 1.0);
}`;

// The measured level and its tiles for one HDR target (and its mip levels).
interface Measurement {
  coarse: GPUTexture;
  level: number;
  tile: number;
  tiles: [number, number];
  exposureGroup: GPUBindGroup;
  toneGroup: GPUBindGroup;
  tileBuffer: GPUBuffer;
}

export class ToneMapper {
  private measured: GPUBuffer;
  private exposureUniforms: GPUBuffer;
  private toneUniforms: GPUBuffer;
  private at: Measurement | null = null;
  private restarting = true;

  static async create(device: GPUDevice, format: GPUTextureFormat): Promise<ToneMapper> {
    const stage = GPUShaderStage.COMPUTE;
    const layout = device.createBindGroupLayout({
      entries: [
        { binding: 0, visibility: stage, texture: { sampleType: 'unfilterable-float' } },
        { binding: 1, visibility: stage, buffer: { type: 'uniform' } },
        ...[2, 3].map((binding) => ({ binding, visibility: stage, buffer: { type: 'storage' as const } })),
      ],
    });
    const exposure = device.createShaderModule({ code: EXPOSURE_WGSL });
    const tone = device.createShaderModule({ code: TONEMAP_WGSL });
    const pipelineLayout = device.createPipelineLayout({ bindGroupLayouts: [layout] });
    const pass = (entryPoint: string) => device.createComputePipelineAsync({ layout: pipelineLayout, compute: { module: exposure, entryPoint } });
    const [mips, tile, combine, map] = await Promise.all([MipChain.create(device), pass('tile'), pass('combine'),
      device.createRenderPipelineAsync({
        layout: 'auto',
        vertex: { module: tone, entryPoint: 'vs' },
        fragment: { module: tone, entryPoint: 'fs', targets: [{ format }] },
      })]);
    return new ToneMapper(device, mips, layout, tile, combine, map);
  }

  private constructor(private device: GPUDevice, private mips: MipChain, private layout: GPUBindGroupLayout,
                      private tile: GPUComputePipeline, private combine: GPUComputePipeline, private map: GPURenderPipeline) {
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
    this.measured = device.createBuffer({ size: 16, usage }); // zeros: lit share 0, nothing measured yet
    this.exposureUniforms = device.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.toneUniforms = device.createBuffer({ size: 32, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  }

  // The next measurement replaces the stored one at once (a new scene, a reset), rather than the exposure
  // easing towards it over about ten frames.
  restart(): void {
    this.restarting = true;
  }

  // Measures the frame's light in `hdr` and maps it into `target`, in `enc`'s order after the sprites.
  encode(enc: GPUCommandEncoder, hdr: GPUTexture, target: GPUTextureView, p: ToneMapParams): void {
    const t = p.look;
    const level = Math.max(0, Math.ceil(Math.log2(Math.max(hdr.width, hdr.height) / t.measureTexels)));
    const coarse = this.mips.encode(enc, hdr, Math.max(GLOW_LEVELS, level));
    const m = this.measurement(hdr, coarse, level, t.tileTexels);
    const sprite = Math.max(p.spriteLight, 1e-30);
    // A texel (the mean of 4^level pixels) counts as lit once it holds a hundredth of one sprite's peak.
    const exposure = new DataView(new ArrayBuffer(12));
    exposure.setUint32(0, m.tile, true);
    exposure.setFloat32(4, (t.litFloorSprites * sprite) / 4 ** level, true);
    exposure.setFloat32(8, this.restarting ? 1 : t.adaptPerFrame, true);
    this.restarting = false;
    this.device.queue.writeBuffer(this.exposureUniforms, 0, exposure);
    const bg = t.background.map((c) => Math.pow(Math.min(1, Math.max(0, c)), 1 / 2.2));
    const e = p.exposure, white = whiteUniforms(t, e, sprite);
    this.device.queue.writeBuffer(this.toneUniforms, 0, new Float32Array([...bg, t.kneeSprites * sprite, white.whiteScale, white.minWhite, e.glow, e.auto ? 0 : 1]));

    // Measured with a fixed exposure too (the desktop then skips it): auto switched back on starts from the
    // present frame's light.
    const measure = enc.beginComputePass();
    measure.setBindGroup(0, m.exposureGroup);
    measure.setPipeline(this.tile);
    measure.dispatchWorkgroups(Math.ceil(m.tiles[0] / 8), Math.ceil(m.tiles[1] / 8));
    measure.setPipeline(this.combine);
    measure.dispatchWorkgroups(1);
    measure.end();
    const map = enc.beginRenderPass({ colorAttachments: [{ view: target, loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 1] }] });
    map.setPipeline(this.map);
    map.setBindGroup(0, m.toneGroup);
    map.draw(3);
    map.end();
  }

  // Made anew for new mip levels (a new HDR target: a resize), which also restarts the exposure, as the
  // desktop's does.
  private measurement(hdr: GPUTexture, coarse: GPUTexture, level: number, tile: number): Measurement {
    if (this.at?.coarse === coarse && this.at.level === level && this.at.tile === tile) return this.at;
    this.at?.tileBuffer.destroy();
    const size = [Math.max(hdr.width >> level, 1), Math.max(hdr.height >> level, 1)];
    const tiles: [number, number] = [Math.ceil(size[0] / tile), Math.ceil(size[1] / tile)];
    const tileBuffer = this.device.createBuffer({ size: 8 * tiles[0] * tiles[1], usage: GPUBufferUsage.STORAGE });
    // Level 0 is the HDR target itself; level k of the light is level k - 1 of `coarse`.
    const measuredLevel = level === 0 ? hdr.createView() : coarse.createView({ baseMipLevel: level - 1, mipLevelCount: 1 });
    this.at = {
      coarse, level, tile, tiles, tileBuffer,
      exposureGroup: this.device.createBindGroup({
        layout: this.layout,
        entries: [
          { binding: 0, resource: measuredLevel }, { binding: 1, resource: { buffer: this.exposureUniforms } },
          { binding: 2, resource: { buffer: tileBuffer } }, { binding: 3, resource: { buffer: this.measured } },
        ],
      }),
      toneGroup: this.device.createBindGroup({
        layout: this.map.getBindGroupLayout(0),
        entries: [
          { binding: 0, resource: hdr.createView() }, { binding: 1, resource: { buffer: this.toneUniforms } },
          { binding: 2, resource: { buffer: this.measured } }, { binding: 3, resource: coarse.createView() },
          { binding: 4, resource: this.mips.sampler },
        ],
      }),
    };
    this.restarting = true;
    return this.at;
  }
}
