#pragma once
#include <memory>
#include <string>

#include "core/backend.hpp"

namespace nbody {

// The backend SimParams::backend asks for. Auto picks CUDA when this build has it and a usable device
// exists, else the CPU, and puts the reason for the choice in *note. Cuda throws BackendError naming why
// no device can be used (not built with CUDA, no device, driver too old).
std::unique_ptr<Backend> make_backend(const SimParams& p, std::string* note = nullptr);

// True when this build includes the CUDA backend.
bool cuda_built();

}  // namespace nbody
