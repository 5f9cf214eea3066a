#pragma once
// Whole-warp integer minimum and maximum on every architecture the build targets (sm_75 and newer): the
// redux.sync instruction (__reduce_*_sync) where it exists (sm_80+), five butterfly shuffles below, with
// the same answer on every lane either way. All 32 lanes must call it.
namespace nbody::kernels {

__device__ __forceinline__ int warp_min(int v) {
#if __CUDA_ARCH__ >= 800
    return __reduce_min_sync(0xffffffffu, v);
#else
    for (int off = 16; off > 0; off >>= 1) v = min(v, __shfl_xor_sync(0xffffffffu, v, off));
    return v;
#endif
}

__device__ __forceinline__ int warp_max(int v) {
#if __CUDA_ARCH__ >= 800
    return __reduce_max_sync(0xffffffffu, v);
#else
    for (int off = 16; off > 0; off >>= 1) v = max(v, __shfl_xor_sync(0xffffffffu, v, off));
    return v;
#endif
}

}  // namespace nbody::kernels
