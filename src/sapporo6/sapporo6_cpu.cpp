#include "sapporo6/sapporo6_cpu.hpp"

#include <cmath>
#include <cstddef>

#include "core/parallel.hpp"

namespace nbody::sapporo6 {

namespace {

void one_i(const PredictedJ& j, int nj, const IBatch& in, int i, const IResult& out) {
    const hermite6::D3 xi = d3(in.pos[i]), vi = d3(in.vel[i]), ai = d3(in.acc[i]);
    const int id = in.id[i];
    const double eps2 = in.eps2[i];
    hermite6::Force6 f = hermite6::zero_force6();
    double r2min = HUGE_VAL;
    int nearest = -1;
    for (int k = 0; k < nj; ++k) {
        if (j.id[std::size_t(k)] == id) continue;
        const hermite6::D3 dr = j.pos[std::size_t(k)] - xi;
        hermite6::add_pair6(dr, j.vel[std::size_t(k)] - vi, j.acc[std::size_t(k)] - ai,
                            j.mass[std::size_t(k)], eps2, f);
        const double d2 = hermite6::dot(dr, dr);
        if (d2 < r2min) {
            r2min = d2;
            nearest = j.id[std::size_t(k)];
        }
    }
    put(out.acc[i], f.acc);
    put(out.jrk[i], f.jerk);
    put(out.snp[i], f.snap);
    if (out.crk) put(out.crk[i], {0, 0, 0});
    out.phi[i] = f.pot;
    out.nnb[i] = nearest;
    out.nnb_r2[i] = r2min;
}

}  // namespace

void cpu_forces(const PredictedJ& j, int nj, const IBatch& in, int i0, int n, const IResult& out) {
    // Chunks of at least 4 i-particles per thread once nj is large: one i costs nj pair terms.
    const std::size_t min_per_thread = nj >= 4096 ? 4 : 64;
    parallel_for(
        std::size_t(n), resolve_threads(0),
        [&](std::size_t b, std::size_t e) {
            for (std::size_t i = b; i < e; ++i) one_i(j, nj, in, i0 + int(i), out);
        },
        min_per_thread);
}

}  // namespace nbody::sapporo6
