// CPU emulation of one warp running the tensor-core force tile (cuda/tensor/tensor_layout.hpp,
// cuda/tensor/tensor_math.hpp): the fragment layouts of mma.m16n8k8 .tf32 against the PTX ISA's tables, the
// emulated warp MMA against a plain matrix product, the shared-memory slots against the intended B
// operands, and the whole two-product pair sum against a float64 direct sum. No GPU needed.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "cuda/tensor/tensor_math.hpp"
#include "tensor_warp.hpp"

namespace {
using namespace nbody::tensor;
using namespace nbody::tensor::test;

TEST(TensorLayout, MatchesPtxIsaTables) {
    // PTX ISA "Matrix Fragments for mma.m16n8k8" (.tf32): lane 5 is groupID 1, threadID_in_group 1.
    EXPECT_EQ(a_pos(5, 0).row, 1);
    EXPECT_EQ(a_pos(5, 0).col, 1);
    EXPECT_EQ(a_pos(5, 1).row, 9);
    EXPECT_EQ(a_pos(5, 2).col, 5);
    EXPECT_EQ(a_pos(5, 3).row, 9);
    EXPECT_EQ(a_pos(5, 3).col, 5);
    EXPECT_EQ(b_pos(30, 1).row, 6);  // lane 30: groupID 7, threadID_in_group 2
    EXPECT_EQ(b_pos(30, 1).col, 7);
    EXPECT_EQ(c_pos(30, 1).row, 7);
    EXPECT_EQ(c_pos(30, 1).col, 5);
    EXPECT_EQ(c_pos(30, 2).row, 15);
    EXPECT_EQ(c_pos(30, 2).col, 4);
}

TEST(TensorLayout, FragmentsCoverEachElementOnce) {
    int a[16][8] = {}, b[8][8] = {}, c[16][8] = {};
    for (int l = 0; l < kLanes; ++l) {
        for (int r = 0; r < 4; ++r) ++a[a_pos(l, r).row][a_pos(l, r).col];
        for (int r = 0; r < 2; ++r) ++b[b_pos(l, r).row][b_pos(l, r).col];
        for (int r = 0; r < 4; ++r) ++c[c_pos(l, r).row][c_pos(l, r).col];
    }
    for (int i = 0; i < 16; ++i)
        for (int k = 0; k < 8; ++k) {
            EXPECT_EQ(a[i][k], 1);
            EXPECT_EQ(c[i][k], 1);
            if (i < 8) {
                EXPECT_EQ(b[i][k], 1);
            }
        }
}

TEST(TensorLayout, WarpMmaIsAPlainMatrixProduct) {
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> small(-8, 8);  // exact in TF32 and in the fp32 sums
    float A[16][8], B[8][8];
    for (auto& row : A)
        for (float& x : row) x = static_cast<float>(small(rng));
    for (auto& row : B)
        for (float& x : row) x = static_cast<float>(small(rng));
    FragA fa{};
    FragB fb{};
    FragC fc{};
    for (int l = 0; l < kLanes; ++l) {
        for (int r = 0; r < 4; ++r) fa[l][r] = A[a_pos(l, r).row][a_pos(l, r).col];
        for (int r = 0; r < 2; ++r) fb[l][r] = B[b_pos(l, r).row][b_pos(l, r).col];
        for (int r = 0; r < 4; ++r) fc[l][r] = static_cast<float>(c_pos(l, r).row);
    }
    const FragC d = warp_mma(fa, fb, fc);
    for (int l = 0; l < kLanes; ++l)
        for (int r = 0; r < 4; ++r) {
            const FragPos p = c_pos(l, r);
            float want = static_cast<float>(p.row);
            for (int k = 0; k < 8; ++k) want += A[p.row][k] * B[k][p.col];
            EXPECT_EQ(d[l][r], want) << "lane " << l << " reg " << r;
        }
}

TEST(TensorLayout, WeightsFeedBackAsAWithoutShuffles) {
    // D of the first product, used as A of the second via d_reg_for_a, must put column j's weight at the
    // k whose B row holds body j_of_k(k).
    for (int l = 0; l < kLanes; ++l)
        for (int r = 0; r < 4; ++r) {
            const FragPos d = c_pos(l, d_reg_for_a(r));
            const FragPos a = a_pos(l, r);
            EXPECT_EQ(d.row, a.row);
            EXPECT_EQ(j_of_k(a.col), d.col);
        }
}

TEST(TensorLayout, SharedSlotsHoldTheIntendedOperands) {
    constexpr int kBodies = 32;  // four groups of 8
    std::vector<float> smem(fragment_floats(kBodies), NAN);
    std::vector<std::array<float, 4>> body(kBodies);
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    for (int jl = 0; jl < kBodies; ++jl) {
        body[jl] = {u(rng), u(rng), u(rng), 0.5f + 0.5f * u(rng)};
        build_j_body(jl, kBodies, body[jl][0], body[jl][1], body[jl][2], body[jl][3],
                     [&](int at, float x) { smem[at] = x; });
    }
    for (int group = 0; group < kBodies / 8; ++group)
        for (int l = 0; l < kLanes; ++l) {
            // First product: lane reads 4 floats = b0, b1 of MMA 1 (k = t, t + 4), of MMA 2 (k = 8 + t, 12 +
            // t).
            const auto& v = body[8 * group + group_of(l)];
            const SplitVec sv = split_vec(v[0], v[1], v[2]);
            const Split v2 = split_tf32(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
            const int t = thread_in_group(l);
            const int ks[4] = {t, t + 4, 8 + t, 12 + t};
            for (int s = 0; s < 4; ++s)
                EXPECT_EQ(smem[r2_lane_offset(group, l) + s], r2_b_entry(sv, v2, ks[s])) << l << " " << s;
            // Second product: b0, b1 = quantity g of bodies j_of_k(t), j_of_k(t + 4).
            for (int s = 0; s < 2; ++s) {
                const auto& w = body[8 * group + j_of_k(b_pos(l, s).row)];
                const AccOperands acc = acc_operands(w[0], w[1], w[2], w[3]);
                EXPECT_EQ(smem[acc_base(kBodies) + acc_lane_offset(group, l) + s], acc.q[group_of(l)]);
            }
        }
}

// The whole tile: 16 i-bodies against n j-bodies (8 per step), positions relative to the i-centre, both
// products split; returns the accelerations (G = 1) of the 16 i-bodies.
std::vector<std::array<double, 3>> emulated_tile(const std::vector<std::array<float, 4>>& bodies, int i0,
                                                 float soft2) {
    float centre[3] = {0, 0, 0};
    for (int i = 0; i < 16; ++i)
        for (int c = 0; c < 3; ++c) centre[c] += bodies[i0 + i][c] / 16.f;
    FragA a1{}, a2{};
    FragC c1{};
    for (int l = 0; l < kLanes; ++l)
        for (int r = 0; r < 4; ++r) {
            const auto& b = bodies[i0 + a_pos(l, r).row];
            const SplitVec su = split_vec(b[0] - centre[0], b[1] - centre[1], b[2] - centre[2]);
            a1[l][r] = r2_a_entry(su, a_pos(l, r).col);
            a2[l][r] = r2_a_entry(su, 8 + a_pos(l, r).col);
            const auto& ci = bodies[i0 + c_pos(l, r).row];
            const float ux = ci[0] - centre[0], uy = ci[1] - centre[1], uz = ci[2] - centre[2];
            c1[l][r] = ux * ux + uy * uy + uz * uz + soft2;
        }
    FragC sums{};  // D of the second product, accumulated over j-groups
    const int n = static_cast<int>(bodies.size());
    for (int j0 = 0; j0 < n; j0 += 8) {
        std::vector<float> smem(fragment_floats(8));
        for (int jl = 0; jl < 8; ++jl) {
            const bool real = j0 + jl < n;
            const auto& b = bodies[real ? j0 + jl : 0];
            build_j_body(jl, 8, real ? b[0] - centre[0] : 0.f, real ? b[1] - centre[1] : 0.f,
                         real ? b[2] - centre[2] : 0.f, real ? b[3] : 0.f,
                         [&](int at, float x) { smem[at] = x; });
        }
        FragB b1{}, b2{}, bq{};
        for (int l = 0; l < kLanes; ++l) {
            const float* f = &smem[r2_lane_offset(0, l)];
            b1[l] = {f[0], f[1]};
            b2[l] = {f[2], f[3]};
            bq[l] = {smem[acc_base(8) + acc_lane_offset(0, l)],
                     smem[acc_base(8) + acc_lane_offset(0, l) + 1]};
        }
        const FragC r2 = warp_mma(a2, b2, warp_mma(a1, b1, c1));
        FragA whi{}, wlo{};
        for (int l = 0; l < kLanes; ++l)
            for (int r = 0; r < 4; ++r) {
                const int d = d_reg_for_a(r);
                const int i = i0 + c_pos(l, d).row, j = j0 + c_pos(l, d).col;
                const Weight w = i == j || j >= n ? Weight{0.f, 0.f} : pair_weight(r2[l][d]);
                whi[l][r] = w.hi;
                wlo[l][r] = w.lo;
            }
        sums = warp_mma(wlo, bq, warp_mma(whi, bq, sums));
    }
    std::vector<std::array<double, 3>> acc(16);
    for (int l = 0; l < kLanes; ++l)
        for (int r = 0; r < 4; ++r) {
            const FragPos p = c_pos(l, r);  // column p.col of row p.row
            const double x = sums[l][r];
            const int q = p.col & 3;
            const auto& bi = bodies[i0 + p.row];
            if (q < 3)
                acc[p.row][q] += x;
            else
                for (int c = 0; c < 3; ++c) acc[p.row][c] -= (bi[c] - centre[c]) * x;
        }
    return acc;
}

// The plain fp32 pair sum of the CUDA-core kernels (same rsqrt), for the 16 i-bodies.
std::vector<std::array<double, 3>> fp32_tile(const std::vector<std::array<float, 4>>& bodies, float soft2) {
    std::vector<std::array<double, 3>> acc(16);
    for (int i = 0; i < 16; ++i) {
        float a[3] = {0, 0, 0};
        for (size_t j = 0; j < bodies.size(); ++j) {
            const float dx = bodies[j][0] - bodies[i][0], dy = bodies[j][1] - bodies[i][1],
                        dz = bodies[j][2] - bodies[i][2];
            const float inv = fast_rsqrt(dx * dx + dy * dy + dz * dz + soft2);
            const float w = bodies[j][3] * inv * inv * inv;
            a[0] += w * dx;
            a[1] += w * dy;
            a[2] += w * dz;
        }
        acc[i] = {a[0], a[1], a[2]};
    }
    return acc;
}

// Worst relative error of the first 16 bodies' accelerations `got` against float64.
double worst_tile_error(const std::vector<std::array<float, 4>>& bodies, float soft2,
                        const std::vector<std::array<double, 3>>& got) {
    double worst = 0;
    for (int i = 0; i < 16; ++i) {
        double want[3] = {0, 0, 0};
        for (size_t j = 0; j < bodies.size(); ++j) {
            if (static_cast<int>(j) == i) continue;
            double d[3], r2 = soft2;
            for (int c = 0; c < 3; ++c) {
                d[c] = double(bodies[j][c]) - bodies[i][c];
                r2 += d[c] * d[c];
            }
            for (int c = 0; c < 3; ++c) want[c] += bodies[j][3] * d[c] / (r2 * std::sqrt(r2));
        }
        double err = 0, mag = 0;
        for (int c = 0; c < 3; ++c) {
            err += (got[i][c] - want[c]) * (got[i][c] - want[c]);
            mag += want[c] * want[c];
        }
        worst = std::max(worst, std::sqrt(err / mag));
    }
    return worst;
}

// n Gaussian bodies (unit spread, equal masses); with `compact`, the 16 i-bodies sit in a ball of
// radius ~0.05 at a random place (what a Morton sort makes of an i-tile).
std::vector<std::array<float, 4>> gaussian_bodies(int n, bool compact) {
    std::mt19937 rng(static_cast<unsigned>(n));
    std::normal_distribution<float> g(0.f, 1.f);
    std::vector<std::array<float, 4>> bodies(n);
    for (auto& b : bodies) b = {g(rng), g(rng), g(rng), 1.f / static_cast<float>(n)};
    if (compact)
        for (int i = 1; i < 16; ++i)
            for (int c = 0; c < 3; ++c) bodies[i][c] = bodies[0][c] + 0.03f * g(rng);
    return bodies;
}

constexpr float kSoft2 = 0.01f * 0.01f;

// Against float64, beside the plain fp32 sum of the CUDA-core kernels on the same bodies. Measured
// (this emulation, rsqrt moved by up to 2 ulp as MUFU.RSQ may): compact i-tiles (what a Morton sort
// makes) 1.3e-6 .. 1.0e-5, 1.5x .. 12x fp32's own error: the split operands keep ~22 of fp32's 24 bits
// per pair term, and the pair terms cancel in the sum. Unsorted tiles (i-bodies spread over the whole
// system) reach 7e-5 at n = 1025: r2 = |u|^2 + |v|^2 - 2 u.v cancels in the fp32 accumulator, an error
// of ~2^-24 (|u|^2 + |v|^2) against the r2 of a close pair. This is why the kernel needs the sort.
// Unsplit TF32 operands (lo = 0) give 3e-3 .. 0.25 here (measured) and fail both bounds.
TEST(TensorEmulation, CompactTileIsWithinSixteenTimesFp32) {
    for (int n : {17, 33, 257, 1025}) {
        const auto bodies = gaussian_bodies(n, true);
        const double tc = worst_tile_error(bodies, kSoft2, emulated_tile(bodies, 0, kSoft2));
        const double fp32 = worst_tile_error(bodies, kSoft2, fp32_tile(bodies, kSoft2));
        std::printf("compact i-tile, n = %d: worst relative error tensor %.3g, fp32 %.3g\n", n, tc, fp32);
        EXPECT_LT(tc, 16 * fp32) << "n = " << n;
        EXPECT_LT(tc, 2e-5) << "n = " << n;
    }
}

TEST(TensorEmulation, UnsortedTileIsBoundedButWorse) {
    for (int n : {17, 33, 257, 1025}) {
        const auto bodies = gaussian_bodies(n, false);
        const double tc = worst_tile_error(bodies, kSoft2, emulated_tile(bodies, 0, kSoft2));
        std::printf("unsorted i-tile, n = %d: worst relative error tensor %.3g\n", n, tc);
        EXPECT_LT(tc, 2e-4) << "n = " << n;
    }
}

}  // namespace
