#pragma once
// The three force precisions as policies of the one step kernel (step_kernel.cuh). Each says how a j-body
// sits in a shared-memory tile (J), how an i-body sits in registers (I), one interaction, and the
// accumulator (Acc). The unrolling variants are the same loops over any of them.
//
//   Fp32: float4 tiles (16 B per body); 13 issued instructions per interaction (3 FADD, 3 FFMA, MUFU.RSQ,
//         3 FMUL, 3 FFMA), 20 flops by NVIDIA's convention.
//   DS:   positions kept in double; the tiles hold each body as float hi + float lo (32 B); x_j - x_i is formed
//         as (xj_hi - xi_hi) + (xj_lo - xi_lo), exact to the float rounding of the result even far from the
//         origin; the rest in float32 with one Newton step on rsqrt; the float terms are flushed into double
//         accumulators every kFlush j-bodies of a slice (float sums of long runs are what limit float32's
//         accuracy, not the terms). 9 FADD + 3 FFMA + MUFU + 4 (Newton) + 3 FMUL + 3 FFMA = 23 per
//         interaction, plus 3 DADD per kFlush interactions per i-body.
//   Fp64: everything in double (32 B per body). Hopper has no double rsqrt instruction: MUFU.RSQ64H (PTX
//         rsqrt.approx.ftz.f64) gives about 20 bits from the high word, and one third-order step finishes it
//         while forming m / r^3 directly: with y0 ~ 1/r and e = 1 - r2 y0^2, m / r^3 = m y0^3 (1 - e)^-3/2
//         = m y0^3 (1 + 3/2 e + 15/8 e^2) up to 35/16 e^3 (~1e-18 for e ~ 1e-6). Per interaction: 3 DADD,
//         3 DFMA (r2), MUFU, DMUL + 3 DFMA (e and the series), 3 DMUL, 3 DFMA (accumulate): 16 FP64
//         instructions; at 64 FP64 results per clock per SM the H200's limit is
//         132 x 1.98e9 x 64 / 16 = 1.05e12 interactions/s.
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

namespace nbody::kernels {

// A double quadruple as the device stores it (x, y, z, w = mass for positions), laid out like the host's
// Double4 (32 bytes, no padding).
struct alignas(16) Dbl4 {
    double x, y, z, w;
};

// Where the tiles copy j-bodies from: positions (float4 or Dbl4, w = mass) and, for DS, their float split.
struct Sources {
    const void* pos;
    const float4* hi;  // DS: (float(x), float(y), float(z), float(m))
    const float4* lo;  // DS: (x - hi.x, y - hi.y, z - hi.z, 0)
};

__device__ __forceinline__ void cp16(float4* dst, const float4* src, bool valid) {
    // Zero-filled past the end of the j chunk: zero mass adds exactly nothing (soft2 > 0 keeps r2 finite).
    __pipeline_memcpy_async(dst, src, sizeof(float4), valid ? 0 : sizeof(float4));
}

__device__ __forceinline__ double rsqrt_approx_f64(double x) {
    double y;
    asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
    return y;
}

// ---------------------------------------------------------------------------------------------------------
struct Fp32 {
    static constexpr int kSlots = 1;  // float4 slots per j-body in a tile
    static constexpr int kFlush = 0;  // no flush
    using Body = float4;              // positions in global memory
    using Vec = float4;               // velocities, accelerations, partial sums
    using Real = float;               // the leap-frog arithmetic
    struct I {
        float x, y, z;
    };
    using J = float4;
    struct Acc {
        float x, y, z;
    };

    __device__ static I load_i(const Sources& s, int i) {
        const float4 p = static_cast<const float4*>(s.pos)[i];
        return {p.x, p.y, p.z};
    }
    __device__ static void fetch(float4* buf, int, int t, const Sources& s, int j, bool valid) {
        cp16(&buf[t], static_cast<const float4*>(s.pos) + (valid ? j : 0), valid);
    }
    __device__ static J body(const float4* buf, int, int t) { return buf[t]; }
    __device__ __forceinline__ static void interact(const I& xi, const J& bj, float soft2, Acc& a) {
        const float dx = bj.x - xi.x, dy = bj.y - xi.y, dz = bj.z - xi.z;
        const float r2 = fmaf(dz, dz, fmaf(dy, dy, fmaf(dx, dx, soft2)));
        const float inv_r = rsqrtf(r2);
        const float inv_r2 = inv_r * inv_r;
        const float s = bj.w * inv_r * inv_r2;
        a.x = fmaf(dx, s, a.x);
        a.y = fmaf(dy, s, a.y);
        a.z = fmaf(dz, s, a.z);
    }
    __device__ static void flush(Acc&) {}
};

// ---------------------------------------------------------------------------------------------------------
struct DS {
    static constexpr int kSlots = 2;   // hi and lo
    static constexpr int kFlush = 32;  // j-bodies per slice between flushes into double
    using Body = Dbl4;
    using Vec = Dbl4;
    using Real = double;
    struct I {
        float xh, yh, zh, xl, yl, zl;
    };
    struct J {
        float4 h, l;
    };
    struct Acc {
        double x, y, z;     // flushed sum
        float px, py, pz;   // float terms since the last flush
    };

