// nbody-bench --tune, the candidate grid: the sizes it measures by default and the shapes of every family whose
// descriptor row (core/kernels/kernel_family.hpp) says --tune measures it.
#include "bench/tune.hpp"

#include "core/errors.hpp"
#include "core/kernels/kernel_family.hpp"

namespace nbody {

std::vector<std::size_t> default_tune_sizes() {
    return {1000, 2000, 4000, 7500, 10000, 18000, 50000, 100000, 131072, 262144};
}

// Every family --tune measures (its descriptor row says so and lists its shapes), in table order, where it runs in
// precision p; shapes its rules refuse are dropped (the caller validates user lists, the defaults are valid).
std::vector<TuneCandidate> tune_grid(Precision p, const std::vector<int>& ks, const std::vector<int>& us,
                                     const std::vector<int>& blocks) {
    std::vector<TuneCandidate> out;
    for (const FamilyInfo& f : variant_table()) {
        if (!f.tuned || !f.tune_shapes || !runs_in(f, p)) continue;
        for (const KernelShape& s : f.tune_shapes(p, ks, us, blocks)) {
            try {
                validate_shape(f.variant, s);
            } catch (const ParamError&) {
                continue;
            }
            out.push_back({f.variant, s});
        }
    }
    return out;
}

}  // namespace nbody
