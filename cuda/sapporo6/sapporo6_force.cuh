#pragma once
// The sixth-order library's force kernels. A block is 128 i-particles (one a thread) against one slice of the
// j range, staged through shared memory 128 j at a time; s6_reduce adds the slices' partial sums per i in
// slice order, so the result does not depend on timing. The pair term is the native engine's
// (cuda/hermite/hermite6_force.cuh, the code the hermite6 integrators run), with the library's own self term
// (skipped by id), potential and nearest neighbour beside it:
//   fp64: all in double (a double rsqrt refined a pair);
//   ds:   x_j - x_i from float hi + lo parts, the rest in float with a Newton step on rsqrt, summed in float
//   over
//         a tile of 128 j and the tiles' sums in double.
#include <cuda_runtime.h>

#include "core/physics/hermite6.hpp"
#include "hermite/hermite6_force.cuh"
#include "core/physics/sapporo6_records.hpp"

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

// What one thread sums for its i-particle: forces in double, the nearest j (squared distance, id).
struct S6Sums {
    hermite6::Force6 f;
    double r2min, nearest;
};

// A tile's sums in the tile's precision: the native engine's Hermite6Sums and the nearest j of the tile (its
// squared distance and slot; ties keep the lower slot).
template <class R>
struct TileSums {
    Hermite6Sums<R> f{};
    R d2min = R(HUGE_VAL);
    int nearest = -1;
};

// A tile's sums added into the thread's; id_of(slot) is the nearest j's id (ties keep the earlier tile).
template <class R, class IdOf>
__device__ inline void add_tile(const TileSums<R>& t, IdOf&& id_of, S6Sums& s) {
    s.f.acc = s.f.acc + D3{t.f.ax, t.f.ay, t.f.az};
    s.f.jerk = s.f.jerk + D3{t.f.jx, t.f.jy, t.f.jz};
    s.f.snap = s.f.snap + D3{t.f.sx, t.f.sy, t.f.sz};
    s.f.pot += t.f.phi;
    if (t.nearest >= 0 && double(t.d2min) < s.r2min) s.r2min = t.d2min, s.nearest = id_of(t.nearest);
}

// j-particle k's pull on the thread's i-particle: the native engine's pair term (hermite6_pair, without its
// potential: the library's counts coincident particles of other ids, as the CPU reference does), the
// potential from its 1 / r, and the nearest neighbour, all in the tile's precision. BY_R2: neighbours ranked
// by the pair's r^2 = |dr|^2 + eps^2 (one eps^2 for all j of an i: the same order), the tile's d2min then
// holding r^2 (the caller takes eps^2 off once a tile): r^2 as the pair term forms it, where the FP64 pipe
// is the limit; float forms |dr|^2 first and r^2 from it (one instruction more than r^2 alone, where r^2 -
// eps^2 in float would lose the close pairs' distances).
template <class R, bool REFINE, bool BY_R2>
__device__ __forceinline__ void s6_pair(R dx, R dy, R dz, R dvx, R dvy, R dvz, R dax, R day, R daz, R m,
                                        R eps2, int k, TileSums<R>& t) {
    R r2, d2;
    const R rinv = hermite6_pair<R, REFINE, false, !BY_R2>(dx, dy, dz, dvx, dvy, dvz, dax, day, daz, m, eps2,
                                                           t.f, &r2, &d2);
    t.f.phi -= m * rinv;
    const R d = BY_R2 ? r2 : d2;
    if (d < t.d2min) t.d2min = d, t.nearest = k;
}

// pair(k) for the tile's j-particles 0..count-1: a full tile as a fixed trip count unrolled 8 deep (the
// native kernel's shape), a partial one plainly.
template <class Pair>
__device__ __forceinline__ void for_each_j(int count, Pair&& pair) {
    if (count == kS6Block) {
#pragma unroll 8
        for (int k = 0; k < kS6Block; ++k) pair(k);
    } else {
        for (int k = 0; k < count; ++k) pair(k);
    }
}

