#pragma once
// The sixth-order library's data as its force engines share it (the CPU reference in src/sapporo6, the GPU
// engine in cuda/sapporo6): a j-particle record, its prediction, a batch of i-particles and where their results
// go. Plain data with one layout on the host and the device, in this lower room so that both engines include
// it and neither includes the other's headers.
#include "core/physics/hermite6.hpp"

namespace nbody::sapporo6 {

NBODY_HD inline hermite6::D3 d3(const double v[3]) {
    return {v[0], v[1], v[2]};
}
inline void put(double out[3], hermite6::D3 v) {
    out[0] = v.x, out[1] = v.y, out[2] = v.z;
}

// A j-particle as stored: its derivatives at its own time (not divided by factorials). Plain data, the same
// layout on the host and the device (the GPU engine copies these records as they are).
struct JRecord {
    double x[3], v[3], a[3], j[3], s[3], c[3];
    double mass, time, eps2;
    int id, pad;
};

// The record's position, velocity and acceleration predicted to time t (to crackle), or as stored where t is
// NaN (no prediction since it was set, or no_predict_all).
NBODY_HD inline void predicted(const JRecord& r, double t, hermite6::D3& x, hermite6::D3& v,
                               hermite6::D3& a) {
    const hermite6::D3 x0{r.x[0], r.x[1], r.x[2]}, v0{r.v[0], r.v[1], r.v[2]}, a0{r.a[0], r.a[1], r.a[2]};
    if (t != t) {
        x = x0, v = v0, a = a0;
        return;
    }
    hermite6::predict6(x0, v0, a0, {r.j[0], r.j[1], r.j[2]}, {r.s[0], r.s[1], r.s[2]},
                       {r.c[0], r.c[1], r.c[2]}, t - r.time, x, v, a);
}

// ni i-particles (their predicted state) as calc_force_on_predictors gives them.
struct IBatch {
    int ni;
    const int* id;
    const double (*pos)[3];
    const double (*vel)[3];
    const double (*acc)[3];
    const double* mass;
    const double* eps2;
};

// Where the results of the same ni go (crk may be null: it is only zeroed).
struct IResult {
    double (*acc)[3];
    double (*jrk)[3];
    double (*snp)[3];
    double (*crk)[3];
    double* phi;
    int* nnb;
    double* nnb_r2;
};

}  // namespace nbody::sapporo6
