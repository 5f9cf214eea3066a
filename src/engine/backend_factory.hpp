#pragma once
// The backend factory (room engine: may include core, cpu, multi and the CUDA host header): what every
// front end (the sandbox, nbody-bench, the library API in src/api) makes its backend with, from the rows of
// engine/backend_rows.hpp. Each answers a BackendChoice (core/backend/backend_choice.hpp): asked, running, and why.
#include <memory>
#include <string>

#include "core/backend/backend.hpp"
#include "core/backend/backend_choice.hpp"

namespace nbody {

// The words when the build has no CUDA backend, for the banner and the Kernel panel.
inline constexpr const char* kNoCudaWords = "this program was built without CUDA";

// The backend SimParams::backend asks for, chosen from libnbody's rows (engine/backend_chooser.hpp). Auto picks
// CUDA when this build has it and a usable device exists, else the CPU, and says which and why in *choice.
// Cuda throws BackendError naming why no device can be used (not built with CUDA, no device, driver too old).
// Gl throws BackendError: the GL compute row lives above libnbody (gl_backend/gl_backend_factory.hpp's
// make_backend_with_gl).
std::unique_ptr<Backend> make_backend(const SimParams& p, BackendChoice* choice = nullptr);

// For the sandbox, which goes on whatever the GPU does: make_backend, and where a backend asked for by name
// cannot start and its row lets a fallback take over (CUDA's: the CPU), that one with *choice saying why (the
// window's banner reads it).
std::unique_ptr<Backend> make_backend_or_cpu(const SimParams& p, BackendChoice* choice = nullptr);

// b->reset(s, p), and where a GPU backend cannot hold or run the state (out of memory, no code for this GPU),
// its stand-in (BackendChoice::stand_in: the CPU backend) in its place with *choice saying why. Errors of the state itself (NaN, bad parameters)
// still throw.
void reset_or_cpu(std::unique_ptr<Backend>& b, const State& s, const SimParams& p, BackendChoice* choice);

// Under mpirun with more than one rank (multi/mpi_exchange): this rank's share of one simulation, a
// DistributedBackend over the backend make_backend picks, one GPU per rank (the local rank). nullptr when not
// started by mpirun. Throws BackendError when mpirun started several ranks and this build has no MPI, or the
// inner backend cannot run a sub-range. *rank gets this process's rank (only rank 0 prints and writes).
std::unique_ptr<Backend> make_rank_backend(const SimParams& p, BackendChoice* choice, int* rank);

// The Sapporo2 question, measured on the CUDA backend's Hermite engine: one block-step evaluation (predictor
// of all N, force of `active_count` bodies spread over the state against all N, corrector) on GPU 0, repeated
// `repeats` times between CUDA events; milliseconds per evaluation (nbody-bench --active). Throws
// BackendError where this build has no CUDA backend or no device is usable.
double block_step_evaluation_ms(const State& s, int active_count, const SimParams& p, int repeats);

// True when this build includes the CUDA backend.
bool cuda_built();

// CUDA devices on this machine: 0 without the CUDA backend, a driver or a device. Never throws.
int cuda_device_count();

}  // namespace nbody
