#pragma once
// One warp's m16n8k8 TF32 MMA emulated on the CPU, on the lanes' fragments as the PTX ISA lays them out
// (cuda/tensor/tensor_layout.hpp): what test_tensor_layout.cpp and test_tensor_kernel_model.cpp run the
// tensor kernel's arithmetic on.
#include <array>

#include "cuda/tensor/tensor_math.hpp"

namespace nbody::tensor::test {

constexpr int kLanes = 32;
using FragA = std::array<std::array<float, 4>, kLanes>;  // [lane][reg]
using FragB = std::array<std::array<float, 2>, kLanes>;
using FragC = std::array<std::array<float, 4>, kLanes>;

// The warp-level MMA as the hardware defines it on fragments: rebuild A (16x8), B (8x8), C (16x8) from
// the lanes' registers via the layout, D = A B + C with operands truncated to TF32, scatter D back.
inline FragC warp_mma(const FragA& a, const FragB& b, const FragC& c) {
    float A[16][8] = {}, B[8][8] = {}, C[16][8] = {};
    for (int l = 0; l < kLanes; ++l) {
        for (int r = 0; r < 4; ++r) A[a_pos(l, r).row][a_pos(l, r).col] = tf32_truncate(a[l][r]);
        for (int r = 0; r < 2; ++r) B[b_pos(l, r).row][b_pos(l, r).col] = tf32_truncate(b[l][r]);
        for (int r = 0; r < 4; ++r) C[c_pos(l, r).row][c_pos(l, r).col] = c[l][r];
    }
    FragC d{};
    for (int l = 0; l < kLanes; ++l)
        for (int r = 0; r < 4; ++r) {
            const FragPos p = c_pos(l, r);
            float acc = C[p.row][p.col];
            for (int k = 0; k < 8; ++k) acc += A[p.row][k] * B[k][p.col];
            d[l][r] = acc;
        }
    return d;
}

}  // namespace nbody::tensor::test
