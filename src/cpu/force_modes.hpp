#pragma once
// The CPU's force sums in the three precisions of SimParams::precision, over float64 body arrays:
//   fp32  positions rounded to float32, differences, pair terms and sums in float32 (as the GPU's fp32);
//   ds    differences x_j - x_i (and v_j - v_i) formed in double and rounded to float32, the pair term in
//         float32, sums in double (Sapporo2's double-single);
//   fp64  everything in double: the float64 reference.
// Acceleration only (leap-frog) or acceleration, jerk and potential (Hermite: core/physics/hermite.hpp's add_pair,
// generalised over the arithmetic type so the j loop vectorises).
#include <cstddef>

#include "core/physics/hermite.hpp"
#include "core/physics/hermite6.hpp"
#include "core/rows/sim_params.hpp"

namespace nbody {

// Structure-of-arrays view of the bodies that exert force, at one time (Hermite: the predicted ones).
struct SourcesF64 {
    const double* x;
    const double* y;
    const double* z;
    const double* vx;  // velocities: only the jerk uses them (may be null for acceleration-only sums)
    const double* vy;
    const double* vz;
    const double* m;
    std::size_t n;
};

// a_i for i in [0, n) without G, in precision p, over `threads` threads; each row summed by one thread in a
// fixed j order, so the result does not depend on the thread count. Pairs at zero separation are skipped.
void accelerations(const SourcesF64& src, Precision p, double eps2, int threads, double* ax, double* ay,
                   double* az);
// The same for the bodies rows[0..count) only (all of [0, count) where rows is null), written to ax[rows[k]]
// and so on: each row's bits are those of the whole sum's (block steps evaluate their active bodies alone).
void accelerations(const SourcesF64& src, const std::size_t* rows, std::size_t count, Precision p,
                   double eps2, int threads, double* ax, double* ay, double* az);

// Acceleration, jerk and potential (without G) on the bodies rows[0..count) from every body of src, written
// to out[k] for rows[k]. 60 flops per pair by Belleman et al.'s count.
void hermite_forces(const SourcesF64& src, const std::size_t* rows, std::size_t count, Precision p,
                    double eps2, int threads, hermite::Force* out);

// The 6th-order sum's sources: src's bodies (predicted) with their predicted accelerations, G included.
struct Sources6 {
    SourcesF64 xv;
    const double* ax;
    const double* ay;
    const double* az;
};

// Acceleration, jerk, snap and potential (without G) on rows[0..count) from every other body of src, in
// float64 (core/physics/hermite6.hpp's pair terms), written to out[k] for rows[k]; each row summed by one thread in a
// fixed j order, so the result does not depend on the thread count. The self term is left out by index (and a
// pair at zero distance with eps = 0 contributes nothing rather than infinities). 97 flops a pair by
// Nitadori & Makino's count (kFlopsPerInteractionHermite6).
void hermite6_forces(const Sources6& src, const std::size_t* rows, std::size_t count, double eps2, int threads,
                     hermite6::Force6* out);

}  // namespace nbody
