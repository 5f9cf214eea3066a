#pragma once
// The table's gl rows (BenchTableHooks::gl) for the front ends that link the GL compute backend: nbody-bench
// and the Python module's nbody.bench. Header-only so nbody_race stays GL-free.
#include "bench/bench_table.hpp"
#include "gl_backend/gl_backend.hpp"

namespace nbody {

// The rows run on `gl`, timed by its GL timer queries, their shape columns from its resolved shape.
inline void use_gl_rows(BenchTableHooks& h, GlBackend& gl) {
    GlBackend* g = &gl;
    h.gl = g;
    h.gl_timer = [g](Backend&, int k) { return g->timed_steps(k); };
    h.gl_shape = [g](BenchRow& r) {
        const GlShape& s = g->shape();
        r.k = s.k, r.u = s.u, r.block = s.block, r.q = s.q, r.s = 1;
    };
}

}  // namespace nbody
