// The WebGPU direct-summation simulation: positions ping-pong between two storage buffers that are also the
// renderer's vertex buffers (the one a step read is the state drawn: no copy), velocities and accelerations in
// two more, one uniform block. Each variant's kernel shape is chosen for the N loaded (web/src/shape.ts);
// pipelines are made per shape on first use.
import { bodiesPerWorkgroup, KernelShape, SELF_INTERACTION_FLOOR, stepKernelSource, Variant } from './kernels';
import { ShapeChooser } from './shape';

export interface StepParams {
  dt: number;
  eps: number;
  G: number;
}

export class GpuSim {
  n = 0;
  protected pos: GPUBuffer[] = [];
  protected vel!: GPUBuffer;
  protected acc!: GPUBuffer;
  protected params: GPUBuffer;
  protected current = 0; // pos[current] holds x_{n+1} (after prime: the positions to draw come from the other)
  protected drawn = 0; // the buffer the renderer draws
  protected primed = false;
  private pipelines: Map<string, GPUComputePipeline>;
  private bindGroups = new Map<string, GPUBindGroup>();
  private shapes = new Map<string, KernelShape>(); // by variant, for the N loaded

  constructor(readonly device: GPUDevice, private chooseShape: ShapeChooser) {
    // One pipeline a shape for the device, shared by every simulation on it (the start-up probe's, the
    // race's, the page's): compiling one takes about a second on SwiftShader.
    if (!PIPELINES.has(device)) PIPELINES.set(device, new Map()), COMPILING.set(device, new Map());
    this.pipelines = PIPELINES.get(device)!;
    this.params = device.createBuffer({ size: 32, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  }

  destroy(): void {
    for (const b of [...this.pos, this.vel, this.acc, this.params]) b?.destroy();
    this.pos = [];
    this.n = 0;
  }

  // Bodies as 4 floats each (x, y, z, m and vx, vy, vz, 0).
  load(posMass: Float32Array<ArrayBuffer>, vel: Float32Array<ArrayBuffer>): void {
    for (const b of [...this.pos, this.vel, this.acc]) b?.destroy();
    this.n = posMass.length / 4;
    const size = Math.max(16, posMass.byteLength);
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
    this.pos = [0, 1].map(() => this.device.createBuffer({ size, usage: usage | GPUBufferUsage.VERTEX }));
    this.vel = this.device.createBuffer({ size, usage: usage | GPUBufferUsage.VERTEX });
    this.acc = this.device.createBuffer({ size, usage });
    this.device.queue.writeBuffer(this.pos[0], 0, posMass);
    this.device.queue.writeBuffer(this.vel, 0, vel);
    this.current = 0;
    this.drawn = 0;
    this.primed = false;
    this.bindGroups.clear();
    this.shapes.clear();
  }

  // The shape variant v runs in at the N loaded (throws the core's words where the adapter allows none).
  shapeFor(v: Variant): KernelShape {
    let s = this.shapes.get(v.name);
    if (!s) {
      s = this.chooseShape(v, this.n);
      this.shapes.set(v.name, s);
    }
    return s;
  }

  // The buffer holding the positions of the state last stepped to (what the renderer draws).
  positionsBuffer(): GPUBuffer {
    return this.pos[this.drawn];
  }
  velocitiesBuffer(): GPUBuffer {
    return this.vel;
  }

  private pipelineDescriptor(v: Variant): GPUComputePipelineDescriptor {
    const shape = this.shapeFor(v);
    const module = this.device.createShaderModule({ code: stepKernelSource(v, shape), label: shape.label });
    return { layout: 'auto', compute: { module, entryPoint: 'step' } };
  }

  private pipeline(v: Variant): GPUComputePipeline {
    const label = this.shapeFor(v).label;
    let p = this.pipelines.get(label);
    if (!p) {
      p = this.device.createComputePipeline(this.pipelineDescriptor(v));
      this.pipelines.set(label, p);
    }
    return p;
  }

  // Whether variant v's pipeline is compiled: the page's frames step only then, and draw meanwhile.
  ready(v: Variant): boolean {
    return this.pipelines.has(this.shapeFor(v).label);
  }

  // Compiles v's pipeline beside the page's work (createComputePipelineAsync: about a second on SwiftShader,
  // which the first frame then does not wait for).
  prepare(v: Variant): Promise<void> {
    const label = this.shapeFor(v).label;
    let pending = COMPILING.get(this.device)!.get(label);
    if (!pending) {
      // A failed compile falls back to the page's synchronous path, whose error the device reports as any other.
      pending = this.device.createComputePipelineAsync(this.pipelineDescriptor(v)).then(
        (p) => {
          if (!this.pipelines.has(label)) this.pipelines.set(label, p);
        },
        () => {
          this.pipeline(v);
        },
      );
      COMPILING.get(this.device)!.set(label, pending);
    }
    return pending;
  }

  private bindGroup(v: Variant, from: number): GPUBindGroup {
    // Bind groups from 'auto' layouts belong to their pipeline: keyed by shape and direction.
    const key = `${this.shapeFor(v).label} ${from}`;
    let g = this.bindGroups.get(key);
    if (!g) {
      const entries = [this.pos[from], this.pos[1 - from], this.vel, this.acc, this.params].map((buffer, binding) => ({
        binding,
        resource: { buffer },
      }));
      g = this.device.createBindGroup({ layout: this.pipeline(v).getBindGroupLayout(0), entries });
      this.bindGroups.set(key, g);
    }
    return g;
  }

  private writeParams(p: StepParams, prime: boolean): void {
    const u = new ArrayBuffer(32);
    new Uint32Array(u, 0, 2).set([this.n, prime ? 1 : 0]);
    new Float32Array(u, 8, 4).set([p.eps * p.eps + SELF_INTERACTION_FLOOR, p.G, p.dt / 2, p.dt]);
    this.device.queue.writeBuffer(this.params, 0, u);
  }

  private dispatch(v: Variant, p: StepParams, prime: boolean): void {
    this.writeParams(p, prime);
    const enc = this.device.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(this.pipeline(v));
    pass.setBindGroup(0, this.bindGroup(v, this.current));
    pass.dispatchWorkgroups(Math.ceil(this.n / bodiesPerWorkgroup(this.shapeFor(v))));
    pass.end();
    this.device.queue.submit([enc.finish()]);
    this.drawn = this.current;
    this.current = 1 - this.current;
  }

  // `steps` leap-frog steps (the first one after load also primes the accelerations).
  step(v: Variant, p: StepParams, steps: number): void | Promise<void> {
    if (this.n === 0) return;
    if (!this.primed) {
      this.dispatch(v, p, true);
      this.primed = true;
    }
    for (let s = 0; s < steps; ++s) this.dispatch(v, p, false);
  }

  // A changed dt, eps or G: accelerations stay those of the current positions only when eps and G did not
  // change; re-prime from the drawn state to be safe (x of the drawn buffer, v kept).
  reprime(): void {
    if (!this.primed) return;
    this.current = this.drawn;
    this.primed = false;
  }

  // Accelerations of the loaded positions, G * sum (one priming dispatch with dt = 0): the force test's path.
  async accelerations(v: Variant, p: StepParams): Promise<Float32Array<ArrayBuffer>> {
    this.current = 0;
    this.dispatch(v, { ...p, dt: 0 }, true);
    this.current = 0;
    this.primed = false;
    return this.read(this.acc, this.n * 16);
  }

  async readState(): Promise<{ pos: Float32Array<ArrayBuffer>; vel: Float32Array<ArrayBuffer> }> {
    return { pos: await this.read(this.pos[this.drawn], this.n * 16), vel: await this.read(this.vel, this.n * 16) };
  }

  protected async read(src: GPUBuffer, bytes: number): Promise<Float32Array<ArrayBuffer>> {
    const staging = this.device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const enc = this.device.createCommandEncoder();
    enc.copyBufferToBuffer(src, 0, staging, 0, bytes);
    this.device.queue.submit([enc.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    const out = new Float32Array(staging.getMappedRange().slice(0));
    staging.destroy();
    return out;
  }
}

const PIPELINES = new WeakMap<GPUDevice, Map<string, GPUComputePipeline>>();
const COMPILING = new WeakMap<GPUDevice, Map<string, Promise<void>>>();
