#pragma once
// The walk's evaluation of one group's interaction lists, vectorised over each list (built with -O3
// -ffast-math -fopenmp-simd and per-ISA clones, as src/cpu/force_f32.cpp).
#include <cstddef>
#include <cstdint>

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

// The same lists' potentials (tree::body_cell_potential, body_body_potential), without G and positive:
// phi[i] = -phi_i / G. Each term in float32, each body's sum in float64: a term is good to float32's 6e-8
// and a list of a few thousand terms summed in float32 would lose two more digits, which the tests comparing
// with the exact float64 sum would have to allow for. body_keys[j]: body-list entry j's position in key
// order, self_keys[i]: body i's; a body adds nothing to itself, nor, without softening (soft2 =
// tree::kSelfFloor), a body at the same point (as core/diagnostics' body_potentials).
void tree_group_potentials(const CellListF32& cells, const SourcesF32& bodies, const uint32_t* body_keys,
                           const float* xi, const float* yi, const float* zi, const uint32_t* self_keys,
                           std::size_t ni, float soft2, double* phi);

}  // namespace nbody
