// Built instead of mpi_exchange.cpp when NBODY_WITH_MPI is off: asking for ranks says so.
#include "core/errors.hpp"
#include "multi/rank_exchange.hpp"

namespace nbody {

bool mpi_built() {
    return false;
}

std::unique_ptr<RankExchange> make_mpi_exchange(double) {
    throw BackendError(
        "this build has no MPI (configure with libopenmpi-dev installed, NBODY_WITH_MPI=ON) "
        "but was started as one of several ranks; run it without mpirun, or rebuild");
}

}  // namespace nbody
