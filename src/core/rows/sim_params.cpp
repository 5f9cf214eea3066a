#include "core/rows/sim_params.hpp"

#include <algorithm>
#include <string>

namespace nbody {

std::vector<int> devices_for(int gpus, int available, std::string* note) {
    if (note) note->clear();
    const int want = gpus == 0 ? available : gpus;
    const int take = std::max(1, std::min(want, available));
    if (want > available && note)
        *note = "asked for " + std::to_string(want) + " GPUs; this machine has " + std::to_string(available) +
                ": running on " + std::to_string(take);
    std::vector<int> out;
    for (int d = 0; d < take; ++d) out.push_back(d);
    return out;
}

bool same_params(const SimParams& a, const SimParams& b) {
    return a.dt == b.dt && a.eps == b.eps && a.G == b.G && a.steps_per_frame == b.steps_per_frame &&
           a.backend == b.backend && a.method == b.method && a.kernel_auto == b.kernel_auto && a.variant == b.variant &&
           a.shape == b.shape && a.precision == b.precision && a.integrator == b.integrator &&
           a.eta == b.eta && a.gpus == b.gpus && a.cpu_threads == b.cpu_threads && a.tree == b.tree;
}


}  // namespace nbody