// A particle's id carried in the unused fourth word of a record the pair reads anyway, so the self test costs
// no shared-memory load of its own and runs on the integer pipe: in a double's low 32 bits (fp64) or a
// float's bits (ds).
__device__ inline double id_in_double(int id) {
    return __hiloint2double(0, id);
}
__device__ inline int id_of_double(double w) {
    return __double2loint(w);
}

// fp64: j-particles in shared memory as they are, the id in acc's w.
struct Fp64Tile {
    Quad pm[kS6Block], vid[kS6Block], acc[kS6Block];
    __device__ void load(int t, const S6Particles& j, int k) {
        pm[t] = j.pm[k], vid[t] = j.vid[k], acc[t] = j.acc[k];
        acc[t].w = id_in_double(int(vid[t].w));
    }
    __device__ void run(int count, Quad xe, Quad vi, Quad ai, S6Sums& s) const {
        TileSums<double> t;
        const int self = int(vi.w);
        for_each_j(count, [&](int k) {
            const Quad jp = pm[k], jv = vid[k], ja = acc[k];
            if (id_of_double(ja.w) == self) return;  // the self term, by id
            s6_pair<double, false, true>(jp.x - xe.x, jp.y - xe.y, jp.z - xe.z, jv.x - vi.x, jv.y - vi.y,
                                         jv.z - vi.z, ja.x - ai.x, ja.y - ai.y, ja.z - ai.z, jp.w, xe.w, k,
                                         t);
        });
        if (t.nearest >= 0) t.d2min -= xe.w;  // r^2 back to |dr|^2
        add_tile(
            t, [&](int k) { return vid[k].w; }, s);
    }
};

// ds: positions as float hi + lo parts (x_j - x_i = (hi_j - hi_i) + (lo_j - lo_i), as the native engine's
// double-single forms it, without a double subtraction and conversion a pair), velocity and acceleration
// (and the mass) in float, the id in hi's w; the pair terms in float with a Newton step on rsqrt, summed in
// float over a tile and the tiles in double.
struct DsTile {
    float4 hi[kS6Block], lo[kS6Block], vm[kS6Block], acc[kS6Block];
    __device__ void load(int t, const S6Particles& j, int k) {
        const Quad p = j.pm[k], v = j.vid[k], a = j.acc[k];
        const float hx = float(p.x), hy = float(p.y), hz = float(p.z);
        hi[t] = make_float4(hx, hy, hz, __int_as_float(int(v.w)));
        lo[t] = make_float4(float(p.x - hx), float(p.y - hy), float(p.z - hz), 0.f);
        vm[t] = make_float4(float(v.x), float(v.y), float(v.z), float(p.w));
        acc[t] = make_float4(float(a.x), float(a.y), float(a.z), 0.f);
    }
    __device__ void run(int count, Quad xe, Quad vi, Quad ai, S6Sums& s) const {
        const float xh = float(xe.x), yh = float(xe.y), zh = float(xe.z);
        const float xl = float(xe.x - xh), yl = float(xe.y - yh), zl = float(xe.z - zh);
        const float vx = float(vi.x), vy = float(vi.y), vz = float(vi.z);
        const float ax = float(ai.x), ay = float(ai.y), az = float(ai.z), eps2 = float(xe.w);
        const int self = int(vi.w);
        TileSums<float> t;
        for_each_j(count, [&](int k) {
            const float4 h = hi[k];
            if (__float_as_int(h.w) == self) return;  // the self term, by id
            const float4 l = lo[k], v = vm[k], a = acc[k];
            s6_pair<float, true, false>((h.x - xh) + (l.x - xl), (h.y - yh) + (l.y - yl),
                                        (h.z - zh) + (l.z - zl), v.x - vx, v.y - vy, v.z - vz, a.x - ax,
                                        a.y - ay, a.z - az, v.w, eps2, k, t);
        });
        add_tile(
            t, [&](int k) { return double(__float_as_int(hi[k].w)); }, s);
    }
};

// Partial sums of i-particle i over j in [j0, j1): part[slice * ni + i] = (acc, pot), (jerk, r2min),
// (snap, id of the nearest). Ties of distance keep the lower address.
template <class Tile>
__global__ void __launch_bounds__(kS6Block, 1)
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
