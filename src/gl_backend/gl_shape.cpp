#include "gl_backend/gl_shape.hpp"

#include <algorithm>

#include "core/errors.hpp"
#include "core/kernels/kernel_family.hpp"
#include "core/rows/param_checks.hpp"

namespace nbody {

const BackendReach& gl_reach() {
    static const BackendReach reach{"the gl backend", bit(Scheme::KickDriftKick), bit(ForceMethod::Direct),
                                    bit(Precision::Fp32)};
    return reach;
}

void check_gl_params(const SimParams& p) {
    check_reach(gl_reach(), p);
    if (!p.kernel_auto && p.variant != KernelVariant::None && p.variant != KernelVariant::IUnrolled &&
        p.variant != KernelVariant::IJUnrolled)
        throw ParamError("variant", "the gl backend runs none, i-unrolled and ij-unrolled (got " +
                                        std::string(variant_name(p.variant)) + ")");
}

long long gl_groups(const GlShape& s, std::size_t n) {
    const long long per = s.bodies_per_group();
    return (static_cast<long long>(n) + per - 1) / per;
}

namespace {
bool power_of_two(int v) {
    return v > 0 && (v & (v - 1)) == 0;
}

// q, when the block's slices must each hold whole groups of u j-bodies.
bool q_fits(int q, int block, int u) {
    return power_of_two(q) && q <= 32 && block % q == 0 && (block / q) % u == 0;
}

int automatic_q(const GlShape& s, std::size_t n, const GlComputeLimits& l) {
    if (l.units <= 0) return 1;
    const long long target = static_cast<long long>(l.units) * 1024;
    int best = 1;
    for (int q = 1; q <= 32; q *= 2) {
        if (!q_fits(q, s.block, s.u)) break;
        best = q;
        GlShape t = s;
        t.q = q;
        if (gl_groups(t, n) * s.block >= target) break;
    }
    return best;
}

int tile_loads(const GlShape& s) {
    int tl = 1;
    while (s.block * tl / s.q < kGlMinPerSlice && s.block * tl * 2 * 16 <= kGlMaxTileBytes) tl *= 2;
    return tl;
}

void check_limits(GlShape& s, std::size_t n, const GlComputeLimits& l) {
    s.tile_loads = tile_loads(s);
    const int most = std::min(l.max_invocations, l.max_size_x);
    if (s.block > most)
        throw ParamError("block", "this GL allows work groups of at most " + std::to_string(most) +
                                      " invocations (got " + std::to_string(s.block) + ")");
    while (s.tile_loads > 1 && s.tile() * 16LL > l.max_shared_bytes) s.tile_loads /= 2;
    if (s.tile() * 16LL > l.max_shared_bytes)
        throw ParamError("block", "a tile of " + std::to_string(s.tile()) + " bodies takes " +
                                      std::to_string(s.tile() * 16) +
                                      " bytes of shared memory, over this GL's " +
                                      std::to_string(l.max_shared_bytes));
    if (gl_groups(s, n) > l.max_groups_x)
        throw ParamError("block", std::to_string(n) + " bodies need " + std::to_string(gl_groups(s, n)) +
                                      " work groups of " + std::to_string(s.bodies_per_group()) +
                                      " bodies, over this GL's " + std::to_string(l.max_groups_x) +
                                      "; raise k or block, or lower q");
}
}  // namespace

GlShape resolve_gl_shape(const SimParams& p, std::size_t n, const GlComputeLimits& l) {
    check_gl_params(p);
    GlShape s;
    if (p.kernel_auto) {
        s.automatic = true;
        s.q = automatic_q(s, n, l);
        check_limits(s, n, l);
        return s;
    }
    validate_shape(p.variant, p.shape);
    s.variant = p.variant;
    s.k = p.shape.k, s.block = p.shape.block;
    s.u = s.rolled() ? 1 : p.shape.u;
    if (p.shape.s > 1)
        throw ParamError("s", "the gl backend does not split the j range over work groups: s is 1 (got " +
                                  std::to_string(p.shape.s) + ")");
    if (p.shape.q == 0) {
        s.q = automatic_q(s, n, l);
    } else if (!q_fits(p.shape.q, s.block, s.u)) {
        throw ParamError("q", "the gl backend takes q a power of two up to 32 that divides block " +
                                  std::to_string(s.block) + " into slices of whole groups of u = " +
                                  std::to_string(s.u) + " (got " + std::to_string(p.shape.q) + ")");
    } else {
        s.q = p.shape.q;
    }
    check_limits(s, n, l);
    return s;
}

std::string gl_shape_label(const GlShape& s) {
    std::string t = std::string(variant_name(s.variant)) + " k " + std::to_string(s.k);
    if (!s.rolled()) t += " u " + std::to_string(s.u);
    return t + " block " + std::to_string(s.block) + " q " + std::to_string(s.q) +
           (s.automatic ? " (auto)" : "");
}

}  // namespace nbody
