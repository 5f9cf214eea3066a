// The kernels' shape from the adapter's limits and N, by the desktop GL backend's rules compiled into the core
// (web/core/shape_web.cpp over src/gl_backend/gl_shape.cpp): one source for both. The rules want the GPU's
// compute units (to put units x 1,024 invocations in flight at small N); WebGPU does not say how many an
// adapter has, so they come from the core's table of known GPUs where the adapter names one (Dawn does; a
// browser mostly does not), none for a GPU on the CPU (SwiftShader and the like: a few threads in all, full
// with one workgroup each, where splitting the j range only adds barriers: half the rate at N = 1,024), and
// ASSUMED_UNITS otherwise.
import { Core } from './core';
import { KernelShape, Variant } from './kernels';

export type ShapeChooser = (v: Variant, n: number) => KernelShape;

// k, u, block and q as given (q = 0: chosen from N), checked by the same rules: the tests' other shapes.
export interface FixedShape {
  k: number;
  u: number;
  block: number;
  q: number;
}

// A mid-sized GPU's compute units (laptop and desktop GPUs have 16 to 80): too many only costs the few
// additions of the slices' sums a workgroup, too few leaves most of a large GPU idle at small N.
export const ASSUMED_UNITS = 32;

export interface Units {
  units: number;
  why: string; // "132 units (NVIDIA H200)", "a GPU on the CPU: no j-split", "32 units assumed"
}

export function computeUnits(core: Core, info: { vendor?: string; architecture?: string; device?: string; description?: string }): Units {
  const names = [info.vendor, info.architecture, info.device, info.description].filter(Boolean).join(' ');
  if (/swiftshader|llvmpipe|lavapipe|warp/i.test(names)) return { units: 0, why: 'a GPU on the CPU: no j-split' };
  const known = core.gpuUnits(names);
  if (known > 0) return { units: known, why: `${known} units (${[info.device, info.description].filter(Boolean).join(' ')})` };
  return { units: ASSUMED_UNITS, why: `${ASSUMED_UNITS} units assumed` };
}

// The compute limits a device should ask its adapter for: the shapes use what the adapter offers, not
// WebGPU's defaults (a device has only the defaults unless it asks).
export function wantedLimits(a: GPUSupportedLimits): Record<string, number> {
  const names = ['maxStorageBufferBindingSize', 'maxBufferSize', 'maxComputeWorkgroupStorageSize',
    'maxComputeInvocationsPerWorkgroup', 'maxComputeWorkgroupSizeX'] as const;
  return Object.fromEntries(names.map((n) => [n, a[n]]));
}

export function shapeChooser(core: Core, limits: GPUSupportedLimits, units: number, fixed?: FixedShape): ShapeChooser {
  const l = {
    maxComputeWorkgroupStorageSize: limits.maxComputeWorkgroupStorageSize,
    maxComputeInvocationsPerWorkgroup: limits.maxComputeInvocationsPerWorkgroup,
    maxComputeWorkgroupSizeX: limits.maxComputeWorkgroupSizeX,
    maxComputeWorkgroupsPerDimension: limits.maxComputeWorkgroupsPerDimension,
    units,
  };
  const f = fixed ?? { k: 0, u: 0, block: 0, q: 0 };
  return (v, n) => {
    const r = core.kernelShape(v.name, Math.max(1, n), l, f.k, f.u, f.block, f.q);
    if (!r.ok) throw new Error(`kernel shape: ${r.error.replace(/this GL/g, 'this adapter')}`);
    return r;
  };
}
