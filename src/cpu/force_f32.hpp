#pragma once
// The CPU's float32 direct-summation force loop: the inner j loop vectorised (AVX-512, AVX2 or SSE2,
// chosen at run time from what the processor supports), float accumulation.
#include <cstddef>

namespace nbody {

// Structure-of-arrays view of the bodies that exert force.
struct SourcesF32 {
    const float* x;
    const float* y;
    const float* z;
    const float* m;
    std::size_t n;
};

// Floor added to eps^2 in the float32 loops (CPU and CUDA) so the self term of a body (r = 0) stays a finite
// 0 with eps = 0: rsqrt(1e-20)^3 = 1e30, and m * 1e30 * 0 = 0 for masses up to 3e8. It changes r^2 of a
// real pair only below float resolution (r^2 ~ 1e-20 means r ~ 1e-10 length units).
inline constexpr float kSelfInteractionFloor = 1e-20f;

// a_i = sum_j m_j (x_j - x_i) / (|x_j - x_i|^2 + eps2)^(3/2) for i in [i0, i1), without G. Writes ax, ay,
// az at indices i0..i1-1. Per interaction: 3 sub, 3 mul-add (r^2), rsqrt + one Newton step, 3 mul (m/r^3),
// 3 mul-add: 20 flops by NVIDIA's convention.
void accelerations_f32(const SourcesF32& src, std::size_t i0, std::size_t i1, float eps2, float* ax,
                       float* ay, float* az);

// The instruction set the dispatcher chose for accelerations_f32 on this processor.
const char* force_f32_isa();

}  // namespace nbody
