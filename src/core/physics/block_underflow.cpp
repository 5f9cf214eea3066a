#include "core/physics/block_underflow.hpp"

#include <cstdio>

#include "core/errors.hpp"

namespace nbody {

void block_underflow(std::size_t i, double t, double wanted) {
    char buf[320];
    std::snprintf(
        buf, sizeof buf,
        "block step underflow: body %zu at t = %.17g needs a step of %.3g, below the block floor 2^-40 "
        "(a close encounter or collapse: raise eps); the state is kept",
        i, t, wanted);
    throw BackendError(buf);
}

}  // namespace nbody
