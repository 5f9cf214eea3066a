#pragma once
// The backend factory (room engine: may include core, cpu, multi and the CUDA host header): what every
// front end (the sandbox, nbody-bench, the library API in src/api) makes its backend with.
#include <memory>
#include <string>

#include "core/backend.hpp"

namespace nbody {

// The backend SimParams::backend asks for. Auto picks CUDA when this build has it and a usable device
// exists, else the CPU, and puts the reason for the choice in *note. Cuda throws BackendError naming why
// no device can be used (not built with CUDA, no device, driver too old). Gl throws BackendError: the GL
// compute row lives above libnbody (gl_backend/gl_backend_factory.hpp's make_backend_with_gl).
std::unique_ptr<Backend> make_backend(const SimParams& p, std::string* note = nullptr);

// For the sandbox, which goes on whatever the GPU does: make_backend, and where a CUDA backend was asked for and
// cannot start, the CPU backend with *note saying why in words (the window's banner reads it).
std::unique_ptr<Backend> make_backend_or_cpu(const SimParams& p, std::string* note = nullptr);

// b->reset(s, p), and where a GPU backend cannot hold or run the state (out of memory, no code for this GPU), the
// CPU backend in its place with *note saying why. Errors of the state itself (NaN, bad parameters) still throw.
void reset_or_cpu(std::unique_ptr<Backend>& b, const State& s, const SimParams& p, std::string* note);

// Under mpirun with more than one rank (multi/mpi_exchange): this rank's share of one simulation, a
// DistributedBackend over the backend make_backend picks, one GPU per rank (the local rank). nullptr when not
// started by mpirun. Throws BackendError when mpirun started several ranks and this build has no MPI, or the
// inner backend cannot run a sub-range. *rank gets this process's rank (only rank 0 prints and writes).
std::unique_ptr<Backend> make_rank_backend(const SimParams& p, std::string* note, int* rank);

// True when this build includes the CUDA backend.
bool cuda_built();

// CUDA devices on this machine: 0 without the CUDA backend, a driver or a device. Never throws.
int cuda_device_count();

}  // namespace nbody
