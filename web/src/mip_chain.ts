// The HDR light's mip levels, as the desktop's glGenerateMipmap gives them: the tone map adds levels 1 to 3
// (blocks of 2, 4 and 8 pixels) back as the glow, and the automatic exposure measures the level of at most 256
// texels across (level 2 or 3 on most screens). WebGPU makes no mip levels by itself: render passes halve the
// light in turn, each texel the mean of the 2 x 2 below it (one bilinear tap at their shared corner), as a box
// filter does. Level k of the light is level k - 1 of the texture made here (level 0 is the HDR target itself).
const HALVE_WGSL = /* wgsl */ `
@group(0) @binding(0) var finer: texture_2d<f32>;
@group(0) @binding(1) var samp: sampler;
@vertex fn vs(@builtin(vertex_index) vi: u32) -> @builtin(position) vec4f {
  let p = vec2f(f32((vi << 1u) & 2u), f32(vi & 2u));
  return vec4f(p * 2.0 - 1.0, 0.0, 1.0);
}
@fragment fn fs(@builtin(position) p: vec4f) -> @location(0) vec4f {
  return vec4f(textureSampleLevel(finer, samp, 2.0 * p.xy / vec2f(textureDimensions(finer)), 0.0).rgb, 1.0);
}`;

interface Levels {
  hdr: GPUTexture;
  coarse: GPUTexture;
  passes: { target: GPUTextureView; group: GPUBindGroup }[];
}

export class MipChain {
  private levels: Levels | null = null;

  static async create(device: GPUDevice): Promise<MipChain> {
    const module = device.createShaderModule({ code: HALVE_WGSL });
    const halve = await device.createRenderPipelineAsync({
      layout: 'auto',
      vertex: { module, entryPoint: 'vs' },
      fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba16float' }] },
    });
    return new MipChain(device, halve, device.createSampler({ magFilter: 'linear', minFilter: 'linear' }));
  }

  private constructor(private device: GPUDevice, private halve: GPURenderPipeline, readonly sampler: GPUSampler) {}

  // Makes levels 1 to `count` (fewer where the target is too small) of `hdr`'s light in `enc`; returns the
  // texture that holds them (made anew for a new target or count).
  encode(enc: GPUCommandEncoder, hdr: GPUTexture, count: number): GPUTexture {
    const l = this.make(hdr, count);
    for (const { target, group } of l.passes) {
      const pass = enc.beginRenderPass({ colorAttachments: [{ view: target, loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 0] }] });
      pass.setPipeline(this.halve);
      pass.setBindGroup(0, group);
      pass.draw(3);
      pass.end();
    }
    return l.coarse;
  }

  private make(hdr: GPUTexture, count: number): Levels {
    const w = Math.max(1, hdr.width >> 1), h = Math.max(1, hdr.height >> 1);
    const mipLevelCount = Math.max(1, Math.min(count, 1 + Math.floor(Math.log2(Math.max(w, h)))));
    if (this.levels?.hdr === hdr && this.levels.coarse.mipLevelCount === mipLevelCount) return this.levels;
    this.levels?.coarse.destroy();
    const coarse = this.device.createTexture({ size: [w, h], format: 'rgba16float', mipLevelCount, usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING });
    const level = (k: number) => coarse.createView({ baseMipLevel: k, mipLevelCount: 1 });
    const passes = Array.from({ length: mipLevelCount }, (_, k) => ({
      target: level(k),
      group: this.device.createBindGroup({
        layout: this.halve.getBindGroupLayout(0),
        entries: [{ binding: 0, resource: k === 0 ? hdr.createView() : level(k - 1) }, { binding: 1, resource: this.sampler }],
      }),
    }));
    this.levels = { hdr, coarse, passes };
    return this.levels;
  }
}