    __device__ static I load_i(const Sources& s, int i) {
        const Dbl4 p = static_cast<const Dbl4*>(s.pos)[i];
        const float xh = static_cast<float>(p.x), yh = static_cast<float>(p.y), zh = static_cast<float>(p.z);
        return {xh, yh, zh, static_cast<float>(p.x - xh), static_cast<float>(p.y - yh), static_cast<float>(p.z - zh)};
    }
    __device__ static void fetch(float4* buf, int tile, int t, const Sources& s, int j, bool valid) {
        cp16(&buf[t], s.hi + (valid ? j : 0), valid);
        cp16(&buf[tile + t], s.lo + (valid ? j : 0), valid);
    }
    __device__ static J body(const float4* buf, int tile, int t) { return {buf[t], buf[tile + t]}; }
    __device__ __forceinline__ static void interact(const I& xi, const J& bj, float soft2, Acc& a) {
        const float dx = (bj.h.x - xi.xh) + (bj.l.x - xi.xl);
        const float dy = (bj.h.y - xi.yh) + (bj.l.y - xi.yl);
        const float dz = (bj.h.z - xi.zh) + (bj.l.z - xi.zl);
        const float r2 = fmaf(dz, dz, fmaf(dy, dy, fmaf(dx, dx, soft2)));
        float inv_r = rsqrtf(r2);
        const float e = fmaf(-r2 * inv_r, inv_r, 1.0f);  // Newton: inv_r (1 + e / 2), e = 1 - r2 inv_r^2
        inv_r = fmaf(0.5f * inv_r, e, inv_r);
        const float s = bj.h.w * inv_r * (inv_r * inv_r);
        a.px = fmaf(dx, s, a.px);
        a.py = fmaf(dy, s, a.py);
        a.pz = fmaf(dz, s, a.pz);
    }
    __device__ static void flush(Acc& a) {
        a.x += a.px, a.y += a.py, a.z += a.pz;
        a.px = a.py = a.pz = 0.f;
    }
};

// ---------------------------------------------------------------------------------------------------------
struct Fp64 {
    static constexpr int kSlots = 2;  // a Dbl4 is two float4 slots
    static constexpr int kFlush = 0;
    using Body = Dbl4;
    using Vec = Dbl4;
    using Real = double;
    struct I {
        double x, y, z;
    };
    using J = Dbl4;
    struct Acc {
        double x, y, z;
    };

    __device__ static I load_i(const Sources& s, int i) {
        const Dbl4 p = static_cast<const Dbl4*>(s.pos)[i];
        return {p.x, p.y, p.z};
    }
    __device__ static void fetch(float4* buf, int, int t, const Sources& s, int j, bool valid) {
        const float4* src = reinterpret_cast<const float4*>(static_cast<const Dbl4*>(s.pos) + (valid ? j : 0));
        cp16(&buf[2 * t], src, valid);
        cp16(&buf[2 * t + 1], src + 1, valid);
    }
    __device__ static J body(const float4* buf, int, int t) { return reinterpret_cast<const Dbl4*>(buf)[t]; }
    __device__ __forceinline__ static void interact(const I& xi, const J& bj, double soft2, Acc& a) {
        const double dx = bj.x - xi.x, dy = bj.y - xi.y, dz = bj.z - xi.z;
        const double r2 = fma(dz, dz, fma(dy, dy, fma(dx, dx, soft2)));
        const double y = rsqrt_approx_f64(r2);
        const double y2 = y * y;
        const double e = fma(-r2, y2, 1.0);
        const double series = fma(e, fma(e, 1.875, 1.5), 1.0);
        const double s = (bj.w * y) * y2 * series;
        a.x = fma(dx, s, a.x);
        a.y = fma(dy, s, a.y);
        a.z = fma(dz, s, a.z);
    }
    __device__ static void flush(Acc&) {}
};

}  // namespace nbody::kernels
