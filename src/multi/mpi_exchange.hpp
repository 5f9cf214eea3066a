#pragma once
// Exchange over MPI (Open MPI from Debian): one rank per process, started by mpirun. The gather is
// MPI_Iallgatherv in place on host buffers, polled with MPI_Test against a deadline so a dead or hung rank
// ends the run with a message instead of a silent wait. (A CUDA-aware MPI could gather device buffers
// directly and skip the device->host->device copies; Debian's Open MPI is not built CUDA-aware.)
#include <memory>

#include "multi/exchange.hpp"

namespace nbody {

// The exchange this process should use: MPI when started by mpirun with more than one rank (the
// OMPI_COMM_WORLD_SIZE / PMI_SIZE environment), SingleExchange otherwise. Throws BackendError when mpirun
// started several ranks but this build has no MPI (NBODY_WITH_MPI off), instead of N independent runs.
std::unique_ptr<Exchange> exchange_from_environment();

// The world size mpirun announced in the environment (1 when not under mpirun).
int launched_ranks();

// The rank's index among the ranks on its host (OMPI_COMM_WORLD_LOCAL_RANK): its GPU under one rank per GPU.
int local_rank();

// CPU threads for one of this host's ranks: the hardware threads shared among the ranks mpirun started here
// (OMPI_COMM_WORLD_LOCAL_SIZE), at least 1; `requested` when > 0.
int threads_per_rank(int requested);

}  // namespace nbody
