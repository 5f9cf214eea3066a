#include "multi/rank_exchange.hpp"

#include <cstdlib>
#include <string>

namespace nbody {

std::vector<BodyRange> split_body_ranges(std::size_t n, std::size_t parts) {
    if (parts == 0) parts = 1;
    std::vector<BodyRange> out(parts);
    for (std::size_t k = 0; k < parts; ++k) out[k] = {n * k / parts, n * (k + 1) / parts};
    return out;
}

int launcher_world_size() {
    for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"}) {
        if (const char* v = std::getenv(var)) {
            const int n = std::atoi(v);
            if (n > 0) return n;
        }
    }
    return 1;
}

}  // namespace nbody
