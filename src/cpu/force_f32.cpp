// Built with -O3 -ffast-math -fopenmp-simd (see src/CMakeLists.txt): fast-math lets GCC reassociate the
// j-sum across vector lanes and turn 1/sqrtf into rsqrt14 + one Newton-Raphson step (about 23 bits).
#include "cpu/force_f32.hpp"

#include "cpu/target_clones.hpp"

namespace nbody {

NBODY_CLONES
void accelerations_f32(const SourcesF32& src, std::size_t i0, std::size_t i1, float eps2, float* ax,
                       float* ay, float* az) {
    const float* __restrict sx = src.x;
    const float* __restrict sy = src.y;
    const float* __restrict sz = src.z;
    const float* __restrict sm = src.m;
    const std::size_t n = src.n;
    const float soft2 = eps2 + kSelfInteractionFloor;
    for (std::size_t i = i0; i < i1; ++i) {
        const float xi = sx[i], yi = sy[i], zi = sz[i];
        float fx = 0.f, fy = 0.f, fz = 0.f;
#pragma omp simd reduction(+ : fx, fy, fz)
        for (std::size_t j = 0; j < n; ++j) {
            const float dx = sx[j] - xi, dy = sy[j] - yi, dz = sz[j] - zi;
            const float r2 = soft2 + dx * dx + dy * dy + dz * dz;
            const float inv_r = 1.0f / __builtin_sqrtf(r2);
            const float s = sm[j] * inv_r * inv_r * inv_r;
            fx += dx * s;
            fy += dy * s;
            fz += dz * s;
        }
        ax[i] = fx;
        ay[i] = fy;
        az[i] = fz;
    }
}

const char* force_f32_isa() {
#if defined(NBODY_PORTABLE) || !defined(__x86_64__)
    return "baseline";
#else
    __builtin_cpu_init();
    if (__builtin_cpu_supports("x86-64-v4")) return "avx512 (x86-64-v4)";
    if (__builtin_cpu_supports("x86-64-v3")) return "avx2+fma (x86-64-v3)";
    return "sse2 (x86-64)";
#endif
}

}  // namespace nbody
