// An orbit camera, the desktop's (src/render/camera.cpp) in TypeScript: z up, yaw about z from +x, pitch the
// eye's elevation; left drag (one finger) orbits with inertia, right/middle drag (two fingers) pans, the wheel
// (pinch) zooms 10% a step; keys: arrows orbit, +/- zoom, C home. Column-major matrices for WGSL.

export type Mat4 = Float32Array;

function lookAt(eye: number[], target: number[], up: number[]): Mat4 {
  const sub = (a: number[], b: number[]) => a.map((x, i) => x - b[i]);
  const norm = (a: number[]) => { const l = Math.hypot(...a) || 1; return a.map((x) => x / l); };
  const cross = (a: number[], b: number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const dot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const f = norm(sub(target, eye)), s = norm(cross(f, up)), u = cross(s, f);
  return new Float32Array([s[0], u[0], -f[0], 0, s[1], u[1], -f[1], 0, s[2], u[2], -f[2], 0, -dot(s, eye), -dot(u, eye), dot(f, eye), 1]);
}

// WebGPU clip space: depth 0..1.
function perspective(fovY: number, aspect: number, near: number, far: number): Mat4 {
  const f = 1 / Math.tan(fovY / 2);
  return new Float32Array([f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, far / (near - far), -1, 0, 0, (near * far) / (near - far), 0]);
}

export class OrbitCamera {
  fovY = (45 * Math.PI) / 180;
  target = [0, 0, 0];
  distance = 5;
  yaw = 0;
  pitch = (30 * Math.PI) / 180;
  private home = { target: [0, 0, 0], distance: 5, yaw: 0, pitch: (30 * Math.PI) / 180 };
  private spin = [0, 0]; // radians a second, after a drag is let go
  // Width over height of what the home view keeps whole at the view's height: 1 for a sphere, more for a scene's
  // frame box. A view narrower than that shrinks the picture to keep it whole (the desktop's picture_scale).
  private frameAspect = 1;

  setHome(target: number[], distance: number, yawDeg: number, pitchDeg: number, frameAspect = 1, fovY = (45 * Math.PI) / 180): void {
    this.home = { target: [...target], distance, yaw: (yawDeg * Math.PI) / 180, pitch: (pitchDeg * Math.PI) / 180 };
    this.frameAspect = frameAspect > 0 ? frameAspect : 1;
    this.fovY = fovY; // the desktop's: 20 degrees for a frame box (less stretch at its ends), else 45
    this.reset();
  }
  reset(): void {
    this.target = [...this.home.target];
    this.distance = this.home.distance;
    this.yaw = this.home.yaw;
    this.pitch = this.home.pitch;
    this.spin = [0, 0];
  }
  orbit(dxPx: number, dyPx: number): void {
    this.yaw -= dxPx * 0.005;
    this.pitch = Math.min(1.55, Math.max(-1.55, this.pitch + dyPx * 0.005));
  }
  release(vxPx: number, vyPx: number): void {
    this.spin = [-vxPx * 0.005, vyPx * 0.005];
  }
  stop(): void {
    this.spin = [0, 0];
  }
  pan(dxPx: number, dyPx: number, heightPx: number): void {
    const perPx = (2 * this.distance * Math.tan(this.fovY / 2)) / heightPx;
    const right = [-Math.sin(this.yaw), Math.cos(this.yaw), 0];
    const up = [-Math.sin(this.pitch) * Math.cos(this.yaw), -Math.sin(this.pitch) * Math.sin(this.yaw), Math.cos(this.pitch)];
    for (let i = 0; i < 3; ++i) this.target[i] += (-dxPx * right[i] + dyPx * up[i]) * perPx;
  }
  zoom(steps: number): void {
    this.distance = Math.min(1e6, Math.max(1e-3, this.distance * Math.pow(0.9, steps)));
  }
  update(dtS: number): void {
    this.yaw += this.spin[0] * dtS;
    this.pitch = Math.min(1.55, Math.max(-1.55, this.pitch + this.spin[1] * dtS));
    const decay = Math.exp(-dtS / 0.25);
    this.spin = this.spin.map((s) => (Math.abs(s * decay) < 1e-3 ? 0 : s * decay));
  }
  eye(): number[] {
    const c = Math.cos(this.pitch);
    return [0, 1, 2].map((i) => this.target[i] + this.distance * [c * Math.cos(this.yaw), c * Math.sin(this.yaw), Math.sin(this.pitch)][i]);
  }
  view(): Mat4 {
    return lookAt(this.eye(), this.target, [0, 0, 1]);
  }
  projection(aspect: number): Mat4 {
    const m = perspective(this.fovY, aspect, this.distance * 1e-3, this.distance * 1e3);
    const scale = Math.min(1, Math.max(0.05, aspect / this.frameAspect));
    m[0] *= scale;
    m[5] *= scale;
    return m;
  }
}

// Mouse, touch and keys on `el` drive `cam`.
export function attachControls(el: HTMLElement, cam: OrbitCamera): void {
  let last: { x: number; y: number; t: number } | null = null;
  let velocity = [0, 0];
  let mode: 'orbit' | 'pan' = 'orbit';
  const pointers = new Map<number, { x: number; y: number }>();
  let pinch = 0;
  el.addEventListener('contextmenu', (e) => e.preventDefault());
  el.addEventListener('pointerdown', (e) => {
    el.setPointerCapture(e.pointerId);
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    mode = e.button === 0 && pointers.size === 1 ? 'orbit' : 'pan';
    last = { x: e.clientX, y: e.clientY, t: performance.now() };
    velocity = [0, 0];
    cam.stop();
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = Math.hypot(a.x - b.x, a.y - b.y);
    }
  });
  el.addEventListener('pointermove', (e) => {
    if (!last || !pointers.has(e.pointerId)) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const d = Math.hypot(a.x - b.x, a.y - b.y);
      if (pinch > 0) cam.zoom(Math.log(d / pinch) / -Math.log(0.9));
      pinch = d;
    }
    const dx = e.clientX - last.x, dy = e.clientY - last.y, now = performance.now();
    if (mode === 'orbit') cam.orbit(dx, dy);
    else cam.pan(dx, dy, el.clientHeight);
    const dt = Math.max(1, now - last.t) / 1000;
    velocity = [dx / dt, dy / dt];
    last = { x: e.clientX, y: e.clientY, t: now };
  });
  const up = (e: PointerEvent) => {
    pointers.delete(e.pointerId);
    if (mode === 'orbit' && last && performance.now() - last.t < 80 && pointers.size === 0) cam.release(velocity[0], velocity[1]);
    if (pointers.size === 0) last = null;
  };
  el.addEventListener('pointerup', up);
  el.addEventListener('pointercancel', up);
  el.addEventListener('wheel', (e) => { e.preventDefault(); cam.zoom(-Math.sign(e.deltaY)); }, { passive: false });
  window.addEventListener('keydown', (e) => {
    if ((e.target as HTMLElement).tagName === 'INPUT' || (e.target as HTMLElement).tagName === 'SELECT') return;
    const keys: Record<string, () => void> = {
      ArrowLeft: () => cam.orbit(-20, 0), ArrowRight: () => cam.orbit(20, 0),
      ArrowUp: () => cam.orbit(0, -20), ArrowDown: () => cam.orbit(0, 20),
      '+': () => cam.zoom(1), '=': () => cam.zoom(1), '-': () => cam.zoom(-1), c: () => cam.reset(),
    };
    if (keys[e.key]) { keys[e.key](); e.preventDefault(); }
  });
}
