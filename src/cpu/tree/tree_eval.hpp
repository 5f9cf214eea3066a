#pragma once
// The walk's evaluation of one group's interaction lists, vectorised over each list (built with -O3
// -ffast-math -fopenmp-simd and per-ISA clones, as src/cpu/force_f32.cpp).
#include <cstddef>

#include "cpu/force_f32.hpp"

namespace nbody {

// A group's accepted cells, structure of arrays (see tree::CellMoments; r_open2 is not needed here), with
// t = tree::softened_trace(tr, soft2) in place of the trace.
struct CellListF32 {
    const float *x, *y, *z, *m, *qxx, *qyy, *qzz, *qxy, *qxz, *qyz, *t;
    std::size_t n;
};

// For the ni bodies (xi, yi, zi): a = sum over the cells (monopole + quadrupole) + sum over the bodies,
// without G, written to ax, ay, az. soft2 = eps^2 + tree::kSelfFloor.
void tree_group_forces(const CellListF32& cells, const SourcesF32& bodies, const float* xi, const float* yi,
                       const float* zi, std::size_t ni, float soft2, float* ax, float* ay, float* az);

}  // namespace nbody
