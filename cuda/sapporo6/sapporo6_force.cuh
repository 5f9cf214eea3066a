#pragma once
// The sixth-order force kernels. A block is 128 i-particles (one a thread) against one slice of the j range,
// staged through shared memory 128 j at a time; s6_reduce adds the slices' partial sums per i in slice order,
// so the result does not depend on timing. The pair term is core/hermite6.hpp's pair6, the code the CPU
// reference runs:
//   fp64: all in double (about 60 flops and a double rsqrt a pair);
//   ds:   dr in double (the positions' difference keeps their full precision) then float, dv, da and the pair
//         terms in float (MUFU rsqrt), summed in float over a tile of 128 j and the tiles' sums in double.
#include <cuda_runtime.h>

#include "core/hermite6.hpp"
#include "sapporo6/sapporo6_cpu.hpp"

namespace nbody::kernels {

using hermite6::D3;

constexpr int kS6Block = 128;  // i-particles a block and j-particles a shared-memory tile

// Four doubles, 32-byte aligned (two 128-bit loads); CUDA 13 deprecates double4 for want of the alignment.
struct alignas(32) Quad {
    double x, y, z, w;
};

// Particles as the kernels read them: (x, y, z, mass or eps2), (vx, vy, vz, id), (ax, ay, az, 0).
struct S6Particles {
    Quad* pm;
    Quad* vid;
    Quad* acc;
};

__device__ inline D3 d3(Quad v) {
    return {v.x, v.y, v.z};
}

struct F3 {
    float x, y, z;
};
__device__ inline F3 operator+(F3 a, F3 b) {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
}
__device__ inline F3 operator-(F3 a, F3 b) {
    return {a.x - b.x, a.y - b.y, a.z - b.z};
}
__device__ inline F3 operator*(float s, F3 a) {
    return {s * a.x, s * a.y, s * a.z};
}
__device__ inline float dot(F3 a, F3 b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
__device__ inline F3 f3(Quad v) {
    return {float(v.x), float(v.y), float(v.z)};
}

// What one thread sums for its i-particle: forces in double, the nearest j (squared distance, id).
struct S6Sums {
    hermite6::Force6 f;
    double r2min, nearest;
};

// fp64: j-particles in shared memory as they are.
struct Fp64Tile {
    Quad pm[kS6Block], vid[kS6Block], acc[kS6Block];
    __device__ void load(int t, const S6Particles& j, int k) {
        pm[t] = j.pm[k], vid[t] = j.vid[k], acc[t] = j.acc[k];
    }
    __device__ void run(int count, Quad xe, Quad vi, Quad ai, S6Sums& s) const {
        for (int k = 0; k < count; ++k) {
            const Quad jp = pm[k], jv = vid[k];
            if (jv.w == vi.w) continue;  // the self term, by id
            const D3 dr = d3(jp) - d3(xe);
            hermite6::add_pair6(dr, d3(jv) - d3(vi), d3(acc[k]) - d3(ai), jp.w, xe.w, s.f);
            const double d2 = hermite6::dot(dr, dr);
            if (d2 < s.r2min) s.r2min = d2, s.nearest = jv.w;
        }
    }
};

// ds: positions in double, velocity and acceleration (and the mass) in float, ids as integers.
struct DsTile {
    Quad pm[kS6Block];
    float4 vm[kS6Block], acc[kS6Block];
    int id[kS6Block];
    __device__ void load(int t, const S6Particles& j, int k) {
        const Quad p = j.pm[k], v = j.vid[k], a = j.acc[k];
        pm[t] = p;
        vm[t] = make_float4(float(v.x), float(v.y), float(v.z), float(p.w));
        acc[t] = make_float4(float(a.x), float(a.y), float(a.z), 0.f);
        id[t] = int(v.w);
    }
    __device__ void run(int count, Quad xe, Quad vi, Quad ai, S6Sums& s) const {
        const F3 v = f3(vi), a = f3(ai);
        const float eps2 = float(xe.w);
        const int self = int(vi.w);
        F3 sa{0, 0, 0}, sj{0, 0, 0}, ss{0, 0, 0};
        float pot = 0;
        for (int k = 0; k < count; ++k) {
            if (id[k] == self) continue;  // the self term, by id
            const F3 dr = f3(Quad{pm[k].x - xe.x, pm[k].y - xe.y, pm[k].z - xe.z, 0});
            const float4 jv = vm[k], ja = acc[k];
            const hermite6::PairTerms6<float, F3> p =
                hermite6::pair6(dr, F3{jv.x, jv.y, jv.z} - v, F3{ja.x, ja.y, ja.z} - a, jv.w, eps2);
            sa = sa + p.a, sj = sj + p.j, ss = ss + p.s, pot += p.pot;
            const float d2 = dot(dr, dr);
            if (d2 < s.r2min) s.r2min = d2, s.nearest = id[k];
        }
        s.f.acc = s.f.acc + D3{sa.x, sa.y, sa.z};
        s.f.jerk = s.f.jerk + D3{sj.x, sj.y, sj.z};
        s.f.snap = s.f.snap + D3{ss.x, ss.y, ss.z};
        s.f.pot += pot;
    }
};

// Partial sums of i-particle i over j in [j0, j1): part[slice * ni + i] = (acc, pot), (jerk, r2min),
// (snap, id of the nearest). Ties of distance keep the lower address.
template <class Tile>
__global__ void __launch_bounds__(kS6Block)
    s6_force(S6Particles j, int nj, int chunk, S6Particles in, int ni, Quad* pa, Quad* pj, Quad* ps) {
    __shared__ Tile tile;
    const int i = blockIdx.x * kS6Block + threadIdx.x;
    const int j0 = blockIdx.y * chunk, j1 = min(nj, j0 + chunk);
    const Quad xe = i < ni ? in.pm[i] : Quad{0, 0, 0, 1};
    const Quad vi = i < ni ? in.vid[i] : Quad{0, 0, 0, 0};
    const Quad ai = i < ni ? in.acc[i] : Quad{0, 0, 0, 0};
    S6Sums s{hermite6::zero_force6(), HUGE_VAL, -1};
    for (int base = j0; base < j1; base += kS6Block) {
        if (base + int(threadIdx.x) < j1) tile.load(threadIdx.x, j, base + threadIdx.x);
        __syncthreads();
        tile.run(min(kS6Block, j1 - base), xe, vi, ai, s);
        __syncthreads();
    }
    if (i >= ni) return;
    const std::size_t o = std::size_t(blockIdx.y) * ni + i;
    pa[o] = Quad{s.f.acc.x, s.f.acc.y, s.f.acc.z, s.f.pot};
    pj[o] = Quad{s.f.jerk.x, s.f.jerk.y, s.f.jerk.z, s.r2min};
    ps[o] = Quad{s.f.snap.x, s.f.snap.y, s.f.snap.z, s.nearest};
}

// out[i] = acc (3), jerk (3), snap (3), pot, r2min, nearest id: the slices added in order.
__global__ void s6_reduce(const Quad* pa, const Quad* pj, const Quad* ps, int slices, int ni, double* out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= ni) return;
    double v[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, HUGE_VAL, -1};
    for (int s = 0; s < slices; ++s) {
        const std::size_t o = std::size_t(s) * ni + i;
        const Quad a = pa[o], j = pj[o], n = ps[o];
        v[0] += a.x, v[1] += a.y, v[2] += a.z, v[9] += a.w;
        v[3] += j.x, v[4] += j.y, v[5] += j.z;
        v[6] += n.x, v[7] += n.y, v[8] += n.z;
        if (j.w < v[10]) v[10] = j.w, v[11] = n.w;
    }
    for (int k = 0; k < 12; ++k) out[std::size_t(i) * 12 + k] = v[k];
}

}  // namespace nbody::kernels
